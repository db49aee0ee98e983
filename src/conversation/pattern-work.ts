// What fixture patterns and globs may cost. RE2 (re2js) runs in time linear in the text, but each
// character costs up to the compiled program's size, for every pattern tried: one large pattern
// or a thousand small ones on a long message held the event loop for seconds to minutes. So a
// program is bounded at load, the text a pattern sees is cut, and the patterns tried for one
// request share one budget of work (program size times characters). docs/hardening.md has the
// figures behind the numbers.
import { RE2JS } from 're2js';
import { CompileError } from './compile-error.js';

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
  private constructor(private readonly re: RE2JS) {}

  /** Throws a CompileError at `path` when the program passes the bound. */
  static of(re: RE2JS, path: string[], what: string): BoundedPattern {
    const size = re.programSize();
    if (size > PATTERN_LIMITS.programSize) {
      throw new CompileError(
        path,
        `${what} compiles to ${size} instructions, past the limit of ${PATTERN_LIMITS.programSize}: a pattern's cost is its size times the text's length (use contains for literal text, or fewer repeats)`,
      );
    }
    return new BoundedPattern(re);
  }

  get groupNames(): string[] {
    return Object.keys(this.re.namedGroups());
  }

  /** The matcher after a successful find, or undefined (no match, or no work left for it). */
  find(text: string, work: PatternWork): ReturnType<RE2JS['matcher']> | undefined {
    const seen = text.length > PATTERN_LIMITS.textChars ? text.slice(0, PATTERN_LIMITS.textChars) : text;
    if (!work.spend(this.re.programSize() * (seen.length + 1))) return undefined;
    const matcher = this.re.matcher(seen);
    return matcher.find() ? matcher : undefined;
  }
}
