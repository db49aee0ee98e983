// A batch's status as a pure function of the batch and the time: the steps, when lines are due,
// cancellation and expiry, with no server and no clock.
import { describe, expect, it } from 'vitest';
import { batchState, defaultTiming, lineDueMs } from '../../src/media/batch-lifecycle.js';
import type { Batch } from '../../src/conversation/batch.js';

function batchOf(lines: number, changes: Partial<Batch> = {}): Batch {
  return {
    id: 'batch_1',
    vendor: 'openai',
    endpoint: '/v1/chat/completions',
    inputFileId: 'file-1',
    metadata: null,
    createdMs: 0,
    expiresAtMs: 24 * 3600 * 1000,
    timing: defaultTiming(lines),
    fixture: null,
    lines: Array.from({ length: lines }, (_, i) => ({ customId: `l${i}`, url: '/v1/chat/completions', body: {}, size: 2 })),
    invalid: [],
    sender: { headers: {}, caller: {}, origin: 'http://127.0.0.1' },
    answers: [],
    closed: false,
    upToMs: 0,
    ...changes,
  };
}

describe('batchState', () => {
  it('takes 4.5 s for 10 lines by default, the lines spread evenly over the 2.5 s in progress', () => {
    const batch = batchOf(10);
    expect(batchState(batch, 999)).toMatchObject({ status: 'validating', due: 0 });
    expect(batchState(batch, 1000)).toMatchObject({ status: 'in_progress', due: 0, since: { in_progress: 1000 } });
    expect(lineDueMs(batch, 0)).toBe(1250);
    expect(batchState(batch, 2250)).toMatchObject({ status: 'in_progress', due: 5 });
    expect(batchState(batch, 3500)).toMatchObject({ status: 'finalizing', due: 10 });
    expect(batchState(batch, 4500)).toMatchObject({ status: 'completed', due: 10, ended: true, since: { completed: 4500 } });
  });

  it('fails when validation ends on a batch with invalid lines, answering none', () => {
    const batch = batchOf(3, { invalid: [{ code: 'invalid_url', message: 'x', param: 'url', line: 2 }] });
    expect(batchState(batch, 999).status).toBe('validating');
    expect(batchState(batch, 10_000)).toMatchObject({ status: 'failed', due: 0, ended: true, since: { failed: 1000 } });
  });

  it('cancels: lines due before the cancel are answered, cancelling lasts the finalizing time', () => {
    const batch = batchOf(10, { cancelledMs: 2250 });
    expect(batchState(batch, 2250)).toMatchObject({ status: 'cancelling', due: 5 });
    expect(batchState(batch, 3249)).toMatchObject({ status: 'cancelling', due: 5 });
    expect(batchState(batch, 3250)).toMatchObject({ status: 'cancelled', due: 5, ended: true });
    expect(batchState(batchOf(2, { cancelledMs: 500 }), 1500)).toMatchObject({ status: 'cancelled', due: 0, since: { cancelling: 500 } });
  });

  it('expires when the window closes before the batch ends, validating too', () => {
    const slow = batchOf(4, { timing: { validatingMs: 0, inProgressMs: 48 * 3600 * 1000, finalizingMs: 0 } });
    expect(batchState(slow, 24 * 3600 * 1000)).toMatchObject({ status: 'expired', due: 1, ended: true });
    const stuck = batchOf(4, { timing: { validatingMs: 30 * 3600 * 1000, inProgressMs: 0, finalizingMs: 0 } });
    expect(batchState(stuck, 24 * 3600 * 1000)).toMatchObject({ status: 'expired', due: 0, since: { validating: 0, expired: 24 * 3600 * 1000 } });
  });

  it('answers every line at once when in_progress_ms is 0', () => {
    const batch = batchOf(3, { timing: { validatingMs: 10, inProgressMs: 0, finalizingMs: 10 } });
    expect(batchState(batch, 10)).toMatchObject({ status: 'finalizing', due: 3 });
  });
});
