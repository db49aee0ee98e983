// The mock clock: the one source of time for timestamps, tasks and rate windows.
// `real` follows the wall clock (plus an offset that admin steps add); `manual` and a fixed ISO
// start move only when told to, so tests can step video tasks and rate windows without sleeping.

/** The latest time a JavaScript Date can hold: the clock stops there, and so does every time it gives. */
export const LATEST_TIME = 8.64e15;

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
