// Step selection and rate windows as pure functions.
import { describe, expect, it } from 'vitest';
import type { StepSpec } from '../../src/config/schema.js';
import { chargeOutput, consume, retryAfterSeconds } from '../../src/scenarios/rate-window.js';
import { stepAt } from '../../src/scenarios/steps.js';

const kinds = (steps: StepSpec[], cycle: boolean, count: number) =>
  Array.from({ length: count }, (_, n) => {
    const { step } = stepAt(steps, cycle, n);
    return 'pass' in step ? 'pass' : 'fault' in step ? step.fault : step.error;
  });

describe('stepAt', () => {
  it('takes steps in order, each for its `times`, the last without `times` for good', () => {
    const steps: StepSpec[] = [{ error: 'rate_limit', times: 2 }, { fault: 'cut_stream', times: 1 }, 'pass'];
    expect(kinds(steps, false, 6)).toEqual(['rate_limit', 'rate_limit', 'cut_stream', 'pass', 'pass', 'pass']);
  });

  it('passes every request after the last step of a finite scenario', () => {
    expect(kinds([{ error: 'server_error', times: 1 }], false, 3)).toEqual(['server_error', 'pass', 'pass']);
  });

  it('starts again at the first step with cycle: true', () => {
    const flaky: StepSpec[] = [{ pass: true, times: 2 }, { error: 'server_error', times: 1 }];
    expect(kinds(flaky, true, 7)).toEqual(['pass', 'pass', 'server_error', 'pass', 'pass', 'server_error', 'pass']);
  });

  it('never reaches steps after one without `times`, cycle or not', () => {
    const steps: StepSpec[] = [{ error: 'forbidden' }, { error: 'server_error', times: 1 }];
    expect(kinds(steps, true, 3)).toEqual(['forbidden', 'forbidden', 'forbidden']);
  });
});

describe('rate windows', () => {
  const limit = { requests: 2, window_ms: 60_000 };

  it('counts requests down within a window and refuses past the budget without counting', () => {
    const first = consume(undefined, limit, 0, 1_000);
    expect(first.overdrawn).toBeUndefined();
    expect(first.info).toEqual([{ unit: 'requests', limit: 2, remaining: 1, resetMs: 60_000, resetAtMs: 61_000 }]);
    const second = consume(first.window, limit, 0, 21_000);
    expect(second.info).toMatchObject([{ remaining: 0, resetMs: 40_000, resetAtMs: 61_000 }]);
    const third = consume(second.window, limit, 0, 31_000);
    expect(third).toMatchObject({ overdrawn: { budget: 'requests', limit: 2, used: 2, asked: 1 }, window: second.window, info: [{ remaining: 0, resetMs: 30_000 }] });
    expect(retryAfterSeconds(third.info)).toBe(30);
  });

  it('opens a fresh window once the old one has passed', () => {
    const spent = consume(consume(undefined, limit, 0, 0).window, limit, 0, 0);
    const later = consume(spent.window, limit, 0, 60_000);
    expect(later).toMatchObject({ window: { startMs: 60_000, used: { requests: 1 } }, info: [{ remaining: 1 }] });
  });

  it('prices a token budget by the input given and rounds retry-after up', () => {
    const tokens = { tokens: 100, window_ms: 1_500 };
    const first = consume(undefined, tokens, 70, 0);
    expect(first.info).toMatchObject([{ unit: 'tokens', remaining: 30 }]);
    const refused = consume(first.window, tokens, 40, 100);
    expect(refused.overdrawn).toEqual({ budget: 'tokens', limit: 100, used: 70, asked: 40 });
    expect(refused.info[0]!.remaining).toBe(30);
    expect(retryAfterSeconds(refused.info)).toBe(2);
    expect(consume(first.window, tokens, 30, 100).overdrawn).toBeUndefined();
  });

  it('holds several budgets at once, refusing by the first that would be overdrawn', () => {
    const several = { requests: 10, input_tokens: 50, output_tokens: 40, tokens: 80, window_ms: 60_000 };
    const first = consume(undefined, several, 30, 0);
    expect(first.info.map((i) => [i.unit, i.remaining])).toEqual([['requests', 9], ['input_tokens', 20], ['output_tokens', 40], ['tokens', 50]]);
    expect(consume(first.window, several, 30, 1).overdrawn).toEqual({ budget: 'input_tokens', limit: 50, used: 30, asked: 30 });
    // The answer's output is charged once known: to the output and the total budgets.
    const charged = chargeOutput(first.window, several, 45, 2)!;
    expect(charged.used).toEqual({ requests: 1, input_tokens: 30, output_tokens: 45, tokens: 75 });
    expect(consume(charged, several, 1, 3).overdrawn).toEqual({ budget: 'output_tokens', limit: 40, used: 45, asked: 0 });
    expect(consume(charged, { requests: 10, tokens: 80, window_ms: 60_000 }, 10, 3).overdrawn).toEqual({ budget: 'tokens', limit: 80, used: 75, asked: 10 });
    // Output of an answer whose window has rolled over is not charged to the next one.
    expect(chargeOutput(first.window, several, 45, 60_000)).toBe(first.window);
  });
});
