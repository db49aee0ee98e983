// A messages answer read back into the neutral reply (WIRE.md section 3): the message's content
// blocks, or the event stream (message_start, content_block_start/delta/stop, message_delta).
import {
  asArray,
  asNumber,
  asObject,
  asString,
  reasoningOf,
  StreamedCalls,
  streamedReply,
  usageOf,
  type Json,
  type RecordedAnswer,
  type RecordedReply,
} from '../../conversation/recorded.js';
import type { FinishReason } from '../../conversation/types.js';

const STOP: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

function finishOf(value: unknown): FinishReason | undefined {
  return STOP[asString(value) ?? ''];
}

function readWhole(message: Json): RecordedReply {
  const blocks = asArray(message.content).map(asObject);
  const textOf = (type: string, field: string) =>
    blocks
      .filter((block) => block.type === type)
      .map((block) => asString(block[field]) ?? '')
      .join('');
  const usage = asObject(message.usage);
  return {
    text: textOf('text', 'text'),
    ...reasoningOf(textOf('thinking', 'thinking')),
    toolCalls: blocks
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ name: asString(block.name) ?? '', arguments: asObject(block.input) })),
    finishReason: finishOf(message.stop_reason),
    usage: usageOf(usage.input_tokens, usage.output_tokens),
  };
}

function readStream(events: NonNullable<RecordedAnswer['events']>): RecordedReply {
  const chunks: string[] = [];
  const reasoning: string[] = [];
  const calls = new StreamedCalls();
  let finishReason: FinishReason | undefined;
  let input: number | undefined;
  let output: number | undefined;
  for (const { data } of events) {
    const event = asObject(data);
    const delta = asObject(event.delta);
    const index = asNumber(event.index) ?? -1;
    if (event.type === 'message_start') {
      input = asNumber(asObject(asObject(event.message).usage).input_tokens);
    } else if (event.type === 'content_block_start') {
      const block = asObject(event.content_block);
      if (block.type === 'tool_use') calls.open(index, asString(block.name) ?? '');
    } else if (event.type === 'content_block_delta') {
      if (delta.type === 'text_delta') chunks.push(asString(delta.text) ?? '');
      else if (delta.type === 'thinking_delta') reasoning.push(asString(delta.thinking) ?? '');
      else if (delta.type === 'input_json_delta') calls.append(index, asString(delta.partial_json) ?? '');
    } else if (event.type === 'message_delta') {
      // The final figures: output always, input when the vendor repeats it.
      const usage = asObject(event.usage);
      input = asNumber(usage.input_tokens) ?? input;
      output = asNumber(usage.output_tokens) ?? output;
      finishReason = finishOf(delta.stop_reason) ?? finishReason;
    }
  }
  return streamedReply(chunks, reasoning, { toolCalls: calls.toolCalls(), finishReason, usage: usageOf(input, output) });
}

export function readMessage(answer: RecordedAnswer): RecordedReply {
  return answer.events ? readStream(answer.events) : readWhole(asObject(answer.body));
}
