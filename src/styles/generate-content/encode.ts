// Reply -> GenerateContentResponse (WIRE.md section 5): one candidate per choice, its parts in the
// vendor's order (thought, text, images, function calls), usage and ids. The stream in events.ts
// is cut from the same parts, so joined chunks say what this says.
import { tokenLogprobs } from '../../conversation/logprobs.js';
import { hashHex } from '../../conversation/random.js';
import type { ChatRequest, FinishReason, Reply, ReplyChoice } from '../../conversation/types.js';
import { promptDetails, usageMetadata } from './usage.js';
import { encodeWith, textReplyValues, type AnswerShape, type Holes } from '../answer-template.js';

export type WirePart = Record<string, unknown>;

const FINISH: Record<FinishReason, string> = {
  stop: 'STOP',
  // The vendor ends a turn of function calls with STOP; clients look for the calls themselves.
  tool_calls: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
  refusal: 'SAFETY',
};

const HARM_CATEGORIES = ['HARM_CATEGORY_HATE_SPEECH', 'HARM_CATEGORY_DANGEROUS_CONTENT', 'HARM_CATEGORY_HARASSMENT', 'HARM_CATEGORY_SEXUALLY_EXPLICIT'];

/**
 * The service never sends a call whose arguments are not JSON: it ends the turn with
 * MALFORMED_FUNCTION_CALL (MAX_TOKENS when the limit cut it); a call of an undeclared tool is sent
 * with UNEXPECTED_TOOL_CALL.
 */
export function finishReasonOf(choice: ReplyChoice): string {
  if (choice.finishReason !== 'length' && choice.toolCalls.some((call) => call.argumentsText !== undefined)) return 'MALFORMED_FUNCTION_CALL';
  if (choice.toolCalls.some((call) => call.undeclared)) return 'UNEXPECTED_TOOL_CALL';
  return FINISH[choice.finishReason];
}

/** A SAFETY stop shows nothing of what was refused. */
export function shownText(choice: ReplyChoice): boolean {
  return choice.text !== '' && choice.finishReason !== 'refusal';
}

/** The rating that explains a SAFETY stop is marked blocked; otherwise every category is negligible. */
export function safetyRatings(choice: Pick<ReplyChoice, 'finishReason'>) {
  const blocked = choice.finishReason === 'content_filter' || choice.finishReason === 'refusal';
  return HARM_CATEGORIES.map((category) =>
    blocked && category === 'HARM_CATEGORY_DANGEROUS_CONTENT'
      ? { category, probability: 'HIGH', blocked: true }
      : { category, probability: 'NEGLIGIBLE' },
  );
}

export function responseId(reply: Reply): string {
  return Buffer.from(reply.id, 'hex').toString('base64url');
}

export function showsThoughts(request: ChatRequest): boolean {
  return request.reasoning?.visible === true;
}

export function thoughtPart(text: string): WirePart {
  return { text, thought: true };
}

/**
 * With thinking on, the vendor signs the first function call so the thoughts can be resumed when
 * the call comes back; clients (Gemini 3 especially) carry the signature through.
 */
export function callParts(reply: Reply, choice: ReplyChoice, index: number, request: ChatRequest): WirePart[] {
  return choice.toolCalls.filter((call) => call.argumentsText === undefined).map((call, i) => ({
    functionCall: { id: call.id, name: call.name, args: call.arguments },
    ...(request.reasoning && i === 0 ? { thoughtSignature: Buffer.from(hashHex(`${reply.id}|${index}`, 40), 'hex').toString('base64') } : {}),
  }));
}

export function imageParts(choice: ReplyChoice): WirePart[] {
  return choice.images.map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } }));
}

function partsOf(reply: Reply, choice: ReplyChoice, index: number, request: ChatRequest): WirePart[] {
  return [
    ...(showsThoughts(request) && choice.reasoning ? [thoughtPart(choice.reasoning)] : []),
    ...(shownText(choice) ? [{ text: choice.text }] : []),
    ...imageParts(choice),
    ...callParts(reply, choice, index, request),
  ];
}

/** A content without parts is what the vendor sends when a turn ends with nothing to show. */
export function contentOf(parts: WirePart[]) {
  return parts.length > 0 ? { parts, role: 'model' } : { role: 'model' };
}

export function envelopeFields(reply: Reply, request: ChatRequest, id = responseId(reply)) {
  return { modelVersion: request.model, responseId: id };
}

/**
 * `Candidate.logprobsResult` and `avgLogprobs` of a choice's text, or of a streamed piece of it
 * starting at `offset`, when `responseLogprobs` asks for them.
 */
export function logprobsOf(request: ChatRequest, text: string, index: number, offset = 0) {
  if (!request.logprobs) return {};
  const entries = tokenLogprobs(text, `${request.model}:${index}`, request.logprobs.top, offset);
  const candidate = (entry: { token: string; logprob: number }) => ({ token: entry.token, logProbability: entry.logprob });
  const sum = entries.reduce((total, entry) => total + entry.logprob, 0);
  return {
    logprobsResult: {
      chosenCandidates: entries.map(candidate),
      topCandidates: entries.map((entry) => ({ candidates: entry.top.map(candidate) })),
      logProbabilitySum: sum,
    },
    avgLogprobs: entries.length > 0 ? sum / entries.length : 0,
  };
}

/** A prompt the filter blocked: feedback and usage, no candidates. */
export function blockedPrompt(reply: Reply, request: ChatRequest) {
  return {
    promptFeedback: { blockReason: 'SAFETY', safetyRatings: safetyRatings({ finishReason: 'content_filter' }) },
    usageMetadata: usageMetadata(reply.usage, promptDetails(request, reply.usage.inputTokens)),
    ...envelopeFields(reply, request),
  };
}

/** What one answer of a reply says that the next answer of the same fixture's reply does not: its usage and id. */
interface GenerateContentHoles extends Holes {
  usageMetadata: ReturnType<typeof usageMetadata>;
  responseId: string;
}

/** The `GenerateContentResponse`, made with its holes (answer-template.ts). */
export const generateContentAnswer: AnswerShape<GenerateContentHoles> = {
  holes: (reply, request) => ({ usageMetadata: usageMetadata(reply.usage, promptDetails(request, reply.usage.inputTokens)), responseId: responseId(reply) }),
  whole: (reply, request, holes) => {
    if (reply.promptBlocked) return blockedPrompt(reply, request);
    return {
      candidates: reply.choices.map((choice, index) => ({
        content: contentOf(partsOf(reply, choice, index, request)),
        finishReason: finishReasonOf(choice),
        safetyRatings: safetyRatings(choice),
        index,
        ...logprobsOf(request, choice.text, index),
      })),
      usageMetadata: holes.usageMetadata,
      ...envelopeFields(reply, request, holes.responseId),
    };
  },
  same: (reply, request) => (request.logprobs ? undefined : textReplyValues(reply, request.model, showsThoughts(request))),
};

export const encodeGenerateContent = encodeWith(generateContentAnswer);

export function encodeCountTokens(totalTokens: number, request: ChatRequest): unknown {
  return { totalTokens, promptTokensDetails: promptDetails(request, totalTokens) };
}
