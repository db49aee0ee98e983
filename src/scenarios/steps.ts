// Which step of a scenario the n-th request gets: steps in order, each `times` requests long (a
// step without `times` lasts for good), and with `cycle` the sequence starts again after its end.
// Past the last step of a finite, non-cycling scenario requests pass.
import type { StepSpec } from '../config/schema.js';

export type Step = Exclude<StepSpec, 'pass'>;

const PASS: Step = { pass: true };

function normalizeStep(step: StepSpec): Step {
  return step === 'pass' ? PASS : step;
}

/** The step for the request numbered `n` (0-based) within the scenario and session. */
export function stepAt(steps: readonly StepSpec[], cycle: boolean, n: number): { step: Step; index: number } {
  let total = 0;
  for (const step of steps) {
    const times = normalizeStep(step).times;
    if (times === undefined) {
      total = Infinity;
      break;
    }
    total += times;
  }
  let position = cycle && Number.isFinite(total) ? n % total : n;
  for (let index = 0; index < steps.length; index++) {
    const step = normalizeStep(steps[index]!);
    if (step.times === undefined || position < step.times) return { step, index };
    position -= step.times;
  }
  return { step: PASS, index: steps.length };
}
