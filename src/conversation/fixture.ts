// Chat fixtures: compiled from YAML at load (matchers, templates, token counts), chosen per request.
import type * as z from 'zod';
import { CompileError } from './compile-error.js';
import { candidates } from './fixture-index.js';
import type { FixtureSchemas } from './fixture-schema.js';
import { compileMatch, matchPattern, type Captures, type Matcher } from './match.js';
import type { MatchSubject } from './subject.js';
import { compileTemplate, compileValueTemplate, literalTemplate, type Template, type ValueTemplate } from './template.js';
import { countTokens } from './tokens.js';
import type { ErrorKind } from './error-codes.js';
import type { FinishReason, StreamSettings } from './types.js';
import { documentFit } from './document-fit.js';

export type ChatFixtureSpec = z.infer<FixtureSchemas['chatFixtureSchema']>;
/** A fixture's `reply` block as written in YAML. */
export type ChatReplySpec = ChatFixtureSpec['reply'];

export interface CompiledText {
  template: Template;
  /** The tokens of a constant text, counted once, at its first use. */
  readonly tokens: number | undefined;
}

/**
 * A text whose token count is taken when first asked for: counting at load would load the
 * tokenizer's tables before the server listens, and they take longer than the rest of start-up.
 */
class ConstantText implements CompiledText {
  private counted: number | undefined;

  constructor(readonly template: Template) {}

  get tokens(): number | undefined {
    const text = this.template.constant;
    if (text === undefined) return undefined;
    return (this.counted ??= countTokens(text));
  }
}

export interface ChatFixture {
  name: string;
  file: string;
  priority: number;
  /** Position across all files (sorted by path), for ties. */
  order: number;
  /** Set for fixtures added at run time for one session. */
  session?: string;
  matcher: Matcher;
  text?: CompiledText;
  reasoning?: CompiledText;
  /** `input`: the raw text of a freeform tool's call, when the fixture gives it instead of arguments. */
  toolCalls: ReadonlyArray<{ name: string; arguments: ValueTemplate; input?: CompiledText }>;
  finishReason?: FinishReason;
  usage?: { inputTokens?: number; outputTokens?: number };
  stream?: StreamSettings;
  chatImageOutput?: 'images' | 'markdown';
  /** The stream's text pieces, when the fixture fixes them (`reply.chunks`). */
  chunks?: string[];
  /** The error the fixture answers with instead of a reply (`reply.error`). */
  error?: FixtureError;
}

export interface FixtureError {
  kind: ErrorKind;
  status?: number;
  message?: string;
  headers?: Record<string, string>;
}

function fixtureError(reply: ChatReplySpec): FixtureError | undefined {
  if (reply.error === undefined) return undefined;
  if (typeof reply.error === 'string') return { kind: reply.error, message: reply.message };
  if (reply.message !== undefined) throw new CompileError(['reply', 'message'], 'give the message inside reply.error when reply.error is an object');
  return reply.error;
}

/**
 * `reply.chunks` are the text as streamed, taken literally (a recorded reply is no template):
 * joined, they must say what `reply.text` says.
 */
function chunkedText(chunks: readonly string[], text: string | undefined): CompiledText {
  const joined = chunks.join('');
  if (text !== undefined && text !== joined) throw new CompileError(['reply', 'chunks'], 'reply.chunks joined must equal reply.text');
  return new ConstantText(literalTemplate(joined));
}

export { CompileError };

function at<T>(path: Array<string | number>, compile: () => T): T {
  try {
    return compile();
  } catch (error) {
    if (error instanceof CompileError) throw new CompileError([...path, ...error.path], error.message);
    throw new CompileError(path, (error as Error).message);
  }
}

/** A reply's text: a template, or said as written when the reply is literal. */
function compileText(source: string | undefined, groups: readonly string[] | 'literal', path: string[]): CompiledText | undefined {
  if (source === undefined) return undefined;
  const template = groups === 'literal' ? literalTemplate(source) : at(path, () => compileTemplate(source, groups));
  return new ConstantText(template);
}

function compileArguments(args: Record<string, unknown>, groups: readonly string[] | 'literal', path: Array<string | number>): ValueTemplate {
  // Each reply gets its own copy, as a rendered template would be.
  return groups === 'literal' ? () => structuredClone(args) : at(path, () => compileValueTemplate(args, groups));
}

/** The empty list every fixture without calls or pattern groups shares. */
const NONE: readonly never[] = Object.freeze([]);

