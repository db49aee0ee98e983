// The admin operations without HTTP: rows of ADMIN_ROUTES run on plain requests, as the MCP tools
// run them, and what they change seen by the model operations on the same mock.
import { describe, expect, it } from 'vitest';
import { adminCall, answer, plainMock } from '../helpers/mock.js';

const mock = plainMock({
  scenarios: { 'busy.yaml': 'scenarios:\n  - name: busy\n    steps: [ { error: rate_limit } ]\n' },
});
const ask = (text: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });
const session = (id: string) => ({ headers: { 'x-mock-session': id } });

describe('admin operations, as plain functions', () => {
  it('reports health: status, reload count and the memory the sessions hold', () => {
    expect(adminCall(mock, 'GET /health')).toMatchObject({ status: 'ok', errors: [], memory: expect.any(Object) });
  });

  it("switches one session's scenario, which the next chat request of that session meets", async () => {
    expect(adminCall(mock, 'PUT /scenario', { ...session('s1'), body: { name: 'busy' } })).toEqual({ scenario: 'busy', session: 's1' });
    const refused = await answer(mock, 'POST /v1/chat/completions', { ...session('s1'), body: ask('hi') });
    expect('error' in refused && refused.error.kind).toBe('rate_limit');
    const other = await answer(mock, 'POST /v1/chat/completions', { ...session('s2'), body: ask('hi') });
    expect('plan' in other).toBe(true);
    adminCall(mock, 'DELETE /scenario', session('s1'));
    expect('plan' in (await answer(mock, 'POST /v1/chat/completions', { ...session('s1'), body: ask('hi') }))).toBe(true);
  });

  it('refuses an unknown scenario, naming the field and the ones there are', () => {
    expect(() => adminCall(mock, 'PUT /scenario', { body: { name: 'nope' } })).toThrow(/busy/);
  });

  it('adds run-time fixtures to one session only', async () => {
    const added = adminCall(mock, 'POST /fixtures', { ...session('f1'), body: { chat: [{ name: 'pinned', match: { contains: 'ping' }, reply: { text: 'pong' } }] } });
    expect(added).toMatchObject({ fixtures: [{ name: 'pinned' }] });
    const hit = await answer(mock, 'POST /v1/chat/completions', { ...session('f1'), body: ask('ping?') });
    expect(hit.notes.fixture).toBe('pinned');
    const miss = await answer(mock, 'POST /v1/chat/completions', { ...session('f2'), body: ask('ping?') });
    expect(miss.notes.fixture).toBeNull();
  });

  it('moves the mock clock, and lists the video tasks it moved', async () => {
    await answer(mock, 'POST /v1/videos', { ...session('t1'), body: { model: 'sora-2', prompt: 'waves' } });
    const before = adminCall(mock, 'GET /tasks', { query: { session: 't1' } }) as { tasks: Array<{ status: string }> };
    expect(before.tasks.map((t) => t.status)).toEqual(['queued']);
    adminCall(mock, 'POST /clock', { body: { advance_ms: 60_000 } });
    const after = adminCall(mock, 'GET /tasks', { query: { session: 't1' } }) as { tasks: Array<{ status: string }> };
    expect(after.tasks.map((t) => t.status)).toEqual(['completed']);
  });

  it('resets one session: its tasks and run-time fixtures are gone, the others stay', async () => {
    adminCall(mock, 'POST /fixtures', { ...session('r1'), body: { chat: [{ name: 'mine', match: { contains: 'x' }, reply: { text: 'y' } }] } });
    adminCall(mock, 'POST /fixtures', { ...session('r2'), body: { chat: [{ name: 'theirs', match: { contains: 'x' }, reply: { text: 'y' } }] } });
    adminCall(mock, 'POST /reset', { query: { session: 'r1' } });
    expect((await answer(mock, 'POST /v1/chat/completions', { ...session('r1'), body: ask('x') })).notes.fixture).toBeNull();
    expect((await answer(mock, 'POST /v1/chat/completions', { ...session('r2'), body: ask('x') })).notes.fixture).toBe('theirs');
  });
});
