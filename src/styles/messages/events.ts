// Reply -> the messages-style event stream (WIRE.md section 3). Every event carries both its
// `event:` name (the vendor SDK dispatches on it) and the same JSON `type` (the Vercel client
// validates it); block starts carry empty seeds because clients append the deltas to them.
import type { MockError } from '../../conversation/errors.js';
import type { StreamEvent, StreamPart } from '../../conversation/plan.js';
import { argumentsText } from '../../conversation/call-arguments.js';
import { chunkText } from '../../conversation/token-chunks.js';
import type { ChatRequest, Reply } from '../../conversation/types.js';
import { choiceOf, contentBlocks, openingMessage, stopOf, usageOf, type ContentBlock } from './encode.js';
import type { StreamErrorContext } from '../style.js';
import { messagesEnvelope } from './envelope.js';
import { eventsOf, MoldShelf, NO_HOLES, PIECE_MARK, pushMolded, SpanMold } from '../piece-events.js';

function event(type: string, fields: Record<string, unknown> = {}, paced = false): StreamEvent {
  return { event: type, data: { type, ...fields }, paced };
}

/** A text block's delta: the same JSON in every stream but for its text, so its span's is molded once per block index. */
function textDelta(index: number, text: string): StreamEvent {
  return event('content_block_delta', { index, delta: { type: 'text_delta', text } }, true);
}

const textMolds = new MoldShelf<readonly [index: number], SpanMold>(([index]) => SpanMold.of(textDelta(index, PIECE_MARK), 0));

function seedOf(block: ContentBlock): ContentBlock {
  if (block.type === 'thinking') return { type: 'thinking', thinking: '', signature: '' };
  if (block.type === 'text') return { type: 'text', text: '' };
  return { ...block, input: {} };
}

/**
 * The deltas of a thinking or tool block (the `call`-th tool block); a text block's are pieces
 * (`pushPieces`). A tool's are the arguments' text as sent, which a fault may leave unparsable.
 */
function deltasOf(block: Exclude<ContentBlock, { type: 'text' }>, reply: Reply, call: number): Array<Record<string, unknown>> {
  const choice = choiceOf(reply);
  if (block.type === 'thinking') {
    return [
      ...(block.thinking === '' ? [] : choice.reasoningChunks.map((thinking) => ({ type: 'thinking_delta', thinking }))),
      { type: 'signature_delta', signature: block.signature },
    ];
  }
  // A tool without arguments still sends one (empty) input_json_delta, as the vendor does.
  const text = argumentsText(choice.toolCalls[call]!);
  const json = text === '{}' ? [''] : chunkText(text, 'token');
  return json.map((partial_json) => ({ type: 'input_json_delta', partial_json }));
}

/** The closing usage has only the counts (the SDK's `MessageDeltaUsage`); the rest came in message_start. */
function deltaUsageOf(reply: Reply) {
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens, output_tokens_details } = usageOf(reply);
  return { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens, output_tokens_details };
}

export function messageParts(reply: Reply, request: ChatRequest): StreamPart[] {
  const blocks = contentBlocks(reply, request);
  const events: StreamPart[] = [event('message_start', { message: openingMessage(reply, request) })];
  if (blocks.length === 0) events.push(event('ping'));
  let calls = 0;
  blocks.forEach((block, index) => {
    events.push(event('content_block_start', { index, content_block: seedOf(block) }));
    if (index === 0) events.push(event('ping'));
    if (block.type === 'text') {
      pushMolded(events, choiceOf(reply).textChunks, (text) => textDelta(index, text), textMolds.of([index]), NO_HOLES);
    } else {
      for (const delta of deltasOf(block, reply, block.type === 'tool_use' ? calls++ : 0)) events.push(event('content_block_delta', { index, delta }, true));
    }
    events.push(event('content_block_stop', { index }));
  });
  events.push(event('message_delta', { delta: stopOf(reply), usage: deltaUsageOf(reply) }));
  events.push(event('message_stop'));
  return events;
}

export const messageEvents = eventsOf(messageParts);

/** `event: error` with the envelope body: the vendor SDK throws it as an APIError of that type. */
export function messagesStreamError(error: MockError, context?: StreamErrorContext): StreamEvent[] {
  return [{ event: 'error', data: messagesEnvelope(error, context?.requestId).body }];
}