export function compileChatFixture(spec: ChatFixtureSpec, file: string, order: number, session?: string): ChatFixture {
  const reply = spec.reply;
  const calls = reply.error === undefined ? (reply.tool_calls?.map((call) => call.name) ?? NONE) : undefined;
  // The text compiles with the pattern's groups, and the matcher with the text's fit.
  const pattern = at(['match'], () => matchPattern(spec.match));
  const groups = reply.literal ? 'literal' : (pattern?.groupNames ?? NONE);
  const text = reply.chunks ? at(['reply'], () => chunkedText(reply.chunks!, reply.text)) : compileText(reply.text, groups, ['reply', 'text']);
  const fit = calls && documentFit(text ? text.template.constant : '', calls.length > 0);
  const matcher = at(['match'], () => compileMatch(spec.match, calls, fit, pattern));
  return {
    name: spec.name ?? `${file}#${order}`,
    file,
    priority: spec.priority ?? 0,
    order,
    session,
    matcher,
    text,
    reasoning: compileText(reply.reasoning, groups, ['reply', 'reasoning']),
    toolCalls:
      reply.tool_calls?.map((call, i) => ({
        name: call.name,
        arguments: compileArguments(call.arguments ?? {}, groups, ['reply', 'tool_calls', i, 'arguments']),
        input: compileText(call.input, groups, ['reply', 'tool_calls', String(i), 'input']),
      })) ?? NONE,
    finishReason: reply.finish_reason,
    usage: reply.usage && { inputTokens: reply.usage.input_tokens, outputTokens: reply.usage.output_tokens },
    stream: spec.stream && {
      firstChunkMs: spec.stream.first_chunk_ms,
      chunkMs: spec.stream.chunk_ms,
      chunkBy: spec.stream.chunk_by,
    },
    chatImageOutput: reply.chat_image_output,
    chunks: reply.chunks,
    error: at(['reply'], () => fixtureError(reply)),
  };
}

/** Highest priority first, then file order: the first fixture that matches wins. */
export function sortFixtures<T extends { priority: number; order: number }>(fixtures: T[]): T[] {
  return fixtures.sort((a, b) => b.priority - a.priority || a.order - b.order);
}

export interface Selection<T> {
  fixture: T;
  captures: Captures;
}

/** `fixtures` must be sorted by `sortFixtures`; a list from `indexFixtures` is not scanned whole. */
export function firstMatch<T extends { matcher: Matcher }>(fixtures: readonly T[], subject: MatchSubject): Selection<T> | undefined {
  for (const position of candidates(fixtures, subject) ?? fixtures.keys()) {
    const fixture = fixtures[position]!;
    const captures = fixture.matcher.test(subject);
    if (captures) return { fixture, captures };
  }
  return undefined;
}

/** The `contains` needles of the fixtures in `lists`, lower-cased as their matchers hold them. */
export function* needlesOf(...lists: readonly (readonly { matcher: Matcher }[])[]): Generator<string> {
  for (const list of lists) for (const { matcher } of list) if (matcher.contains !== undefined) yield matcher.contains;
}

/**
 * The first recorded turn of the subject's shape (SPEC 20), for when no fixture matched: a session
 * replayed in another directory or on another day. Its captures are none: a recording is literal.
 */
export function firstOfShape<T extends { matcher: Matcher }>(fixtures: Iterable<T>, subject: MatchSubject): Selection<T> | undefined {
  // The subject's shape is made only when a fixture has one to compare (a recording): it reads the whole last message.
  for (const fixture of fixtures) if (fixture.matcher.testShape(subject)) return { fixture, captures: {} };
  return undefined;
}

/** Session fixtures win over file fixtures of the same priority. */
export function selectFixture<T extends { matcher: Matcher; priority: number }>(
  sessionFixtures: readonly T[],
  fileFixtures: readonly T[],
  subject: MatchSubject,
): Selection<T> | undefined {
  const own = firstMatch(sessionFixtures, subject);
  const shared = firstMatch(fileFixtures, subject);
  if (!own) return shared;
  if (!shared) return own;
  return shared.fixture.priority > own.fixture.priority ? shared : own;
}

/** The fixture that failed the fewest match keys, for the journal and `--strict`. */
export function nearestMiss<T extends { matcher: Matcher; name: string; file: string }>(
  fixtures: Iterable<T>,
  subject: MatchSubject,
): { fixture: string; file: string; failed: string[] } | undefined {
  let best: { fixture: string; file: string; failed: string[] } | undefined;
  for (const fixture of fixtures) {
    const failed = fixture.matcher.diagnose(subject);
    if (failed.length > 0 && (!best || failed.length < best.failed.length)) {
      best = { fixture: fixture.name, file: fixture.file, failed };
      // Nothing later can fail fewer than one key: stop, rather than diagnose thousands more.
      if (failed.length === 1) break;
    }
  }
  return best;
}

/** Several fixture lists read as one, without copying them (10,000 file fixtures on a miss). */
export function* chained<T>(...lists: ReadonlyArray<readonly T[]>): Iterable<T> {
  for (const list of lists) yield* list;
}
