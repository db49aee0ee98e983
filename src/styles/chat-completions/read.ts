// A chat-completions answer read back into the neutral reply (WIRE.md section 1): the first
// choice's message, or the chunk stream's deltas with tool-call argument fragments joined.
import {
  asArray,
  asObject,
  asString,
  StreamedCalls,
  streamedReply,
  usageOf,
  reasoningOf,
  recordedCall,
  type Json,
  type RecordedAnswer,
  type RecordedReply,
} from '../../conversation/recorded.js';
import type { FinishReason } from '../../conversation/types.js';

const FINISH: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

function finishOf(value: unknown): FinishReason | undefined {
  return FINISH[asString(value) ?? ''];
}

/** Completion tokens include the reasoning tokens, as the vendor bills them. */
function usage(value: unknown) {
  const figures = asObject(value);
  return usageOf(figures.prompt_tokens, figures.completion_tokens);
}

/** DeepSeek and new-api spell the reasoning `reasoning_content`; some gateways `reasoning`. */
function thoughtOf(holder: Record<string, unknown>): string | undefined {
  return asString(holder.reasoning_content) ?? asString(holder.reasoning);
}

/** A call is a function's (`function.arguments`) or a custom tool's (`custom.input`, its raw text). */
function callOf(call: Json): { name: string; text: unknown; freeform: boolean } {
  const freeform = call.type === 'custom' || call.custom !== undefined;
  const body = asObject(freeform ? call.custom : call.function);
  return { name: asString(body.name) ?? '', text: freeform ? body.input : body.arguments, freeform };
}

/** The first choice: the one the journal, the recorder and the fixture speak for. */
function firstChoice(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const choices = asArray(body.choices).map(asObject);
  return choices.find((choice) => (choice.index ?? 0) === 0);
}

function readWhole(body: Record<string, unknown>): RecordedReply {
  const choice = firstChoice(body) ?? {};
  const message = asObject(choice.message);
  return {
    text: asString(message.content) ?? '',
    ...reasoningOf(thoughtOf(message)),
    toolCalls: asArray(message.tool_calls).map((entry) => {
      const { name, text, freeform } = callOf(asObject(entry));
      return recordedCall(name, text, freeform);
    }),
    finishReason: finishOf(choice.finish_reason),
    usage: usage(body.usage),
  };
}

function readStream(events: NonNullable<RecordedAnswer['events']>): RecordedReply {
  const chunks: string[] = [];
  const reasoning: string[] = [];
  const calls = new StreamedCalls();
  let finishReason: FinishReason | undefined;
  let figures: RecordedReply['usage'];
  for (const { data } of events) {
    const chunk = asObject(data);
    figures = usage(chunk.usage) ?? figures;
    const choice = firstChoice(chunk);
    if (!choice) continue;
    const delta = asObject(choice.delta);
    const text = asString(delta.content);
    if (text) chunks.push(text);
    const thought = thoughtOf(delta);
    if (thought) reasoning.push(thought);
    for (const entry of asArray(delta.tool_calls).map(asObject)) {
      const { name, text, freeform } = callOf(entry);
      const key = typeof entry.index === 'number' ? entry.index : calls.size;
      calls.open(key, name, '', freeform);
      calls.append(key, asString(text) ?? '');
    }
    finishReason = finishOf(choice.finish_reason) ?? finishReason;
  }
  return streamedReply(chunks, reasoning, { toolCalls: calls.toolCalls(), finishReason, usage: figures });
}

export function readChatCompletion(answer: RecordedAnswer): RecordedReply {
  return answer.events ? readStream(answer.events) : readWhole(asObject(answer.body));
}
