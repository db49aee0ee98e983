// Fixture `match` blocks compiled once at load into predicate lists. `test` stops at the first
// failing key (the hot path); `diagnose` evaluates every key, for the journal's near miss.
// Patterns and globs run on RE2 (re2js): time linear in the text, whatever the pattern, so a
// fixture such as `^(a+)+$` cannot hold the event loop (JavaScript's engine backtracks); their
// size, the text they see and their work per request are bounded (pattern-work.ts).
import type * as z from 'zod';
import { CompileError } from './compile-error.js';
import type { FixtureSchemas } from './fixture-schema.js';
import { BoundedPattern } from './pattern-work.js';
import { answersToolChoice } from './forced-tool.js';
import type { MatchSubject } from './subject.js';
import type { ResponseFormat } from './types.js';

export type MatchSpec = z.infer<FixtureSchemas['matchSchema']>;

/** Named groups captured by `pattern`, empty when there is none. */
export type Captures = Record<string, string>;

interface Check {
  /** `tool_choice` is no key of the spec: a reply without the forced call cannot answer (SPEC 5). */
  key: keyof MatchSpec | 'tool_choice' | 'format';
  test(subject: MatchSubject): boolean;
}

export interface Matcher {
  readonly keys: readonly string[];
  /** Named groups of `pattern` (for template validation). */
  readonly groupNames: readonly string[];
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
 * Throws an Error naming the key when a value cannot compile (a bad regex). `calls`: the tools a
 * chat fixture's reply calls, which decide whether it can answer a request that forces a call
 * (absent for a fixture that answers with an error, and for other sections); `fits`, whether its
 * reply is a document of a format a request asks for (absent likewise).
 */
export function compileMatch(spec: MatchSpec = {}, calls?: readonly string[], fits?: (format: ResponseFormat) => boolean): Matcher {
  const checks: Check[] = [];
  if (spec.style !== undefined) {
    const style = spec.style;
    checks.push({ key: 'style', test: (s) => s.style === style });
  }
  if (spec.model !== undefined) {
    const glob = globPattern(spec.model, ['model']);
    checks.push({ key: 'model', test: (s) => glob.find(s.model, s.patterns) !== undefined });
  }
  const contains = spec.contains?.toLowerCase();
  if (contains !== undefined) checks.push({ key: 'contains', test: (s) => s.lastUserHolds(contains) });
  // The pattern is tested last (and once, keeping its captures): the cheap keys spare its work.
  const pattern = spec.pattern === undefined ? undefined : compilePattern(spec.pattern);
  if (spec.system !== undefined) {
    const needle = spec.system.toLowerCase();
    checks.push({ key: 'system', test: (s) => s.systemLower.includes(needle) });
  }
  if (spec.tools !== undefined) {
    const names = spec.tools;
    checks.push({ key: 'tools', test: (s) => names.every((n) => s.tools.has(n)) });
  }
  if (spec.media !== undefined) {
    const glob = globPattern(spec.media, ['media']);
    checks.push({ key: 'media', test: (s) => s.media.some((m) => glob.find(m, s.patterns) !== undefined) });
  }
  if (spec.conversation !== undefined) {
    const needle = spec.conversation.toLowerCase();
    checks.push({ key: 'conversation', test: (s) => s.conversationLower.includes(needle) });
  }
  if (spec.turn !== undefined) {
    const turn = spec.turn;
    checks.push({ key: 'turn', test: (s) => s.userTurns === turn });
  }
  if (spec.after_tool !== undefined) {
    const name = spec.after_tool;
    checks.push({ key: 'after_tool', test: (s) => s.lastToolResults.includes(name) });
  }
  if (spec.called !== undefined) {
    const names = spec.called;
    checks.push({ key: 'called', test: (s) => calledInOrder(s.calledTools, names) });
  }
  if (spec.fingerprint !== undefined) {
    const wanted = spec.fingerprint;
    checks.push({ key: 'fingerprint', test: (s) => s.fingerprint === wanted });
  }
  if (spec.shape !== undefined) {
    const wanted = spec.shape;
    checks.push({ key: 'shape', test: (s) => s.shape === wanted });
  }
  // A tool call is not a model request: scenarios/tool-step.ts reads `tool` itself.
  if (spec.tool !== undefined) checks.push({ key: 'tool', test: () => false });
  if (spec.headers !== undefined) {
    const wanted = Object.entries(spec.headers).map(([name, value]) => [name.toLowerCase(), value] as const);
    checks.push({ key: 'headers', test: (s) => wanted.every(([name, value]) => s.headers[name] === value) });
  }
  if (calls !== undefined) checks.push({ key: 'tool_choice', test: (s) => answersToolChoice(s.toolChoice, calls) });
  // `format` is no key of the spec either: structured output is always a fitting document.
  if (fits !== undefined) checks.push({ key: 'format', test: (s) => fits(s.responseFormat) });
  const groupNames = pattern ? pattern.groupNames : [];
  const keys = checks.map((c) => c.key);
  // Listed where the key always stood, after `contains`.
  if (pattern) keys.splice(keys.filter((key) => key === 'style' || key === 'model' || key === 'contains').length, 0, 'pattern');
  return {
    keys,
    groupNames,
    contains,
    fingerprint: spec.fingerprint,
    shape: spec.shape,
    testShape(subject) {
      if (spec.shape === undefined || subject.shape !== spec.shape) return false;
      for (const check of checks) if (check.key !== 'fingerprint' && !check.test(subject)) return false;
      return !pattern || pattern.find(subject.lastUser, subject.patterns) !== undefined;
    },
    test(subject) {
      for (const check of checks) if (!check.test(subject)) return undefined;
      if (!pattern) return NO_CAPTURES;
      const found = pattern.find(subject.lastUser, subject.patterns);
      return found ? capturesOf(found, groupNames) : undefined;
    },
    diagnose(subject) {
      const failed = new Set(checks.filter((c) => !c.test(subject)).map((c) => c.key));
      if (pattern && !pattern.find(subject.lastUser, subject.patterns)) failed.add('pattern');
      return keys.filter((key) => failed.has(key));
    },
  };
}
