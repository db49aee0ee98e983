// What fixture patterns and globs may cost. RE2 (re2js) runs in time linear in the text, but each
// character costs up to the compiled program's size, for every pattern tried: one large pattern
// or a thousand small ones on a long message held the event loop for seconds to minutes. So a
// program is bounded at load, the text a pattern sees is cut, and the patterns tried for one
// request share one budget of work (program size times characters). docs/hardening.md has the
// figures behind the numbers.
//
// re2js is loaded at the first pattern compiled, and a pattern of the package's own files at its
// first run: the build compiled them all (scripts/shipped-yaml.mjs), so a start on those files
// already knows they fit the bound and what groups they name. re2js's first compile builds its
// case-folding table, 20-28 ms of a start, and its module was 188 KB of the start's code.
import type { RE2JS } from 're2js';
import { CompileError } from './compile-error.js';
import { atFirstUse } from './first-use.js';

/** re2js, loaded from the package at its first use. */
export const re2js = atFirstUse<typeof import('re2js')>('re2js');

/** How a pattern is compiled: case-insensitive, and for globs `.` across lines too. */
export type PatternFlags = 'i' | 'is';

/** Named groups, by flags and source, of the patterns known to compile within the bound. */
const known = new Map<string, readonly string[]>();
/** While the build compiles the package's files: what each pattern compiled names. */
let recording: Record<string, readonly string[]> | undefined;

const keyOf = (source: string, flags: PatternFlags): string => `${flags}/${source}`;

/** Notes patterns that the build compiled within the bound (a shipped file's), with their named groups. */
export function knowPatterns(patterns: Record<string, readonly string[]>): void {
  for (const [key, names] of Object.entries(patterns)) known.set(key, names);
}

/** What `run` returns, and the patterns it compiled with their named groups (for the build). */
export function recordingPatterns<T>(run: () => T): { result: T; patterns: Record<string, readonly string[]> } {
  const patterns: Record<string, readonly string[]> = {};
  recording = patterns;
  try {
    return { result: run(), patterns };
  } finally {
    recording = undefined;
  }
}

function compile(source: string, flags: PatternFlags): RE2JS {
  const { RE2JS } = re2js();
  return RE2JS.compile(source, flags === 'i' ? RE2JS.CASE_INSENSITIVE : RE2JS.CASE_INSENSITIVE | RE2JS.DOTALL);
}

export const PATTERN_LIMITS = {
  /** Instructions of one compiled pattern or glob. */
  programSize: 400,
  /** Characters of the text a pattern or glob runs on; the rest is not looked at. */
  textChars: 10_000,
  /** Program size times characters, over every pattern and glob tried for one request. */
  workPerRequest: 4_000_000,
} as const;

/** The pattern work left to one request; a pattern that does not fit in it is not run (no match). */
export class PatternWork {
  private left: number = PATTERN_LIMITS.workPerRequest;
  /** Patterns that were not run because the budget was spent. */
  skipped = 0;

  spend(units: number): boolean {
    if (units > this.left) {
      this.skipped += 1;
      return false;
    }
    this.left -= units;
    return true;
  }
}

/**
 * A compiled pattern that runs within a request's PatternWork. Matching goes through the
 * matcher (the NFA, or a cheaper engine when one applies) rather than `test`, whose lazy DFA
 * built a state per character on some patterns and cost twenty times the NFA's worst.
 */
export class BoundedPattern {
  private constructor(
    private readonly source: string,
    private readonly flags: PatternFlags,
    readonly groupNames: readonly string[],
    private re?: RE2JS,
  ) {}

  /**
   * The pattern `source` compiled with `flags`: now, unless it is known to compile. Throws re2js's
   * error when it does not, and a CompileError at `path` when the program passes the bound.
   */
  static of(source: string, flags: PatternFlags, path: string[], what: string): BoundedPattern {
    const key = keyOf(source, flags);
    const names = known.get(key);
    if (names && !recording) return new BoundedPattern(source, flags, names);
    const re = compile(source, flags);
    const size = re.programSize();
    if (size > PATTERN_LIMITS.programSize) {
      throw new CompileError(
        path,
        `${what} compiles to ${size} instructions, past the limit of ${PATTERN_LIMITS.programSize}: a pattern's cost is its size times the text's length (use contains for literal text, or fewer repeats)`,
      );
    }
    const groupNames = Object.keys(re.namedGroups());
    if (recording) recording[key] = groupNames;
    return new BoundedPattern(source, flags, groupNames, re);
  }

  /** The matcher after a successful find, or undefined (no match, or no work left for it). */
  find(text: string, work: PatternWork): ReturnType<RE2JS['matcher']> | undefined {
    const re = (this.re ??= compile(this.source, this.flags));
    const seen = text.length > PATTERN_LIMITS.textChars ? text.slice(0, PATTERN_LIMITS.textChars) : text;
    if (!work.spend(re.programSize() * (seen.length + 1))) return undefined;
    const matcher = re.matcher(seen);
    return matcher.find() ? matcher : undefined;
  }
}
