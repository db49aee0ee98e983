// The typed event stream of a response (WIRE.md section 2), cut from the finished response
// object: created, in_progress, each item added -> its deltas -> done, then completed (or
// incomplete) carrying that same object. So the stream, joined, is the whole response.
import type { MockError } from '../../conversation/errors.js';
import type { StreamEvent } from '../../conversation/plan.js';
import { chunkText } from '../../conversation/token-chunks.js';
import { openaiEnvelope } from '../openai-envelope.js';
import type { OutputItem, OutputRefusal, OutputText, ResponseObject } from './encode.js';

/** How the text of the stream is cut: the reply's own chunks, or by token when replaying. */
export interface StreamChunks {
  text(text: string): readonly string[];
  reasoning(text: string): readonly string[];
}

export const BY_TOKEN: StreamChunks = { text: (t) => chunkText(t, 'token'), reasoning: (t) => chunkText(t, 'token') };

type Emit = (type: string, fields: Record<string, unknown>, paced?: boolean) => void;

/** Where a text part's deltas go. */
interface TextPlace {
  item_id: string;
  output_index: number;
  content_index: number;
}

/** Adds a text part's delta: most of a stream's events, so written out without `Emit`'s spreads. */
type TextDelta = (where: TextPlace, delta: string, logprobs: unknown[]) => void;

const TEXT_DELTA = 'response.output_text.delta';

function messageEvents(item: Extract<OutputItem, { type: 'message' }>, at: number, chunks: StreamChunks, emit: Emit, textDelta: TextDelta): void {
  emit('response.output_item.added', { output_index: at, item: { ...item, status: 'in_progress', content: [] } });
  item.content.forEach((part, contentIndex) => {
    const where: TextPlace = { item_id: item.id, output_index: at, content_index: contentIndex };
    if (part.type === 'refusal') return refusalEvents(part, where, chunks, emit);
    const empty: OutputText = { ...part, text: '', logprobs: [] };
    emit('response.content_part.added', { ...where, part: empty });
    // Each delta carries the log probabilities of the tokens it completes, so joined they are the part's.
    let taken = 0;
    let covered = 0;
    let sent = 0;
    for (const delta of chunks.text(part.text)) {
      sent += delta.length;
      const from = taken;
      while (taken < part.logprobs.length && covered < sent) covered += part.logprobs[taken++]!.token.length;
      textDelta(where, delta, part.logprobs.slice(from, taken));
    }
    emit('response.output_text.done', { ...where, text: part.text, logprobs: part.logprobs });
    emit('response.content_part.done', { ...where, part });
  });
}

function refusalEvents(part: OutputRefusal, where: TextPlace, chunks: StreamChunks, emit: Emit): void {
  emit('response.content_part.added', { ...where, part: { ...part, refusal: '' } });
  for (const delta of chunks.text(part.refusal)) emit('response.refusal.delta', { ...where, delta }, true);
  emit('response.refusal.done', { ...where, refusal: part.refusal });
  emit('response.content_part.done', { ...where, part });
}

function reasoningEvents(item: Extract<OutputItem, { type: 'reasoning' }>, at: number, chunks: StreamChunks, emit: Emit): void {
  emit('response.output_item.added', { output_index: at, item: { ...item, summary: [] } });
  item.summary.forEach((part, summaryIndex) => {
    const where = { item_id: item.id, output_index: at, summary_index: summaryIndex };
    emit('response.reasoning_summary_part.added', { ...where, part: { ...part, text: '' } });
    for (const delta of chunks.reasoning(part.text)) emit('response.reasoning_summary_text.delta', { ...where, delta }, true);
    emit('response.reasoning_summary_text.done', { ...where, text: part.text });
    emit('response.reasoning_summary_part.done', { ...where, part });
  });
}

function functionCallEvents(item: Extract<OutputItem, { type: 'function_call' }>, at: number, emit: Emit): void {
  emit('response.output_item.added', { output_index: at, item: { ...item, status: 'in_progress', arguments: '' } });
  const where = { item_id: item.id, output_index: at };
  for (const delta of chunkText(item.arguments, 'token')) emit('response.function_call_arguments.delta', { ...where, delta }, true);
  emit('response.function_call_arguments.done', { ...where, name: item.name, arguments: item.arguments });
}

/** A freeform call's input grows by `response.custom_tool_call_input.delta`; a client-run tool's call comes whole. */
function otherCallEvents(item: Exclude<OutputItem, { type: 'message' | 'reasoning' | 'function_call' }>, at: number, emit: Emit): void {
  if (item.type !== 'custom_tool_call') {
    emit('response.output_item.added', { output_index: at, item: { ...item, status: 'in_progress' } });
    return;
  }
  emit('response.output_item.added', { output_index: at, item: { ...item, input: '' } });
  const where = { item_id: item.id, output_index: at };
  for (const delta of chunkText(item.input, 'token')) emit('response.custom_tool_call_input.delta', { ...where, delta }, true);
  emit('response.custom_tool_call_input.done', { ...where, input: item.input });
}

/** The response as it stands before any output: in progress, nothing counted yet. */
export function started(response: ResponseObject): ResponseObject {
  return { ...response, status: 'in_progress', completed_at: null, incomplete_details: null, output: [], usage: null };
}

export function responseEvents(response: ResponseObject, chunks: StreamChunks): StreamEvent[] {
  const events: StreamEvent[] = [];
  const emit: Emit = (type, fields, paced = false) => {
    events.push({ event: type, data: { type, sequence_number: events.length, ...fields }, ...(paced ? { paced } : {}) });
  };
  const textDelta: TextDelta = ({ item_id, output_index, content_index }, delta, logprobs) => {
    const data = { type: TEXT_DELTA, sequence_number: events.length, item_id, output_index, content_index, delta, logprobs };
    events.push({ event: TEXT_DELTA, data, paced: true });
  };
  emit('response.created', { response: started(response) });
  emit('response.in_progress', { response: started(response) });
  response.output.forEach((item, at) => {
    if (item.type === 'message') messageEvents(item, at, chunks, emit, textDelta);
    else if (item.type === 'reasoning') reasoningEvents(item, at, chunks, emit);
    else if (item.type === 'function_call') functionCallEvents(item, at, emit);
    else otherCallEvents(item, at, emit);
    emit('response.output_item.done', { output_index: at, item });
  });
  emit(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
  return events;
}

/**
 * A failure mid-stream, as the vendor sends it: an `error` event with `code`, `message` and
 * `param` at its top level, and the same under `error` (openai-node throws an event that has
 * one), then `response.failed` for clients that read on. Numbered from where the stream was cut, so the
 * numbers run on without a gap, as in a real failed stream.
 */
export function failureEvents(error: MockError, stream?: { response: ResponseObject; cutAt: number }): StreamEvent[] {
  const body = openaiEnvelope(error).body as { error?: Record<string, unknown> };
  const { message, type, code, param } = body.error ?? { message: error.message, type: 'server_error', code: null, param: null };
  const at = stream?.cutAt ?? 0;
  const data = { type: 'error', code: code ?? null, message, param: param ?? null, sequence_number: at, error: { type, code, message, param } };
  const events: StreamEvent[] = [{ event: 'error', data }];
  if (stream) {
    const failed = { ...started(stream.response), status: 'failed', error: { code: String(code ?? type), message: String(message) } };
    events.push({ event: 'response.failed', data: { type: 'response.failed', sequence_number: at + 1, response: failed } });
  }
  return events;
}
