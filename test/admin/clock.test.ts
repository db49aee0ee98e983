// POST /__admin/clock moves the mock clock; every timestamp the mock writes follows it.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (s: TestServer, body: unknown) =>
  s.admin('/clock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function chatCreated(s: TestServer): Promise<number> {
  const response = await fetch(`${s.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'what time is it?' }] }),
  });
  return ((await response.json()) as { created: number }).created;
}

describe('POST /__admin/clock', () => {
  it('advances a fixed clock and answers with the new time; replies carry it', async () => {
    server = await startTestServer({ clock: '2030-01-01T00:00:00Z' });
    expect(await chatCreated(server)).toBe(Date.parse('2030-01-01T00:00:00Z') / 1000);

    const response = await post(server, { advance_ms: 90_000 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ mode: 'manual', now: '2030-01-01T00:01:30.000Z', now_ms: Date.parse('2030-01-01T00:01:30Z') });
    expect(await chatCreated(server)).toBe(Date.parse('2030-01-01T00:01:30Z') / 1000);
  });

  it('sets a manual clock to an ISO time, and GET reads it back', async () => {
    server = await startTestServer({ clock: 'manual' });
    const response = await post(server, { set: '2031-06-15T12:00:00+02:00' });
    expect(((await response.json()) as { now: string }).now).toBe('2031-06-15T10:00:00.000Z');
    expect(await (await server.admin('/clock')).json()).toMatchObject({ mode: 'manual', now: '2031-06-15T10:00:00.000Z' });
  });

  it('adds an offset to a real clock', async () => {
    server = await startTestServer({ clock: 'real' });
    const before = await chatCreated(server);
    await post(server, { advance_ms: 10 * 24 * 3600 * 1000 });
    const after = await chatCreated(server);
    // Ten days ahead, whatever the wall clock did in between (it cannot have moved a day).
    expect(after - before).toBeGreaterThanOrEqual(10 * 24 * 3600);
    expect(after - before).toBeLessThan(11 * 24 * 3600);
  });

  it.each([
    [{ advance_ms: -5 }, 'advance_ms'],
    [{ advance_ms: 1.5 }, 'advance_ms'],
    [{ advance_ms: '100' }, 'advance_ms'],
    [{ set: 'next tuesday' }, 'set'],
    [{ set: '2030-13-45T00:00:00Z' }, 'set'],
    [{ set: 12 }, 'set'],
    [{}, 'advance_ms'],
    [{ advance_ms: 1, set: '2030-01-01T00:00:00Z' }, 'set'],
    [{ advance: 1 }, 'advance'],
  ])('refuses %j with a 400 naming %s, leaving the clock alone', async (body, field) => {
    server = await startTestServer({ clock: '2030-01-01T00:00:00Z' });
    const response = await post(server, body);
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: { param: string | null; message: string } }).error;
    expect(error.param ?? error.message).toContain(field);
    expect(((await (await server.admin('/clock')).json()) as { now: string }).now).toBe('2030-01-01T00:00:00.000Z');
  });
});
