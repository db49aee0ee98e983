// Everything a long run accumulates is bounded: sessions (least recently used dropped past the
// cap), each session's journal, stored responses, video tasks, served pictures and run-time
// fixtures; and multipart uploads, good or refused, never leave a file in the temp directory.
import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGES, MAX_RUNTIME_FIXTURES, MAX_STORED_RESPONSES, MAX_TASKS, putBounded } from '../../src/state/session.js';
import { Sessions } from '../../src/state/sessions.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { formFields, multipart, send } from './wire.js';
import { ROUTES } from './sampled-routes.js';

describe('sessions', () => {
  it('are capped, dropping the least recently used', () => {
    const sessions = new Sessions(10, () => 0, 3);
    const a = sessions.get('a');
    a.sequence = 7;
    sessions.get('b');
    sessions.get('c');
    sessions.get('a');
    sessions.get('d');
    expect(sessions.all().map((s) => s.id)).toEqual(['c', 'a', 'd']);
    expect(sessions.peek('b')).toBeUndefined();
    expect(sessions.get('a').sequence).toBe(7);
    // A dropped session comes back empty.
    expect(sessions.get('b').sequence).toBe(0);
    expect(sessions.all()).toHaveLength(3);
  });

  it('can be dropped one at a time', () => {
    const sessions = new Sessions(10, () => 0, 3);
    sessions.get('idle').journal.push({} as never);
    sessions.get('busy');
    sessions.reset('idle');
    expect(sessions.peek('idle')).toBeUndefined();
    expect(sessions.all().map((s) => s.id)).toEqual(['busy']);
  });

  it('asked for again in a row stay the most recent, and come back empty once dropped', () => {
    const sessions = new Sessions(10, () => 0, 2);
    sessions.get('a');
    sessions.get('b').sequence = 5;
    sessions.get('b');
    sessions.get('c');
    expect(sessions.all().map((s) => s.id)).toEqual(['b', 'c']);
    sessions.get('c').sequence = 3;
    sessions.reset('c');
    expect(sessions.get('c').sequence).toBe(0);
    expect(sessions.all().map((s) => s.id)).toEqual(['b', 'c']);
  });

  it('keep each store to its newest entries', () => {
    const map = new Map<number, number>();
    for (let i = 0; i < 10; i++) putBounded(map, i, i, 4);
    putBounded(map, 7, 70, 4);
    expect([...map.entries()]).toEqual([[6, 6], [8, 8], [9, 9], [7, 70]]);
  });
});

let server: TestServer;
const JOURNAL_MAX = 5;

beforeAll(async () => {
  server = await startTestServer({ journalMax: JOURNAL_MAX, bodyLimit: '2mb' });
});
afterAll(() => server.close());

const KEY = { authorization: 'Bearer sk-test', 'content-type': 'application/json' };

function post(path: string, session: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return send(server.url, 'POST', path, { ...KEY, 'x-mock-session': session }, JSON.stringify(body)).then((answer) => ({
    status: answer.status,
    json: JSON.parse(answer.text) as Record<string, unknown>,
  }));
}

/** `count` requests, 50 at a time, in order of their index. */
async function many<T>(count: number, one: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += 50) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(50, count - start) }, (_, i) => one(start + i)))));
  }
  return out;
}

