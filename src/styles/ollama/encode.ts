// Reply -> Ollama wire: one object for `stream: false`, else NDJSON lines whose last says
// `done: true` with the counts and durations. `/api/chat` answers in `message`, `/api/generate`
// in `response`; both from the same pieces, so the joined lines say what the whole object says.
import type { StreamEvent, StreamPart } from '../../conversation/plan.js';
import type { ChatRequest, Reply, ReplyChoice } from '../../conversation/types.js';
import { holeMark, MoldShelf, PIECE_MARK, pushMolded, SpanMold } from '../piece-events.js';
import { isGenerate } from './decode.js';

const NS_PER_MS = 1_000_000;
// A loaded model still takes a moment to be handed the request; durations are never zero, since
// clients divide counts by them (tokens per second).
const LOAD_NS = NS_PER_MS;

/**
 * The counts and nanosecond durations of the last line, from the answer's pacing plan: the wait
 * before the first chunk is the prompt's evaluation, the waits between chunks the output's.
 */
export function timings(reply: Reply): Record<string, number> {
  const choice = reply.choices[0];
  const chunks = Math.max(1, (choice?.textChunks.length ?? 0) + (choice?.reasoningChunks.length ?? 0));
  const promptEval = Math.max(1, reply.pacing.firstChunkMs) * NS_PER_MS;
  const evaluation = Math.max(1, reply.pacing.chunkMs) * chunks * NS_PER_MS;
  return {
    total_duration: LOAD_NS + promptEval + evaluation,
    load_duration: LOAD_NS,
    prompt_eval_count: reply.usage.inputTokens,
    prompt_eval_duration: promptEval,
    eval_count: reply.usage.outputTokens + reply.usage.reasoningTokens,
    eval_duration: evaluation,
  };
}

function doneReason(choice: ReplyChoice | undefined): string {
  return choice?.finishReason === 'length' ? 'length' : 'stop';
}

function toolCalls(choice: ReplyChoice): Record<string, unknown>[] {
  return choice.toolCalls.map((call, index) => ({ id: `call_${call.id}`, function: { index, name: call.name, arguments: call.arguments } }));
}

function head(reply: Reply, request: ChatRequest): Record<string, unknown> {
  return { model: request.model, created_at: new Date(reply.createdMs).toISOString() };
}

function last(reply: Reply, request: ChatRequest): Record<string, unknown> {
  const generate = isGenerate(request.body);
  return { done: true, done_reason: doneReason(reply.choices[0]), ...(generate && { context: [] }), ...timings(reply) };
}

export function encodeOllama(reply: Reply, request: ChatRequest): unknown {
  const choice = reply.choices[0]!;
  const thinking = choice.reasoning !== undefined ? { thinking: choice.reasoning } : {};
  if (isGenerate(request.body)) return { ...head(reply, request), response: choice.text, ...thinking, ...last(reply, request) };
  const calls = choice.toolCalls.length > 0 ? { tool_calls: toolCalls(choice) } : {};
  return { ...head(reply, request), message: { role: 'assistant', content: choice.text, ...thinking, ...calls }, ...last(reply, request) };
}

/** A streamed line of `start`'s model and time: `fields` in the answer's message (`/api/chat`) or beside its `response` (`/api/generate`). */
function lineOf(start: Record<string, unknown>, generate: boolean, fields: Record<string, unknown>, paced = true): StreamEvent {
  return {
    data: generate ? { ...start, response: '', ...fields, done: false } : { ...start, message: { role: 'assistant', content: '', ...fields }, done: false },
    paced,
  };
}

/** Where a line's piece goes: a line differs from the last stream's of the same model and route only in its time and piece. */
type PieceKey = readonly [model: string, generate: boolean, field: 'thinking' | 'response' | 'content'];
const pieceMolds = new MoldShelf<PieceKey, SpanMold>(([model, generate, field]) => SpanMold.of(lineOf({ model, created_at: holeMark(0) }, generate, { [field]: PIECE_MARK }), 1));

export function ollamaParts(reply: Reply, request: ChatRequest): StreamPart[] {
  const choice = reply.choices[0]!;
  const start = head(reply, request);
  const generate = isGenerate(request.body);
  const holes = [JSON.stringify(start.created_at)];
  const events: StreamPart[] = [];
  const pushPieces = (pieces: readonly string[], field: PieceKey[2]): void =>
    pushMolded(events, pieces, (piece) => lineOf(start, generate, { [field]: piece }), pieceMolds.of([request.model, generate, field]), holes);
  pushPieces(choice.reasoningChunks, 'thinking');
  pushPieces(choice.textChunks, generate ? 'response' : 'content');
  if (!generate && choice.toolCalls.length > 0) events.push(lineOf(start, generate, { tool_calls: toolCalls(choice) }));
  const closing = generate ? { response: '' } : { message: { role: 'assistant', content: '' } };
  events.push({ data: { ...start, ...closing, ...last(reply, request) } });
  return events;
}
