// Responses `input` items -> neutral turns. Earlier output items (message, reasoning,
// function_call) in a row make one assistant turn, as one assistant message with tool calls does
// in the chat-completions style, so both styles count and match the same conversation alike.
import { failure } from '../../conversation/errors.js';
import type { Part, Turn } from '../../conversation/types.js';
import { parseArguments } from '../chat-completions/decode.js';
import { urlPart } from '../media.js';
import type { DecodeContext } from '../style.js';
import { ownerOf } from './ids.js';
import {
  itemKind,
  type ContentPart,
  type CustomToolCallItem,
  type CustomToolCallOutputItem,
  type FunctionCallItem,
  type FunctionCallOutputItem,
  type InputItem,
  type ItemReference,
  type MessageItem,
  type ReasoningItem,
} from './schema.js';

function mediaPart(part: ContentPart): Part | undefined {
  if (part.type === 'input_image') {
    const image = part as Extract<ContentPart, { type: 'input_image' }>;
    return image.image_url ? urlPart(image.image_url) : { kind: 'media', mimeType: 'image/*' };
  }
  if (part.type === 'input_file') {
    const file = part as Extract<ContentPart, { type: 'input_file' }>;
    const url = file.file_data ?? file.file_url;
    return url ? urlPart(url, 'application/pdf') : { kind: 'media', mimeType: 'application/pdf' };
  }
  if (part.type === 'input_audio') {
    const { input_audio: audio } = part as Extract<ContentPart, { type: 'input_audio' }>;
    return { kind: 'media', mimeType: `audio/${audio.format}`, data: audio.data };
  }
  return undefined;
}

export function contentParts(content: string | ContentPart[]): Part[] {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  return content.flatMap((part): Part[] => {
    if ('text' in part && typeof part.text === 'string') return [{ kind: 'text', text: part.text }];
    if (part.type === 'refusal') return [{ kind: 'text', text: (part as Extract<ContentPart, { type: 'refusal' }>).refusal }];
    const media = mediaPart(part);
    return media ? [media] : [];
  });
}

function textOf(parts: Part[]): string {
  return parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
}

/** The output turn of a stored response: the last turn of its conversation. */
function referencedParts(reference: ItemReference, index: number, context: DecodeContext): Part[] {
  const owner = ownerOf(reference.id);
  const parts = owner ? context.storedTurns(owner.responseId)?.at(-1)?.parts : undefined;
  const found = parts?.filter((p) =>
    owner!.kind === 'message' ? p.kind === 'text' : owner!.kind === 'reasoning' ? p.kind === 'reasoning' : p.kind === 'tool_call',
  );
  const picked = owner?.kind === 'function_call' ? found?.slice(owner.index, owner.index + 1) : found;
  if (!picked || picked.length === 0) {
    throw failure('item_not_found', `Item with id '${reference.id}' not found.`, { param: `input[${index}]` });
  }
  return picked;
}

export interface DecodedInput {
  /** Text of system and developer messages, in order. */
  system: string[];
  turns: Turn[];
}

/** The name of the last call with this id among the carried turns. */
function carriedCallName(earlier: readonly Turn[], id: string): string | undefined {
  for (let index = earlier.length - 1; index >= 0; index -= 1) {
    const parts = earlier[index]!.parts;
    for (let at = parts.length - 1; at >= 0; at -= 1) {
      const part = parts[at]!;
      if (part.kind === 'tool_call' && part.id === id) return part.name;
    }
  }
  return undefined;
}

/** `earlier`: turns carried by `previous_response_id`, where tool results find their call's name. */
export function inputTurns(items: InputItem[], context: DecodeContext, earlier: Turn[]): DecodedInput {
  const system: string[] = [];
  const turns: Turn[] = [];
  const callNames = new Map<string, string>();
  /** A call's name, from this input or else the latest carried turn that made it (looked up only for a result). */
  const callName = (id: string): string | undefined => callNames.get(id) ?? carriedCallName(earlier, id);
  const assistant = (parts: Part[]) => {
    const last = turns.at(-1);
    if (last?.role === 'assistant') last.parts.push(...parts);
    else turns.push({ role: 'assistant', parts });
  };
  items.forEach((item, index) => {
    switch (itemKind(item)) {
      case 'message': {
        const { role, content } = item as MessageItem;
        const parts = contentParts(content);
        if (role === 'system' || role === 'developer') system.push(textOf(parts));
        else if (role === 'assistant') assistant(parts);
        else turns.push({ role: 'user', parts });
        break;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const call = item as FunctionCallItem | CustomToolCallItem;
        callNames.set(call.call_id, call.name);
        // A custom tool's call keeps its raw input as its arguments.
        const args = 'input' in call ? call.input : parseArguments(call.arguments);
        assistant([{ kind: 'tool_call', id: call.call_id, name: call.name, arguments: args }]);
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const result = item as FunctionCallOutputItem | CustomToolCallOutputItem;
        const name = callName(result.call_id);
        const content = textOf(contentParts(result.output));
        turns.push({ role: 'tool', parts: [{ kind: 'tool_result', callId: result.call_id, ...(name ? { name } : {}), content }] });
        break;
      }
      case 'reasoning': {
        const text = (item as ReasoningItem).summary.map((s) => s.text).join('\n');
        if (text) assistant([{ kind: 'reasoning', text }]);
        break;
      }
      case 'item_reference': {
        const parts = referencedParts(item as ItemReference, index, context);
        for (const part of parts) if (part.kind === 'tool_call') callNames.set(part.id, part.name);
        assistant(parts);
        break;
      }
      // Hosted-tool items (web search, computer use, ...) say nothing the mock answers on.
    }
  });
  return { system, turns };
}
