// Files and batch outputs count in the session's and the overall budget: one that does not fit is
// a 413 naming the budget, never paid for by evicting other sessions' journals and responses (nine
// sessions with a large file each once left every journal evicted as soon as it was kept).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ memoryLimit: '4mb', sessionMemoryLimit: '1mb', fixtureFiles: { 'models.yaml': 'models:\n  - { id: gpt-4o-mini }\n' } });
});
afterAll(() => server.close());

const headers = (session: string) => ({ 'x-mock-session': session, authorization: 'Bearer sk-test' });

async function upload(session: string, bytes: number): Promise<{ status: number; body: { error?: { message: string; code: string } } }> {
  const form = new FormData();
  form.append('purpose', 'user_data');
  form.append('file', new Blob([Buffer.alloc(bytes, 7)]), 'big.bin');
  const response = await fetch(`${server.url}/v1/files`, { method: 'POST', headers: headers(session), body: form });
  return { status: response.status, body: (await response.json()) as { error?: { message: string; code: string } } };
}

async function respond(session: string): Promise<string> {
  const response = await fetch(`${server.url}/v1/responses`, {
    method: 'POST',
    headers: { ...headers(session), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', input: 'hello' }),
  });
  return ((await response.json()) as { id: string }).id;
}

describe('files in the overall memory budget', () => {
  it("refuses a file past --memory-limit with a 413, and keeps every session's journal and responses", async () => {
    const statuses: number[] = [];
    const responses: string[] = [];
    for (let i = 0; i < 9; i++) {
      responses.push(await respond(`s${i}`));
      const answer = await upload(`s${i}`, 900 * 1024);
      statuses.push(answer.status);
      if (answer.status === 413) {
        expect(answer.body.error!.code).toBe('memory_full');
        expect(answer.body.error!.message).toMatch(/--memory-limit/);
      }
    }
    // Four files of 900 KB fit beside what the sessions hold under 4 MB; the rest are refused.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(3);
    expect(statuses.slice(5)).toEqual([413, 413, 413, 413]);
    const health = (await (await server.admin('/health')).json()) as { memory: Record<string, number> };
    for (const kind of ['files', 'batches', 'speech', 'caches', 'journal', 'responses']) expect(typeof health.memory[kind]).toBe('number');
    expect(health.memory.files).toBeLessThanOrEqual(4 * 1024 * 1024);
    for (let i = 0; i < 9; i++) {
      const verify = await server.admin('/verify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session: `s${i}`, expect: [{ requests: { path: '/v1/responses' }, count: 1 }, { requests: { path: '/v1/files' }, count: 1 }] }),
      });
      const result = (await verify.json()) as { ok: boolean; results: Array<{ message: string }> };
      expect(result.results.map((r) => r.message)).toEqual([expect.stringMatching(/^As expected/), expect.stringMatching(/^As expected/)]);
      const stored = await fetch(`${server.url}/v1/responses/${responses[i]}`, { headers: headers(`s${i}`) });
      expect(stored.status).toBe(200);
    }
    // A refused upload's journal entry keeps its size, not its bytes.
    const page = (await (await server.admin('/requests?session=s8')).json()) as { requests: Array<{ path: string; body: unknown; status: number }> };
    const refused = page.requests.find((entry) => entry.path === '/v1/files')!;
    expect(refused.status).toBe(413);
    expect(JSON.stringify(refused).length).toBeLessThan(10_000);
  });
});

describe("a batch's answers in the session's budget", () => {
  it('answers a line whose answer does not fit with a 413 naming the budget, in the error file', async () => {
    const big = 'word '.repeat(19_000);
    const batchServer = await startTestServer({
      clock: 'manual',
      sessionMemoryLimit: '1mb',
      fixtureFiles: { 'chat.yaml': `chat:\n  - name: long\n    match: { contains: long }\n    reply: { text: "${big}" }\n` },
    });
    try {
      const lines = Array.from({ length: 14 }, (_, i) => JSON.stringify({ custom_id: `l${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'long' }] } }));
      const form = new FormData();
      form.append('purpose', 'batch');
      form.append('file', new Blob([lines.join('\n')]), 'in.jsonl');
      const session = { 'x-mock-session': 'b', authorization: 'Bearer sk-test' };
      const file = (await (await fetch(`${batchServer.url}/v1/files`, { method: 'POST', headers: session, body: form })).json()) as { id: string };
      const created = await fetch(`${batchServer.url}/v1/batches`, {
        method: 'POST',
        headers: { ...session, 'content-type': 'application/json' },
        body: JSON.stringify({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
      });
      const batch = (await created.json()) as { id: string };
      await batchServer.advanceClock(24 * 3600 * 1000);
      const done = (await (await fetch(`${batchServer.url}/v1/batches/${batch.id}`, { headers: session })).json()) as { request_counts: { completed: number; failed: number }; error_file_id: string };
      expect(done.request_counts.completed).toBeGreaterThanOrEqual(1);
      expect(done.request_counts.failed).toBeGreaterThanOrEqual(1);
      const errors = await (await fetch(`${batchServer.url}/v1/files/${done.error_file_id}/content`, { headers: session })).text();
      expect(errors).toMatch(/--session-memory-limit/);
      const health = (await (await batchServer.admin('/health')).json()) as { memory: { files: number; batches: number } };
      expect(health.memory.files + health.memory.batches).toBeLessThanOrEqual(1024 * 1024);
    } finally {
      await batchServer.close();
    }
  });
});
