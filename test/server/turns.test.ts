// Requests wait for a turn of the event loop with time left (state/event-loop.ts) before their
// work starts: a model request and an admin call alike, and each call of a JSON-RPC batch. Here
// the turns are held by hand, so what waits is seen waiting.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Asks held with `holdNext`; every other ask goes at once. */
const turns = vi.hoisted(() => ({ asked: 0, holdNext: false, held: undefined as (() => void) | undefined }));

vi.mock('../../src/state/event-loop.js', async (original) => ({
  ...(await original<typeof import('../../src/state/event-loop.js')>()),
  turnForRequest: () => {
    turns.asked += 1;
    if (!turns.holdNext) return undefined;
    turns.holdNext = false;
    return new Promise<void>((go) => (turns.held = go));
  },
}));

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: { 'chat.yaml': 'chat:\n  - name: greeting\n    match: { contains: hello }\n    reply: { text: "Hello there." }\n' },
    scenarioFiles: { 'limits.yaml': 'scenarios:\n  - name: one_429\n    steps:\n      - { error: rate_limit, times: 1 }\n      - pass\n' },
  });
});
afterAll(() => server.close());

const chat = (session: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json', 'x-mock-session': session, ...headers },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
    signal,
  });

interface Entry {
  status: number;
  source: string;
  fixture: string | null;
}

const journaled = async (session: string) => ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Entry[] }).requests;

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

  it('journals a request whose client left while it waited as 499 at once, and never starts its work', async () => {
    turns.held = undefined;
    turns.holdNext = true;
    const scenario = { 'x-mock-scenario': 'one_429' };
    const client = new AbortController();
    const asked = chat('left', scenario, client.signal).catch((error: Error) => error);
    await vi.waitUntil(() => turns.held !== undefined, { timeout: 10_000, interval: 5 });
    client.abort();
    expect(await asked).toBeInstanceOf(Error);
    // Journaled while its turn is still held: no source, since nothing was decided for it.
    await vi.waitFor(async () => expect(await journaled('left')).toMatchObject([{ status: 499, source: '-', fixture: null }]), { timeout: 10_000, interval: 20 });
    turns.held!();
    // Its work never started: the scenario's first step is still there for the next request.
    expect((await chat('left', scenario)).status).toBe(429);
    expect((await chat('left', scenario)).status).toBe(200);
    expect(await journaled('left')).toMatchObject([{ status: 499 }, { status: 429 }, { status: 200, source: 'fixture:greeting' }]);
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
