// Fixture `match` blocks compiled once at load, each into one object of its keys' values, tested
// by checks every matcher shares. `test` stops at the first failing key (the hot path);
// `diagnose` evaluates every key, for the journal's near miss.
// Patterns and globs run on RE2 (re2js): time linear in the text, whatever the pattern, so a
// fixture such as `^(a+)+$` cannot hold the event loop (JavaScript's engine backtracks); their
// size, the text they see and their work per request are bounded (pattern-work.ts).
import type * as z from 'zod';
import { CompileError } from './compile-error.js';
import type { FixtureSchemas } from './fixture-schema.js';
import { BoundedPattern } from './pattern-work.js';
import { answersToolChoice } from './forced-tool.js';
import type { MatchSubject } from './subject.js';
import type { DocumentFit } from './document-fit.js';

export type MatchSpec = z.infer<FixtureSchemas['matchSchema']>;

/** Named groups captured by `pattern`, empty when there is none. */
export type Captures = Record<string, string>;

export interface Matcher {
  /** The lower-cased `contains` needle: `test` fails unless `lastUserLower` holds it (for indexes). */
  readonly contains: string | undefined;
  /** `match.fingerprint`: `test` fails unless the subject's fingerprint is this one (for indexes). */
  readonly fingerprint: string | undefined;
  /** `match.shape`: what a recorded turn answers by when no fixture matches exactly. */
  readonly shape: string | undefined;
  /** Captures when every key holds, else undefined. */
  test(subject: MatchSubject): Captures | undefined;
  /** Whether the subject has this recorded turn's shape and every key but the fingerprint holds. */
  testShape(subject: MatchSubject): boolean;
  /** The keys that do not hold. */
  diagnose(subject: MatchSubject): string[];
}

const NO_CAPTURES: Captures = Object.freeze({}) as Captures;

/** A `*` and `?` glob, case-insensitive, matched against a whole name; `path` names its key for a compile error. */
export function globPattern(glob: string, path: string[]): BoundedPattern {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return BoundedPattern.of(`^${source}$`, 'is', path, `match.${path.at(-1)}`);
}

/** A fixture's `pattern`, case-insensitive as before; RE2 refuses what it cannot run in linear time. */
function compilePattern(source: string): BoundedPattern {
  try {
    return BoundedPattern.of(source, 'i', ['pattern'], 'match.pattern');
  } catch (error) {
    if (error instanceof CompileError) throw error;
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    throw new CompileError(['pattern'], `match.pattern is not a regular expression the mock can run in bounded time (${reason}); backreferences and lookaround are not supported`);
  }
}

function capturesOf(matcher: NonNullable<ReturnType<BoundedPattern['find']>>, groupNames: readonly string[]): Captures {
  if (groupNames.length === 0) return NO_CAPTURES;
  const captures: Captures = {};
  for (const name of groupNames) {
    const value = matcher.group(name);
    if (value !== null && value !== undefined) captures[name] = value;
  }
  return captures;
}

/** Whether `wanted` were called in this order among `calls` (other calls may come between). */
function calledInOrder(calls: readonly string[], wanted: readonly string[]): boolean {
  let next = 0;
  for (const call of calls) if (next < wanted.length && call === wanted[next]) next++;
  return next === wanted.length;
}

/**
 * The keys a matcher may test, in the order it tests them, each with its test: the cheap keys
 * first, and the pattern, tested last (and once, keeping its captures), is not among them.
 * `tool_choice` and `format` are no keys of the spec: a reply without the forced call cannot
 * answer (SPEC 5), and structured output is always a fitting document.
 */
const CHECKS = [
  ['style', (m, s) => s.style === m.style],
  ['model', (m, s) => m.model!.find(s.model, s.patterns) !== undefined],
  ['contains', (m, s) => s.lastUserHolds(m.contains!)],
  ['system', (m, s) => s.systemLower.includes(m.system!)],
  ['tools', (m, s) => m.tools!.every((name) => s.tools.has(name))],
  ['media', (m, s) => s.media.some((media) => m.media!.find(media, s.patterns) !== undefined)],
  ['conversation', (m, s) => s.conversationLower.includes(m.conversation!)],
  ['turn', (m, s) => s.userTurns === m.turn],
  ['after_tool', (m, s) => s.lastToolResults.includes(m.afterTool!)],
  ['called', (m, s) => calledInOrder(s.calledTools, m.called!)],
  ['fingerprint', (m, s) => s.fingerprint === m.fingerprint],
  ['shape', (m, s) => s.shape === m.shape],
  // A tool call is not a model request: scenarios/tool-step.ts reads `tool` itself.
  ['tool', () => false],
  ['headers', (m, s) => m.headers!.every(([name, value]) => s.headers[name] === value)],
  ['tool_choice', (m, s) => answersToolChoice(s.toolChoice, m.calls!)],
  ['format', (m, s) => m.fit!.fits(s.responseFormat)],
] as const satisfies ReadonlyArray<readonly [keyof MatchSpec | 'tool_choice' | 'format', (m: CompiledMatch, s: MatchSubject) => boolean]>;

