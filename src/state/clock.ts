// The mock clock: the one source of time for timestamps, tasks and rate windows.
// `real` follows the wall clock (plus an offset that admin steps add); `manual` and a fixed ISO
// start move only when told to, so tests can step video tasks and rate windows without sleeping.

/** The latest time a JavaScript Date can hold: the clock stops there, and so does every time it gives. */
export const LATEST_TIME = 8.64e15;

/** `000Z` to `999Z`: a time's milliseconds and the zone, joined to its second's text without a string of their own. */
const MILLIS = Array.from({ length: 1000 }, (_, ms) => `${String(ms).padStart(3, '0')}Z`);

/** The last time `isoTimeOf` spelled and its text; the second it lay in (NaN for none) and that second's text up to the milliseconds. */
let lastMs = Number.NaN;
let lastText = '';
let secondMs = Number.NaN;
let secondText = '';

/**
 * `new Date(ms).toISOString()`, its second's text made once a second: a journal entry's time is
 * spelled for every request, and the Date and its spelling were 0.7 µs of it. The entries of one
 * millisecond share one string. A time a Date cannot hold throws as `toISOString` does.
 */
export function isoTimeOf(ms: number): string {
  if (ms === lastMs) return lastText;
  const second = Math.floor(ms / 1000) * 1000;
  if (second === secondMs && Number.isInteger(ms)) {
    lastText = secondText + MILLIS[ms - second]!;
  } else {
    lastText = new Date(ms).toISOString();
    // A fraction of a millisecond is cut as Date cuts it, and a time past what a Date holds throws:
    // both go the long way, and so does every time of the second the latest time begins.
    secondMs = Number.isInteger(ms) && Math.abs(second) < LATEST_TIME ? second : Number.NaN;
    secondText = lastText.slice(0, -4);
  }
  lastMs = ms;
  return lastText;
}

export type ClockMode = 'real' | 'manual' | string;

export interface Clock {
  /** Milliseconds since the Unix epoch, on the mock clock. */
  now(): number;
  advance(ms: number): void;
  set(epochMs: number): void;
  readonly mode: 'real' | 'manual';
}

export function createClock(mode: ClockMode = 'real', wall: () => number = Date.now): Clock {
  if (mode === 'real') {
    let offset = 0;
    return {
      mode: 'real',
      now: () => wall() + offset,
      advance: (ms) => {
        offset += ms;
      },
      set: (epochMs) => {
        offset = epochMs - wall();
      },
    };
  }
  let current = mode === 'manual' ? wall() : Date.parse(mode);
  if (Number.isNaN(current)) throw new Error(`--clock must be real, manual or an ISO time, got "${mode}"`);
  return {
    mode: 'manual',
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (epochMs) => {
      current = epochMs;
    },
  };
}
