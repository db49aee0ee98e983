// A responses answer read back into the neutral reply (WIRE.md section 2): the response object's
// output items, or the typed events (text and reasoning-summary deltas, function-call arguments,
// and the final response for status and usage).
import {
  asArray,
  asObject,
  asString,
  reasoningOf,
  recordedCall,
  StreamedCalls,
  streamedReply,
  usageOf,
  type Json,
  type RecordedAnswer,
  type RecordedReply,
} from '../../conversation/recorded.js';
import type { FinishReason } from '../../conversation/types.js';

const INCOMPLETE: Record<string, FinishReason> = { max_output_tokens: 'length', content_filter: 'content_filter' };

/** A response says how it ended by its status; a finished one that calls tools ends for them. */
function finishOf(response: Json, calledTools: boolean): FinishReason | undefined {
  if (response.status === 'incomplete') return INCOMPLETE[asString(asObject(response.incomplete_details).reason) ?? ''] ?? 'length';
  if (response.status === 'completed') return calledTools ? 'tool_calls' : 'stop';
  return undefined;
}

/** Output tokens include the reasoning tokens, as the vendor bills them. */
function usage(response: Json) {
  const figures = asObject(response.usage);
  return usageOf(figures.input_tokens, figures.output_tokens);
}

function summaryOf(item: Json): string {
  return asArray(item.summary)
    .map((part) => asString(asObject(part).text) ?? '')
    .join('');
}

function readWhole(response: Json): RecordedReply {
  const items = asArray(response.output).map(asObject);
  const reasoning = items.filter((item) => item.type === 'reasoning').map(summaryOf).join('');
  const text = items
    .filter((item) => item.type === 'message')
    .flatMap((item) => asArray(item.content).map(asObject))
    .filter((part) => part.type === 'output_text')
    .map((part) => asString(part.text) ?? '')
    .join('');
  const toolCalls = items
    .filter((item) => item.type === 'function_call' || item.type === 'custom_tool_call')
    .map((item) => (item.type === 'custom_tool_call' ? recordedCall(asString(item.name) ?? '', item.input, true) : recordedCall(asString(item.name) ?? '', item.arguments, false)));
  return {
    text,
    ...reasoningOf(reasoning),
    toolCalls,
    finishReason: finishOf(response, toolCalls.length > 0),
    usage: usage(response),
  };
}

const FINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

function readStream(events: NonNullable<RecordedAnswer['events']>): RecordedReply {
  const chunks: string[] = [];
  const reasoning: string[] = [];
  const calls = new StreamedCalls();
  let final: Json | undefined;
  for (const { data } of events) {
    const event = asObject(data);
    const type = asString(event.type) ?? '';
    const item = asObject(event.item);
    if (type === 'response.output_item.added' && (item.type === 'function_call' || item.type === 'custom_tool_call')) {
      calls.open(asString(item.id) ?? calls.size, asString(item.name) ?? '', '', item.type === 'custom_tool_call');
    } else if (type === 'response.output_text.delta') {
      chunks.push(asString(event.delta) ?? '');
    } else if (type === 'response.reasoning_summary_text.delta') {
      reasoning.push(asString(event.delta) ?? '');
    } else if (type === 'response.function_call_arguments.delta' || type === 'response.custom_tool_call_input.delta') {
      calls.append(asString(event.item_id) ?? '', asString(event.delta) ?? '');
    } else if (type === 'response.function_call_arguments.done') {
      calls.complete(asString(event.item_id) ?? '', asString(event.arguments) ?? '');
    } else if (type === 'response.custom_tool_call_input.done') {
      calls.complete(asString(event.item_id) ?? '', asString(event.input) ?? '');
    } else if (FINAL.has(type)) {
      final = asObject(event.response);
    }
  }
  return streamedReply(chunks, reasoning, {
    toolCalls: calls.toolCalls(),
    finishReason: final ? finishOf(final, calls.size > 0) : undefined,
    usage: final ? usage(final) : undefined,
  });
}

export function readResponse(answer: RecordedAnswer): RecordedReply {
  return answer.events ? readStream(answer.events) : readWhole(asObject(answer.body));
}
