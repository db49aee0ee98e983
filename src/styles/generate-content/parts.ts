// `contents[]` -> neutral turns. A part holds exactly one kind of data, as the vendor's `oneof`
// does; media must come inline as base64 (the gateway refuses file references); function calls
// belong to model turns and function responses to user turns.
import * as z from 'zod';
import { jsonObject } from '../json-object.js';
import { invalid } from '../../conversation/errors.js';
import type { Part, Turn } from '../../conversation/types.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';

/** The contents' schemas, made at the first generate-content request with the body's. */
export const partSchemas = madeAtFirstUse(() => {
  const partSchema = z.looseObject({
    text: z.string().optional(),
    thought: z.boolean().optional(),
    thoughtSignature: z.string().optional(),
    inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).optional(),
    fileData: z.unknown().optional(),
    functionCall: z
      .looseObject({ id: z.string().optional(), name: z.string().min(1), args: jsonObject().optional() })
      .optional(),
    functionResponse: z
      .looseObject({ id: z.string().optional(), name: z.string().min(1), response: jsonObject().optional() })
      .optional(),
  });

  const contentSchema = z.looseObject({
    role: z.enum(['user', 'model']).optional(),
    parts: z.array(partSchema).min(1),
  });

  // The service reads only the text of a system instruction: any role (`system`, `user`, ...) or none
  // passes, and Google's older SDK sends `system` with every system prompt.
  const systemInstructionSchema = contentSchema.extend({ role: z.string().optional() });
  return { partSchema, contentSchema, systemInstructionSchema };
});

type PartSchemas = ReturnType<typeof partSchemas>;
type WirePart = z.infer<PartSchemas['partSchema']>;
type WireContent = z.infer<PartSchemas['contentSchema']>;

// Server-side tool traffic (code execution, built-in tools) may be echoed back in a history; the
// mock runs none of those tools, so such parts are accepted and carry nothing into the turn; so is
// a Live session's audio transcription echoed back.
const DATA_KEYS = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
  'audioTranscription',
];

const MEDIA_TYPE = /^(?:(?:image|audio|video|text)\/[\w.+-]+|application\/pdf)$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]+|[A-Za-z0-9_-]+)={0,2}$/;

function isBase64(data: string): boolean {
  if (!BASE64.test(data) || data.length % 4 === 1) return false;
  return !data.includes('=') || data.length % 4 === 0;
}

function mediaPart(blob: NonNullable<WirePart['inlineData']>, field: string): Part {
  if (!MEDIA_TYPE.test(blob.mimeType)) {
    throw invalid(
      `Unsupported MIME type at '${field}.mimeType': ${JSON.stringify(blob.mimeType)}. Send image/*, application/pdf, audio/*, video/* or text/*.`,
      `${field}.mimeType`,
    );
  }
  if (!isBase64(blob.data)) throw invalid(`Invalid value at '${field}.data': the data must be non-empty base64.`, `${field}.data`);
  return { kind: 'media', mimeType: blob.mimeType, data: blob.data };
}

function partOf(part: WirePart, role: 'user' | 'model', field: string): Part | undefined {
  const held = DATA_KEYS.filter((key) => part[key] !== undefined);
  if (held.length !== 1) {
    const got = held.length === 0 ? 'none' : held.join(' and ');
    throw invalid(`Invalid value at '${field}': a part holds exactly one of text, inlineData, functionCall or functionResponse; got ${got}.`, field);
  }
  if (part.text !== undefined) return role === 'model' && part.thought ? { kind: 'reasoning', text: part.text } : { kind: 'text', text: part.text };
  if (part.inlineData) return mediaPart(part.inlineData, `${field}.inlineData`);
  if (part.fileData !== undefined) {
    throw invalid(
      `Media must be sent inline as base64 in an inlineData part ({mimeType, data}); fileData / fileUri and the file upload API are not supported.`,
      `${field}.fileData`,
    );
  }
  if (part.functionCall) {
    if (role !== 'model') throw invalid(`Invalid value at '${field}.functionCall': function calls belong to turns of role "model".`, `${field}.functionCall`);
    const call = part.functionCall;
    return { kind: 'tool_call', id: call.id ?? call.name, name: call.name, arguments: call.args ?? {} };
  }
  if (part.functionResponse) {
    if (role !== 'user') {
      throw invalid(`Invalid value at '${field}.functionResponse': function responses belong to turns of role "user".`, `${field}.functionResponse`);
    }
    const result = part.functionResponse;
    return { kind: 'tool_result', callId: result.id ?? result.name, name: result.name, content: JSON.stringify(result.response ?? {}) };
  }
  return undefined;
}

/** A user content that answers function calls becomes a tool turn (then a user turn for the rest). */
function turnsOf(content: WireContent, field: string): Turn[] {
  const role = content.role ?? 'user';
  const parts = content.parts.flatMap((part, i) => partOf(part, role, `${field}.parts[${i}]`) ?? []);
  if (role === 'model') return [{ role: 'assistant', parts }];
  const results = parts.filter((p) => p.kind === 'tool_result');
  const rest = parts.filter((p) => p.kind !== 'tool_result');
  const turns: Turn[] = [];
  if (results.length > 0) turns.push({ role: 'tool', parts: results });
  if (rest.length > 0 || results.length === 0) turns.push({ role: 'user', parts: rest });
  return turns;
}

export function contentsToTurns(contents: readonly WireContent[], field = 'contents'): Turn[] {
  return contents.flatMap((content, i) => turnsOf(content, `${field}[${i}]`));
}

/** `systemInstruction` as a string or a content of text parts. */
export function systemText(instruction: string | z.infer<PartSchemas['systemInstructionSchema']> | undefined): string {
  if (instruction === undefined) return '';
  if (typeof instruction === 'string') return instruction;
  return instruction.parts.flatMap((part) => (part.text !== undefined ? [part.text] : [])).join('\n');
}