type Key = (typeof CHECKS)[number][0];

/** A key as a bit of a matcher's `keys`: its place in CHECKS. */
const bit = (key: Key): number => 1 << CHECKS.findIndex(([name]) => name === key);
const FINGERPRINT = bit('fingerprint');
/** The keys a near miss lists before the pattern, where it always stood. */
const BEFORE_PATTERN = bit('style') | bit('model') | bit('contains');

/** The lowest of `keys`' bits, as an index into CHECKS. */
const lowest = (keys: number): number => 31 - Math.clz32(keys & -keys);

/**
 * A fixture's `match` compiled: each key's value as a field (lower-cased, or a glob made a
 * pattern) and the keys it has as bits, tested in CHECKS' order by tests that every matcher
 * shares. One object a fixture, where a list of closures over their own contexts held about five
 * times its bytes.
 */
class CompiledMatch implements Matcher {
  readonly contains: string | undefined;
  readonly fingerprint: string | undefined;
  readonly shape: string | undefined;
  readonly style: string | undefined;
  readonly model: BoundedPattern | undefined;
  readonly system: string | undefined;
  readonly tools: readonly string[] | undefined;
  readonly media: BoundedPattern | undefined;
  readonly conversation: string | undefined;
  readonly turn: number | undefined;
  readonly afterTool: string | undefined;
  readonly called: readonly string[] | undefined;
  readonly headers: ReadonlyArray<readonly [string, string]> | undefined;
  /** The keys it tests, as bits. */
  private readonly keys: number;

  constructor(
    spec: MatchSpec,
    private readonly pattern: BoundedPattern | undefined,
    readonly calls: readonly string[] | undefined,
    readonly fit: DocumentFit | undefined,
  ) {
    this.style = spec.style;
    this.model = spec.model === undefined ? undefined : globPattern(spec.model, ['model']);
    this.contains = spec.contains?.toLowerCase();
    this.system = spec.system?.toLowerCase();
    this.tools = spec.tools;
    this.media = spec.media === undefined ? undefined : globPattern(spec.media, ['media']);
    this.conversation = spec.conversation?.toLowerCase();
    this.turn = spec.turn;
    this.afterTool = spec.after_tool;
    this.called = spec.called;
    this.fingerprint = spec.fingerprint;
    this.shape = spec.shape;
    this.headers = spec.headers && Object.entries(spec.headers).map(([name, value]) => [name.toLowerCase(), value] as const);
    let keys = 0;
    for (const [key] of CHECKS) if (key === 'tool_choice' ? calls !== undefined : key === 'format' ? fit !== undefined : spec[key] !== undefined) keys |= bit(key);
    this.keys = keys;
  }

  /** Whether every key of `keys` holds, tested in order until one does not. */
  private allHold(keys: number, subject: MatchSubject): boolean {
    for (let rest = keys; rest !== 0; rest &= rest - 1) if (!CHECKS[lowest(rest)]![1](this, subject)) return false;
    return true;
  }

  test(subject: MatchSubject): Captures | undefined {
    if (!this.allHold(this.keys, subject)) return undefined;
    const pattern = this.pattern;
    if (!pattern) return NO_CAPTURES;
    const found = pattern.find(subject.lastUser, subject.patterns);
    return found ? capturesOf(found, pattern.groupNames) : undefined;
  }

  testShape(subject: MatchSubject): boolean {
    if (this.shape === undefined || subject.shape !== this.shape) return false;
    if (!this.allHold(this.keys & ~FINGERPRINT, subject)) return false;
    return !this.pattern || this.pattern.find(subject.lastUser, subject.patterns) !== undefined;
  }

  diagnose(subject: MatchSubject): string[] {
    const failed: string[] = [];
    let beforePattern = 0;
    for (let rest = this.keys; rest !== 0; rest &= rest - 1) {
      const [key, holds] = CHECKS[lowest(rest)]!;
      if (holds(this, subject)) continue;
      failed.push(key);
      if (rest & -rest & BEFORE_PATTERN) beforePattern++;
    }
    if (this.pattern && !this.pattern.find(subject.lastUser, subject.patterns)) failed.splice(beforePattern, 0, 'pattern');
    return failed;
  }
}

/** A `match.pattern` compiled, for its group names (a chat fixture's reply templates read them) and its matcher. */
export function matchPattern(spec: MatchSpec = {}): BoundedPattern | undefined {
  return spec.pattern === undefined ? undefined : compilePattern(spec.pattern);
}

/**
 * Throws an Error naming the key when a value cannot compile (a bad regex). `calls`: the tools a
 * chat fixture's reply calls, which decide whether it can answer a request that forces a call
 * (absent for a fixture that answers with an error, and for other sections); `fit`, whether its
 * reply is a document of a format a request asks for (absent likewise); `pattern`, the spec's
 * pattern when it was compiled before.
 */
export function compileMatch(spec: MatchSpec = {}, calls?: readonly string[], fit?: DocumentFit, pattern = matchPattern(spec)): Matcher {
  return new CompiledMatch(spec, pattern, calls, fit);
}
