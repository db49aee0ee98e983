// Video progression as a pure function of the task and the clock (and status reads for
// poll-driven tasks).
import { describe, expect, it } from 'vitest';
import { recordPoll, videoProgress } from '../../src/media/progression.js';
import { failureOf, resolveTiming, videoPage } from '../../src/media/video-tasks.js';
import type { VideoTask } from '../../src/state/video-task.js';

const T0 = Date.parse('2030-01-01T00:00:00Z');

function task(overrides: Partial<VideoTask> = {}): VideoTask {
  return {
    id: 'video_1',
    model: 'sora-2',
    prompt: 'a cat',
    createdMs: T0,
    seconds: '4',
    size: '1280x720',
    timing: resolveTiming(),
    files: {},
    polls: 0,
    ...overrides,
  };
}

describe('videoProgress by time', () => {
  it('waits 2 s queued, runs 10 s with progress rising, then completes at 100', () => {
    const t = task();
    expect(videoProgress(t, T0)).toEqual({ status: 'queued', progress: 0, startedMs: null, finishedMs: null, error: null });
    expect(videoProgress(t, T0 + 1999).status).toBe('queued');
    expect(videoProgress(t, T0 + 2000)).toMatchObject({ status: 'in_progress', progress: 0, startedMs: T0 + 2000 });
    expect(videoProgress(t, T0 + 4500)).toMatchObject({ status: 'in_progress', progress: 25 });
    expect(videoProgress(t, T0 + 11_999)).toMatchObject({ status: 'in_progress', progress: 99 });
    expect(videoProgress(t, T0 + 12_000)).toEqual({
      status: 'completed',
      progress: 100,
      startedMs: T0 + 2000,
      finishedMs: T0 + 12_000,
      error: null,
    });
    expect(videoProgress(t, T0 + 99_000).finishedMs).toBe(T0 + 12_000);
  });

  it('never moves progress backwards as time passes', () => {
    const t = task({ timing: resolveTiming({ queuedMs: 500, runMs: 7777 }) });
    let last = -1;
    for (let ms = 0; ms <= 9000; ms += 37) {
      const { progress } = videoProgress(t, T0 + ms);
      expect(progress).toBeGreaterThanOrEqual(last);
      last = progress;
    }
    expect(last).toBe(100);
  });

  it('fails at fail_at with its error, at the time that progress is reached', () => {
    const error = { code: 'moderation_blocked', message: 'Blocked by moderation.' };
    const t = task({ timing: resolveTiming({ queuedMs: 1000, runMs: 8000 }), failure: failureOf(40, error) });
    expect(videoProgress(t, T0 + 1000 + 3199)).toMatchObject({ status: 'in_progress', progress: 39 });
    expect(videoProgress(t, T0 + 1000 + 3200)).toEqual({
      status: 'failed',
      progress: 40,
      startedMs: T0 + 1000,
      finishedMs: T0 + 4200,
      error,
    });
  });

  it('completes as soon as it leaves the queue when run_ms is 0', () => {
    const t = task({ timing: resolveTiming({ queuedMs: 0, runMs: 0 }) });
    expect(videoProgress(t, T0)).toMatchObject({ status: 'completed', progress: 100, finishedMs: T0 });
  });
});

describe('videoProgress by polls', () => {
  it('advances one step per status read and stops at completion', () => {
    const t = task({ timing: resolveTiming({ progressBy: 'polls', step: 30 }) });
    expect(videoProgress(t, T0).status).toBe('queued');
    const seen = [1, 2, 3, 4, 5, 6].map((i) => recordPoll(t, T0 + i * 1000));
    expect(seen.map((s) => [s.status, s.progress])).toEqual([
      ['in_progress', 30],
      ['in_progress', 60],
      ['in_progress', 90],
      ['completed', 100],
      ['completed', 100],
      ['completed', 100],
    ]);
    // The times are those of the reads that saw the change, and stay put afterwards.
    expect(seen[5]).toMatchObject({ startedMs: T0 + 1000, finishedMs: T0 + 4000 });
    expect(t.polls).toBe(4);
  });

  it('ignores the clock: no read, no progress', () => {
    const t = task({ timing: resolveTiming({ progressBy: 'polls', step: 50 }) });
    expect(videoProgress(t, T0 + 10 ** 9).status).toBe('queued');
  });

  it('fails on the read that reaches fail_at', () => {
    const t = task({ timing: resolveTiming({ progressBy: 'polls', step: 25 }), failure: failureOf(50, undefined) });
    expect(recordPoll(t, T0).status).toBe('in_progress');
    const failed = recordPoll(t, T0 + 5);
    expect(failed).toMatchObject({ status: 'failed', progress: 50, error: { code: 'video_generation_failed' } });
  });
});

describe('resolveTiming', () => {
  it('layers fixture over model over the default, field by field', () => {
    expect(resolveTiming()).toEqual({ queuedMs: 2000, runMs: 10_000, progressBy: 'time', step: 25 });
    expect(resolveTiming({ queuedMs: 1000, runMs: 8000 }, { runMs: 500, queuedMs: undefined })).toEqual({
      queuedMs: 1000,
      runMs: 500,
      progressBy: 'time',
      step: 25,
    });
  });
});

describe('videoPage', () => {
  const tasks = ['a', 'b', 'c', 'd', 'e'].map((id, i) => task({ id, createdMs: T0 + i }));

  it('pages newest first by default and ascending on request, after a cursor', () => {
    const ids = (page: ReturnType<typeof videoPage>) => page?.items.map((item) => item.id);
    expect(ids(videoPage(tasks, T0, { limit: 2, order: 'desc' }))).toEqual(['e', 'd']);
    expect(videoPage(tasks, T0, { limit: 2, order: 'desc' })!.hasMore).toBe(true);
    expect(ids(videoPage(tasks, T0, { limit: 2, order: 'desc', after: 'd' }))).toEqual(['c', 'b']);
    const last = videoPage(tasks, T0, { limit: 2, order: 'desc', after: 'b' })!;
    expect(ids(last)).toEqual(['a']);
    expect(last.hasMore).toBe(false);
    expect(ids(videoPage(tasks, T0, { limit: 10, order: 'asc', after: 'c' }))).toEqual(['d', 'e']);
    expect(videoPage(tasks, T0, { limit: 10, order: 'asc', after: 'zzz' })).toBeUndefined();
  });
});
