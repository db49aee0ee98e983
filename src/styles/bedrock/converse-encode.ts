// Reply -> a Converse answer, whole (ConverseResponse) or as ConverseStream's flat events, each an
// event-stream message named by its `:event-type`. Joined, the stream says what the whole says.
import type { StreamEvent, StreamPart } from '../../conversation/plan.js';
import { chunkText } from '../../conversation/token-chunks.js';
import type { ChatRequest, Reply, ReplyChoice, ToolCall } from '../../conversation/types.js';
import { choiceOf, outputTokens, signatureOf, toolUseId } from '../messages/encode.js';
import { MoldShelf, NO_HOLES, PIECE_MARK, pushMolded, SpanMold } from '../piece-events.js';

type Block =
  | { reasoningContent: { reasoningText: { text: string; signature: string } } }
  | { text: string }
  | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } };

// Converse's `StopReason` has no model refusal of its own: a refusal is a filtered answer there.
const STOP_REASONS = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', content_filter: 'content_filtered', refusal: 'content_filtered' } as const;

/** A call whose arguments are not JSON (not cut by the limit): Bedrock sends no call, only its own stop. */
function malformed(call: ToolCall, choice: ReplyChoice): boolean {
  return call.argumentsText !== undefined && choice.finishReason !== 'length';
}

function stopReason(reply: Reply): string {
  const choice = choiceOf(reply);
  if (choice.toolCalls.some((call) => malformed(call, choice))) return 'malformed_tool_use';
  return choice.finishReason === 'stop' && choice.stopSequence !== undefined ? 'stop_sequence' : STOP_REASONS[choice.finishReason];
}

function usage(reply: Reply) {
  const output = outputTokens(reply);
  return { inputTokens: reply.usage.inputTokens, outputTokens: output, totalTokens: reply.usage.inputTokens + output };
}

/** The mock's own pacing stands for the model's latency. */
function metrics(reply: Reply) {
  return { latencyMs: reply.pacing.firstChunkMs + reply.pacing.chunkMs * choiceOf(reply).textChunks.length };
}

/** Reasoning (when asked to be seen), then text, then tool calls, as messages orders its blocks. */
function blocksOf(reply: Reply, request: ChatRequest): Block[] {
  const choice = choiceOf(reply);
  const blocks: Block[] = [];
  if (choice.reasoning !== undefined && request.reasoning?.visible) blocks.push({ reasoningContent: { reasoningText: { text: choice.reasoning, signature: signatureOf(reply) } } });
  if (choice.text !== '') blocks.push({ text: choice.text });
  for (const call of choice.toolCalls.filter((made) => !malformed(made, choice))) blocks.push({ toolUse: { toolUseId: toolUseId(call), name: call.name, input: call.arguments } });
  return blocks;
}

export function encodeConverse(reply: Reply, request: ChatRequest): unknown {
  return {
    output: { message: { role: 'assistant', content: blocksOf(reply, request) } },
    stopReason: stopReason(reply),
    usage: usage(reply),
    metrics: metrics(reply),
  };
}

function event(type: string, data: Record<string, unknown>, paced = false): StreamEvent {
  return { event: type, data, paced };
}

/** A text block's delta: the same JSON in every stream but for its text, so its span's is molded once per block index. */
function textDelta(contentBlockIndex: number, text: string): StreamEvent {
  return event('contentBlockDelta', { delta: { text }, contentBlockIndex }, true);
}

const textMolds = new MoldShelf<readonly [index: number], SpanMold>(([index]) => SpanMold.of(textDelta(index, PIECE_MARK), 0));

export function converseParts(reply: Reply, request: ChatRequest): StreamPart[] {
  const choice = choiceOf(reply);
  const events: StreamPart[] = [event('messageStart', { role: 'assistant' })];
  blocksOf(reply, request).forEach((block, contentBlockIndex) => {
    const delta = (payload: Record<string, unknown>) => event('contentBlockDelta', { delta: payload, contentBlockIndex }, true);
    if ('reasoningContent' in block) {
      for (const text of choice.reasoningChunks) events.push(delta({ reasoningContent: { text } }));
      events.push(delta({ reasoningContent: { signature: block.reasoningContent.reasoningText.signature } }));
    } else if ('text' in block) {
      pushMolded(events, choice.textChunks, (text) => textDelta(contentBlockIndex, text), textMolds.of([contentBlockIndex]), NO_HOLES);
    } else {
      const { toolUseId: id, name, input } = block.toolUse;
      events.push(event('contentBlockStart', { start: { toolUse: { toolUseId: id, name } }, contentBlockIndex }));
      const json = Object.keys(input).length === 0 ? ['{}'] : chunkText(JSON.stringify(input), 'token');
      for (const piece of json) events.push(delta({ toolUse: { input: piece } }));
    }
    events.push(event('contentBlockStop', { contentBlockIndex }));
  });
  events.push(event('messageStop', { stopReason: stopReason(reply) }));
  events.push(event('metadata', { usage: usage(reply), metrics: metrics(reply) }));
  return events;
}
