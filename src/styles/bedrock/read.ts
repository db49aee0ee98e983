// A Bedrock answer read back into the neutral reply: Converse's whole body or stream events, or
// InvokeModel's message (its stream's `chunk` bytes are messages events).
import {
  asArray,
  asNumber,
  asObject,
  asString,
  reasoningOf,
  StreamedCalls,
  streamedReply,
  usageOf,
  type RecordedAnswer,
  type RecordedReply,
} from '../../conversation/recorded.js';
import type { FinishReason } from '../../conversation/types.js';
import { readMessage } from '../messages/read.js';

const STOP: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  content_filtered: 'content_filter',
  guardrail_intervened: 'content_filter',
};

function readWhole(body: Record<string, unknown>): RecordedReply {
  const blocks = asArray(asObject(asObject(body.output).message).content).map(asObject);
  const usage = asObject(body.usage);
  return {
    text: blocks.map((block) => asString(block.text) ?? '').join(''),
    ...reasoningOf(blocks.map((block) => asString(asObject(asObject(block.reasoningContent).reasoningText).text) ?? '').join('')),
    toolCalls: blocks.flatMap((block) => (block.toolUse ? [{ name: asString(asObject(block.toolUse).name) ?? '', arguments: asObject(asObject(block.toolUse).input) }] : [])),
    finishReason: STOP[asString(body.stopReason) ?? ''],
    usage: usageOf(usage.inputTokens, usage.outputTokens),
  };
}

function readStream(events: NonNullable<RecordedAnswer['events']>): RecordedReply {
  const chunks: string[] = [];
  const reasoning: string[] = [];
  const calls = new StreamedCalls();
  let finishReason: FinishReason | undefined;
  let usage: RecordedReply['usage'];
  for (const { event, data } of events) {
    const payload = asObject(data);
    const index = asNumber(payload.contentBlockIndex) ?? -1;
    const delta = asObject(payload.delta);
    if (event === 'contentBlockStart') calls.open(index, asString(asObject(asObject(payload.start).toolUse).name) ?? '');
    else if (event === 'contentBlockDelta') {
      if (typeof delta.text === 'string') chunks.push(delta.text);
      reasoning.push(asString(asObject(delta.reasoningContent).text) ?? '');
      calls.append(index, asString(asObject(delta.toolUse).input) ?? '');
    } else if (event === 'messageStop') finishReason = STOP[asString(payload.stopReason) ?? ''];
    else if (event === 'metadata') usage = usageOf(asObject(payload.usage).inputTokens, asObject(payload.usage).outputTokens);
  }
  return streamedReply(chunks, reasoning, { toolCalls: calls.toolCalls(), finishReason, usage });
}

/** InvokeModel's stream: each chunk's bytes are one messages event. */
function unwrapped(events: NonNullable<RecordedAnswer['events']>): RecordedAnswer['events'] {
  return events.flatMap(({ data }) => {
    const bytes = asString(asObject(data).bytes);
    if (bytes === undefined) return [];
    try {
      const inner = JSON.parse(Buffer.from(bytes, 'base64').toString('utf8')) as unknown;
      return [{ event: asString(asObject(inner).type) ?? null, data: inner }];
    } catch {
      return [];
    }
  });
}

export function readBedrock(answer: RecordedAnswer): RecordedReply {
  if (answer.events) return answer.events.some((item) => item.event === 'chunk') ? readMessage({ events: unwrapped(answer.events) }) : readStream(answer.events);
  const body = asObject(answer.body);
  return 'output' in body ? readWhole(body) : readMessage(answer);
}
