// A recorded or pinned answer written as a `chat:` fixture file: stable (the same answer gives the
// same bytes: keys in a fixed order, no timestamps) and readable (a comment naming the last user
// message, multi-line text as block scalars), in the keys of SPEC 5 that a person writes too.
import { yaml } from './yaml.js';
import type { RecordedError, RecordedReply } from './recorded.js';

export interface FixtureStream {
  first_chunk_ms: number;
  chunk_ms: number;
}

export interface ChatFixtureDocument {
  name: string;
  /** Said in the leading comment; shortened to one line. */
  comment: string;
  /** Match keys (`fingerprint`, `model`, ...), written in the order of SPEC 5. */
  match: Record<string, unknown>;
  reply: RecordedReply | { error: RecordedError };
  stream?: FixtureStream;
  /** The request the turn answered, for `drift` to ask again. */
  request?: { path: string; body: unknown };
}

const MATCH_ORDER = ['fingerprint', 'style', 'model', 'contains', 'pattern', 'system', 'tools', 'media', 'conversation', 'turn', 'headers'];

const COMMENT_CHARS = 100;

/** One line, cut with an ellipsis: the comment names the message, it does not hold it. */
export function shortened(text: string, max = COMMENT_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

function ordered(match: Record<string, unknown>): Record<string, unknown> {
  const rest = Object.keys(match)
    .filter((key) => !MATCH_ORDER.includes(key))
    .sort();
  return Object.fromEntries(
    [...MATCH_ORDER, ...rest].filter((key) => match[key] !== undefined).map((key) => [key, match[key]]),
  );
}

function sortedKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * A reply as it was said: `literal`, so that `{{...}}` in an answer (code is full of them) replays
 * as it came instead of being a template, and its strings may be as long as an upstream's.
 */
function replyBlock(reply: ChatFixtureDocument['reply']): Record<string, unknown> {
  if ('error' in reply) {
    const { status, kind, message, headers } = reply.error;
    return { literal: true, error: { status, kind, message, headers: sortedKeys(headers) } };
  }
  const block: Record<string, unknown> = { literal: true, text: reply.text };
  // Where the stream split the text: replay sends these same pieces as its deltas.
  if (reply.chunks && reply.chunks.length > 0) block.chunks = reply.chunks;
  if (reply.reasoning) block.reasoning = reply.reasoning;
  if (reply.toolCalls.length > 0) block.tool_calls = reply.toolCalls.map(({ name, arguments: args, input }) => (input === undefined ? { name, arguments: args } : { name, input }));
  if (reply.finishReason) block.finish_reason = reply.finishReason;
  if (reply.usage) block.usage = { input_tokens: reply.usage.inputTokens, output_tokens: reply.usage.outputTokens };
  return block;
}

export function chatFixtureYaml(fixture: ChatFixtureDocument): string {
  const entry: Record<string, unknown> = { name: fixture.name, match: ordered(fixture.match), reply: replyBlock(fixture.reply) };
  if (fixture.stream) entry.stream = { first_chunk_ms: fixture.stream.first_chunk_ms, chunk_ms: fixture.stream.chunk_ms };
  if (fixture.request) entry.request = fixture.request;
  const { Document, isMap, isScalar, isSeq } = yaml();
  const doc = new Document({ chat: [entry] });
  // One chunk a line, quoted, so the spaces and line breaks where the stream split show as they are.
  const chunks = doc.getIn(['chat', 0, 'reply', 'chunks'], true);
  if (isSeq(chunks)) for (const item of chunks.items) if (isScalar(item)) item.type = 'QUOTE_DOUBLE';
  // Figures read best on one line, as the documented examples write them.
  for (const path of [['reply', 'usage'], ['stream']]) {
    const node = doc.getIn(['chat', 0, ...path], true);
    if (isMap(node)) node.flow = true;
  }
  doc.commentBefore = ` ${shortened(fixture.comment)}`;
  // No folding: a long line stays one line, so a diff of two recordings shows what changed.
  return doc.toString({ lineWidth: 0 });
}