describe('per-session stores on a running server', () => {
  it('keep only the newest journal entries', async () => {
    await many(12, (i) => post('/v1/chat/completions', 'journal', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `n${i}` }] }));
    const answer = await send(server.url, 'GET', '/__admin/requests?session=journal', {});
    const entries = (JSON.parse(answer.text) as { requests: Array<{ body: { messages: Array<{ content: string }> } }> }).requests;
    expect(entries).toHaveLength(JOURNAL_MAX);
  });

  it('forget the oldest stored response past the cap', async () => {
    const ids = await many(MAX_STORED_RESPONSES + 1, (i) =>
      post('/v1/responses', 'responses', { model: 'gpt-4o-mini', input: `keep ${i}` }).then((answer) => answer.json.id as string),
    );
    const retrieve = (id: string) => send(server.url, 'GET', `/v1/responses/${id}`, { ...KEY, 'x-mock-session': 'responses' });
    expect((await retrieve(ids[0]!)).status).toBe(404);
    expect((await retrieve(ids[1]!)).status).toBe(200);
    expect((await retrieve(ids.at(-1)!)).status).toBe(200);
  });

  it('forget the oldest video task past the cap', async () => {
    const ids = await many(MAX_TASKS + 1, (i) =>
      post('/v1/videos', 'tasks', { model: 'sora-2', prompt: `clip ${i}` }).then((answer) => answer.json.id as string),
    );
    const retrieve = (id: string) => send(server.url, 'GET', `/v1/videos/${id}`, { ...KEY, 'x-mock-session': 'tasks' });
    expect((await retrieve(ids[0]!)).status).toBe(404);
    expect((await retrieve(ids.at(-1)!)).status).toBe(200);
  });

  it('serve only the newest pictures answered as URLs', async () => {
    const picture = (i: number) =>
      post('/v1/images/generations', 'pictures', { model: 'gpt-image-1', prompt: `dot ${i}`, size: '64x64', response_format: 'url' }).then(
        (answer) => new URL((answer.json.data as Array<{ url: string }>)[0]!.url).pathname,
      );
    // The first is kept before the others are asked: pictures asked together are painted in
    // slices, so they are kept in the order they finish, not the order they were asked.
    const first = await picture(0);
    const rest = await many(MAX_IMAGES, (i) => picture(i + 1));
    expect((await send(server.url, 'GET', first, {})).status).toBe(404);
    expect((await send(server.url, 'GET', rest.at(-1)!, {})).status).toBe(200);
  });

  it('take run-time fixtures up to the cap, and again after a reset', async () => {
    const fixtures = (count: number) => ({ chat: Array.from({ length: count }, (_, i) => ({ match: { contains: `f${i}` }, reply: { text: 'ok' } })) });
    const add = (count: number) => send(server.url, 'POST', '/__admin/fixtures?session=runtime', { 'content-type': 'application/json' }, JSON.stringify(fixtures(count)));
    expect((await add(MAX_RUNTIME_FIXTURES)).status).toBe(201);
    const refused = await add(1);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error.message).toContain(`at most ${MAX_RUNTIME_FIXTURES} run-time fixtures`);
    expect((await send(server.url, 'POST', '/__admin/reset?session=runtime', {})).status).toBe(200);
    expect((await add(1)).status).toBe(201);
  });
});

/** Files named as formidable names its temp files, directly in the temp directory. */
function uploadLikeFiles(): Set<string> {
  return new Set(
    readdirSync(tmpdir()).filter((name) => {
      if (!/^[a-z0-9]{20,32}$/.test(name)) return false;
      try {
        return statSync(join(tmpdir(), name)).isFile();
      } catch {
        return false;
      }
    }),
  );
}

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f00000000049454e44ae426082',
  'hex',
);

describe('multipart uploads', () => {
  it('leave no file in the temp directory, answered or refused', async () => {
    const before = uploadLikeFiles();
    const statuses: number[] = [];
    for (const route of ROUTES.filter((r) => r.body === 'multipart' || r.path === '/v1/video/generations')) {
      const fields = formFields(route.valid ?? {});
      const forms = [
        multipart(fields, [['image', 'a.png', PNG], ['input_reference', 'a.png', PNG]]),
        multipart(fields, [['image', 'fake.png', Buffer.from('not a picture')], ['mask', 'm.png', PNG]]),
        multipart([['prompt', 'no model']], [['image', 'a.png', PNG], ['__proto__', 'x.png', PNG], ['constructor', 'y.png', PNG]]),
      ];
      for (const form of forms) {
        const answer = await send(server.url, 'POST', route.path, { authorization: 'Bearer sk-test', 'content-type': form.contentType }, form.body);
        statuses.push(answer.status);
      }
      // Chunked, so the parser is midway through the file when it passes the limit.
      const big = multipart(fields, [['image', 'big.png', Buffer.alloc(3 * 1024 * 1024, 1)]]);
      const headers = { authorization: 'Bearer sk-test', 'content-type': big.contentType, 'transfer-encoding': 'chunked' };
      statuses.push((await send(server.url, 'POST', route.path, headers, big.body)).status);
      const cut = multipart(fields, [['image', 'a.png', PNG]]).body;
      const truncated = await send(server.url, 'POST', route.path, { authorization: 'Bearer sk-test', 'content-type': 'multipart/form-data; boundary=hardening-boundary' }, cut.subarray(0, cut.length - 30));
      statuses.push(truncated.status);
    }
    // Some succeeded, some were refused, none failed on the server.
    expect(statuses.some((status) => status === 200)).toBe(true);
    expect(statuses.some((status) => status === 400)).toBe(true);
    expect(statuses.some((status) => status === 413)).toBe(true);
    expect(statuses.every((status) => status < 500)).toBe(true);
    const left = [...uploadLikeFiles()].filter((name) => !before.has(name));
    expect(left).toEqual([]);
  });
});
