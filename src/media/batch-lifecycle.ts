// Where a batch stands: a pure function of the batch (its timing, its lines, its validation
// problems, when it was cancelled) and the time on the mock clock. Nothing keeps timers: the
// clock passing a step's time is what moves a batch, whether the clock is real or manual.
import type { Batch, BatchState, BatchStatus, BatchTiming } from '../conversation/batch.js';

/** How long a batch may take before it expires (`completion_window: "24h"`). */
export const COMPLETION_WINDOW_MS = 24 * 3600 * 1000;

/** 1 s validating, 2 s plus 50 ms a line in progress, 1 s finalizing. */
export function defaultTiming(lines: number): BatchTiming {
  return { validatingMs: 1000, inProgressMs: 2000 + 50 * lines, finalizingMs: 1000 };
}

const ENDINGS: ReadonlySet<BatchStatus> = new Set(['failed', 'completed', 'expired', 'cancelled']);

/** The steps the batch takes, each with its start, whether or not the clock has reached them. */
function path(batch: Batch): Array<[BatchStatus, number]> {
  const { validatingMs, inProgressMs, finalizingMs } = batch.timing;
  const start = batch.createdMs + validatingMs;
  const finalizing = start + inProgressMs;
  const cancelled = batch.cancelledMs;
  let steps: Array<[BatchStatus, number]> = [['validating', batch.createdMs]];
  if (batch.invalid.length > 0 && !(cancelled !== undefined && cancelled < start)) steps.push(['failed', start]);
  else if (cancelled !== undefined) {
    if (cancelled >= start) steps.push(['in_progress', start]);
    steps.push(['cancelling', cancelled], ['cancelled', cancelled + finalizingMs]);
  } else steps.push(['in_progress', start], ['finalizing', finalizing], ['completed', finalizing + finalizingMs]);
  // The window cuts the path short when it closes before the batch ends.
  const end = steps[steps.length - 1]![1];
  if (batch.expiresAtMs < end) steps = [...steps.filter(([, at]) => at < batch.expiresAtMs), ['expired', batch.expiresAtMs]];
  return steps;
}

/** When line `index` (from 0) of `count` is answered: evenly over the in-progress time, the last as it ends. */
export function lineDueMs(batch: Batch, index: number): number {
  const start = batch.createdMs + batch.timing.validatingMs;
  return start + Math.floor(((index + 1) * batch.timing.inProgressMs) / batch.lines.length);
}

/** How many lines are due by `until`: the first index whose time is later, found by bisection. */
function dueBy(batch: Batch, until: number): number {
  let low = 0;
  let high = batch.lines.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (lineDueMs(batch, middle) <= until) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function batchState(batch: Batch, now: number): BatchState {
  const since: BatchState['since'] = {};
  let status: BatchStatus = 'validating';
  for (const [step, at] of path(batch)) {
    if (at > now) break;
    status = step;
    since[step] = at;
  }
  // Lines are answered until the batch stops taking them: finalizing, a cancel, the window closing.
  const stop = Math.min(now, batch.cancelledMs ?? Infinity, batch.expiresAtMs - 1);
  const due = batch.invalid.length > 0 ? 0 : dueBy(batch, stop);
  return { status, since, due, ended: ENDINGS.has(status) };
}

/** A cancel is taken while the batch validates or runs; after that it is too late. */
export function cancellable(state: BatchState): boolean {
  return state.status === 'validating' || state.status === 'in_progress';
}
