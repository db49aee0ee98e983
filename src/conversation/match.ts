// Fixture `match` blocks compiled once at load into predicate lists. `test` stops at the first
// failing key (the hot path); `diagnose` evaluates every key, for the journal's near miss.
// Patterns and globs run on RE2 (re2js): time linear in the text, whatever the pattern, so a
// fixture such as `^(a+)+$` cannot hold the event loop (JavaScript's engine backtracks).
import { RE2JS } from 're2js';
import type { z } from 'zod';
import { CompileError } from './compile-error.js';
import type { matchSchema } from './fixture-schema.js';
import type { MatchSubject } from './subject.js';

export type MatchSpec = z.infer<typeof matchSchema>;

/** Named groups captured by `pattern`, empty when there is none. */
export type Captures = Record<string, string>;

interface Check {
  key: keyof MatchSpec;
  test(subject: MatchSubject): boolean;
}

export interface Matcher {
  readonly keys: readonly string[];
  /** Named groups of `pattern` (for template validation). */
  readonly groupNames: readonly string[];
  /** The lower-cased `contains` needle: `test` fails unless `lastUserLower` holds it (for indexes). */
  readonly contains: string | undefined;
  /** Captures when every key holds, else undefined. */
  test(subject: MatchSubject): Captures | undefined;
  /** The keys that do not hold. */
  diagnose(subject: MatchSubject): string[];
}

const NO_CAPTURES: Captures = Object.freeze({}) as Captures;

/** A `*` and `?` glob, case-insensitive, matched against a whole name. */
export function globToRegExp(glob: string): RE2JS {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return RE2JS.compile(`^${source}$`, RE2JS.CASE_INSENSITIVE | RE2JS.DOTALL);
}

/** A fixture's `pattern`, case-insensitive as before; RE2 refuses what it cannot run in linear time. */
function compilePattern(source: string): RE2JS {
  try {
    return RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    throw new CompileError(['pattern'], `match.pattern is not a regular expression the mock can run in bounded time (${reason}); backreferences and lookaround are not supported`);
  }
}

function capturesOf(pattern: RE2JS, groupNames: readonly string[], text: string): Captures {
  if (groupNames.length === 0) return NO_CAPTURES;
  const matcher = pattern.matcher(text);
  if (!matcher.find()) return NO_CAPTURES;
  const captures: Captures = {};
  for (const name of groupNames) {
    const value = matcher.group(name);
    if (value !== null && value !== undefined) captures[name] = value;
  }
  return captures;
}

/** Throws an Error naming the key when a value cannot compile (a bad regex). */
export function compileMatch(spec: MatchSpec = {}): Matcher {
  const checks: Check[] = [];
  if (spec.style !== undefined) {
    const style = spec.style;
    checks.push({ key: 'style', test: (s) => s.style === style });
  }
  if (spec.model !== undefined) {
    const re = globToRegExp(spec.model);
    checks.push({ key: 'model', test: (s) => re.test(s.model) });
  }
  const contains = spec.contains?.toLowerCase();
  if (contains !== undefined) checks.push({ key: 'contains', test: (s) => s.lastUserLower.includes(contains) });
  let pattern: RE2JS | undefined;
  if (spec.pattern !== undefined) {
    const re = compilePattern(spec.pattern);
    pattern = re;
    checks.push({ key: 'pattern', test: (s) => re.matcher(s.lastUser).find() });
  }
  if (spec.system !== undefined) {
    const needle = spec.system.toLowerCase();
    checks.push({ key: 'system', test: (s) => s.systemLower.includes(needle) });
  }
  if (spec.tools !== undefined) {
    const names = spec.tools;
    checks.push({ key: 'tools', test: (s) => names.every((n) => s.tools.has(n)) });
  }
  if (spec.media !== undefined) {
    const re = globToRegExp(spec.media);
    checks.push({ key: 'media', test: (s) => s.media.some((m) => re.test(m)) });
  }
  if (spec.conversation !== undefined) {
    const needle = spec.conversation.toLowerCase();
    checks.push({ key: 'conversation', test: (s) => s.conversationLower.includes(needle) });
  }
  if (spec.turn !== undefined) {
    const turn = spec.turn;
    checks.push({ key: 'turn', test: (s) => s.userTurns === turn });
  }
  if (spec.fingerprint !== undefined) {
    const wanted = spec.fingerprint;
    checks.push({ key: 'fingerprint', test: (s) => s.fingerprint === wanted });
  }
  if (spec.headers !== undefined) {
    const wanted = Object.entries(spec.headers).map(([name, value]) => [name.toLowerCase(), value] as const);
    checks.push({ key: 'headers', test: (s) => wanted.every(([name, value]) => s.headers[name] === value) });
  }
  const captureFrom = pattern;
  const groupNames = pattern ? Object.keys(pattern.namedGroups()) : [];
  return {
    keys: checks.map((c) => c.key),
    groupNames,
    contains,
    test(subject) {
      for (const check of checks) if (!check.test(subject)) return undefined;
      return captureFrom ? capturesOf(captureFrom, groupNames, subject.lastUser) : NO_CAPTURES;
    },
    diagnose(subject) {
      return checks.filter((c) => !c.test(subject)).map((c) => c.key);
    },
  };
}
