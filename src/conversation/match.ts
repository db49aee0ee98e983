// Fixture `match` blocks compiled once at load into predicate lists. `test` stops at the first
// failing key (the hot path); `diagnose` evaluates every key, for the journal's near miss.
import type { z } from 'zod';
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

export function globToRegExp(glob: string): RegExp {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i');
}

function groupNamesOf(pattern: RegExp): string[] {
  return [...pattern.source.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]!);
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
  let pattern: RegExp | undefined;
  if (spec.pattern !== undefined) {
    try {
      pattern = new RegExp(spec.pattern, 'i');
    } catch (error) {
      throw new Error(`match.pattern is not a valid regular expression: ${(error as Error).message}`);
    }
    const re = pattern;
    checks.push({ key: 'pattern', test: (s) => re.test(s.lastUser) });
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
  return {
    keys: checks.map((c) => c.key),
    groupNames: pattern ? groupNamesOf(pattern) : [],
    contains,
    test(subject) {
      for (const check of checks) if (!check.test(subject)) return undefined;
      if (!captureFrom) return NO_CAPTURES;
      const groups = captureFrom.exec(subject.lastUser)?.groups;
      return groups ? { ...groups } : NO_CAPTURES;
    },
    diagnose(subject) {
      return checks.filter((c) => !c.test(subject)).map((c) => c.key);
    },
  };
}
