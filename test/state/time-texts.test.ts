// A journal entry's time and a log line's stamp are spelled from their second's text, made once a
// second: whatever order times come in, each reads as a Date spells it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTimeOf, LATEST_TIME } from '../../src/state/clock.js';
import { timed } from '../../src/log-time.js';

/** What `f` gives for `ms`, or that it throws. */
function spelled(f: (ms: number) => string, ms: number): string {
  try {
    return f(ms);
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}

const dateIso = (ms: number) => new Date(ms).toISOString();
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dateStamp = (ms: number) => {
  const at = new Date(ms);
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)} line`;
};

/** Times near each other (most in one second, some crossing it) and anywhere a Date reaches, and past it. */
const times = fc.oneof(
  fc.integer({ min: 1_764_000_000_000, max: 1_764_000_003_000 }),
  fc.integer({ min: -3000, max: 3000 }),
  fc.integer({ min: LATEST_TIME - 2000, max: LATEST_TIME + 2000 }),
  fc.integer({ min: -LATEST_TIME - 2000, max: -LATEST_TIME + 2000 }),
  fc.double({ min: -5000, max: 5000, noNaN: true }),
  fc.constantFrom(Number.NaN, LATEST_TIME, -LATEST_TIME, LATEST_TIME + 1, 0.5, 999.999, 1000),
);

describe("a journal entry's time", () => {
  it('reads as new Date(ms).toISOString() does, and throws where it throws', () => {
    fc.assert(
      fc.property(fc.array(times, { maxLength: 60 }), (sequence) => {
        for (const ms of sequence) expect(spelled(isoTimeOf, ms)).toBe(spelled(dateIso, ms));
      }),
      { numRuns: 400 },
    );
  });
});

describe("a log line's stamp", () => {
  it('is the local time of a Date to the millisecond, whatever order times come in', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1_764_000_000_000, max: 1_764_000_005_000 }), { maxLength: 60 }), (sequence) => {
        for (const ms of sequence) expect(timed('line', ms)).toBe(dateStamp(ms));
      }),
      { numRuns: 400 },
    );
  });
});
