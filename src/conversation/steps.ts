// Work cut into steps: a generator that yields between its steps and returns its result. The code
// doing the work stays pure; whoever drives it decides whether the event loop is given back
// between steps (state/event-loop.ts's `inSlices`, for a request) or not (`finished`).

export type Steps<T> = Generator<void, T, void>;

/** The result of `steps`, run to their end at once. */
export function finished<T>(steps: Steps<T>): T {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** The steps of each in turn, those left out skipped. */
export function* oneAfterAnother(...all: (Steps<void> | undefined)[]): Steps<void> {
  for (const steps of all) if (steps) yield* steps;
}
