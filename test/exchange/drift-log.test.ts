// The live drift log: one row per endpoint and path, counted, and bounded by dropping the row seen
// longest ago.
import { describe, expect, it } from 'vitest';
import { DriftLog } from '../../src/exchange/upstream/drift-log.js';

const finding = (path: string) => ({ path, kind: 'upstream has, mock lacks' as const, upstream: 'object', mock: '-' });
const seen = (time: string, example: string, endpoint = 'POST /v1/chat/completions') => ({ endpoint, style: 'chat-completions', time, example });

describe('the drift log', () => {
  it('counts a path seen again, keeping when it was first seen and the latest example', () => {
    const log = new DriftLog();
    log.note(seen('t1', 'req_a'), [finding('metadata')]);
    log.note(seen('t2', 'req_b'), [finding('metadata')]);
    log.note(seen('t3', 'req_c', 'POST /v1/messages'), [finding('metadata')]);
    expect(log.list().map(({ endpoint, count, first_seen, last_seen, example }) => ({ endpoint, count, first_seen, last_seen, example }))).toEqual([
      { endpoint: 'POST /v1/chat/completions', count: 2, first_seen: 't1', last_seen: 't2', example: 'req_b' },
      { endpoint: 'POST /v1/messages', count: 1, first_seen: 't3', last_seen: 't3', example: 'req_c' },
    ]);
  });

  it('keeps at most its bound, dropping the row seen longest ago', () => {
    const log = new DriftLog(2);
    log.note(seen('t1', 'a'), [finding('one')]);
    log.note(seen('t2', 'b'), [finding('two')]);
    log.note(seen('t3', 'c'), [finding('one')]);
    log.note(seen('t4', 'd'), [finding('three')]);
    expect(log.list().map((row) => row.path)).toEqual(['one', 'three']);
    expect(log.clear()).toBe(2);
    expect(log.list()).toEqual([]);
  });
});
