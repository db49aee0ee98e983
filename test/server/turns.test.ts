// Requests wait for a turn of the event loop with time left (state/work-turns.ts) before their
// work starts: a model request and an admin call alike, and each call of a JSON-RPC batch. Here
// the turns are held by hand, so what waits is seen waiting.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Asks held with `holdNext`; every other ask goes at once. */
const turns = vi.hoisted(() => ({ asked: 0, holdNext: false, held: undefined as (() => void) | undefined }));

vi.mock('../../src/state/work-turns.js', async (original) => ({
  ...(await original<typeof import('../../src/state/work-turns.js')>()),
  turnForWork: () => {
    turns.asked += 1;
    if (!turns.holdNext) return undefined;
    turns.holdNext = false;
    return new Promise<void>((go) => (turns.held = go));
  },
}));

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const chat = (session: string) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json', 'x-mock-session': session },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
  });

describe('requests take turns of the loop', () => {
  it('a model request does nothing until its turn comes, then is answered', async () => {
    turns.holdNext = true;
    let answered = false;
    const answer = chat('held').then((response) => ((answered = true), response));
    await vi.waitUntil(() => turns.held !== undefined, { timeout: 10_000, interval: 5 });
    // Meanwhile an admin call goes (its turn is not held) and finds nothing journaled.
    const journal = (await (await server.admin('/requests?session=held')).json()) as { total: number };
    expect(journal.total).toBe(0);
    expect(answered).toBe(false);
    turns.held!();
    expect((await answer).status).toBe(200);
    expect(((await (await server.admin('/requests?session=held')).json()) as { total: number }).total).toBe(1);
  });

  it('asks a turn for each model request, each admin call, and each call of a JSON-RPC batch', async () => {
    const before = turns.asked;
    await chat('counted');
    expect(turns.asked - before).toBe(1);
    await server.admin('/health');
    expect(turns.asked - before).toBe(2);
    const batch = [0, 1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'journal', arguments: { limit: 5 } } }));
    const mcp = await server.admin('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(batch) });
    expect(mcp.status).toBe(200);
    // The endpoint's own turn, then one for each call.
    expect(turns.asked - before).toBe(2 + 1 + 3);
  });
});
