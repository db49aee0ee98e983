// A plain chat request is answered without Koa (server/plain-hit.ts), everything else through it.
// The two paths must not be told apart: the same request sent plain, and made Koa's by a header
// that changes nothing of its answer (`content-encoding: identity`), gets the same status, headers,
// body, journal entry, metrics and log line, for answers and for errors alike.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../../src/exchange/mock.js';
import type { JournalEntry } from '../../src/state/journal.js';
import { plainRow } from '../../src/server/plain-hit.js';
import { plainRows, type ModelRow, type PlainRows } from '../../src/server/routes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - match: { contains: "parcel" }
    reply: { text: "Your parcel left the depot this morning." }
  - match: { contains: "whole manual" }
    reply:
      tool_calls:
${Array.from({ length: 12 }, (_, page) => `        - { name: print_page, arguments: { page: ${page}, text: "${'Read the label. '.repeat(6_000)}" } }`).join('\n')}
`;
const SCENARIOS = `
scenarios:
  - name: busy
    steps:
      - { error: rate_limit, headers: { retry-after: "1" } }
`;

let server: TestServer;
const lines: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES }, scenarioFiles: { 'busy.yaml': SCENARIOS }, logLevel: 'info', logger: (line) => lines.push(line) });
});
afterAll(() => server.close());

/** The header that sends a request Koa's way without changing its answer. */
const THROUGH_KOA = { 'content-encoding': 'identity' };
const PATHS = { plain: {}, koa: THROUGH_KOA } as const;

type Path = keyof typeof PATHS;

async function journaled(session: string): Promise<JournalEntry[]> {
  return ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: JournalEntry[] }).requests;
}

/** An entry without what differs between any two requests: ids, times, session, duration. */
function comparable(entry: JournalEntry): unknown {
  const { id: _id, time: _time, session: _session, duration_ms: _duration, response, ...rest } = entry;
  const sent = response as unknown as { headers: Record<string, string>; body: Record<string, unknown> } | null;
  return { ...rest, response: sent && { ...sent, headers: withoutIds(sent.headers), body: withoutIds(sent.body) } };
}

function withoutIds<T extends Record<string, unknown>>(record: T): Partial<T> {
  const { id: _id, created: _created, 'x-request-id': _request, 'request-id': _requestId, date: _date, ...rest } = record;
  return rest as Partial<T>;
}

/** The requests and tokens counted so far, by their labels. */
async function counted(): Promise<Map<string, number>> {
  const text = await (await server.admin('/metrics')).text();
  const counts = text.split('\n').filter((line) => /^mock_(requests|tokens)_total\{/.test(line));
  return new Map(counts.map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]));
}

/** What a request added to each count. */
function added(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...after].filter(([labels, count]) => count !== (before.get(labels) ?? 0)).map(([labels, count]) => [labels, count - (before.get(labels) ?? 0)]));
}

/** The log lines of the model API since line `before`, their time and duration left out. */
function logLineOf(before: number): string[] {
  return lines.slice(before).flatMap((line) => (line.includes(' POST /v1/') ? [line.replace(/^\S+ /, '').replace(/ \d+ms$/, '')] : []));
}

interface Sent {
  status: number;
  headers: Partial<Record<string, string>>;
  body: unknown;
  entry: unknown;
  metrics: Record<string, number>;
  log: string[];
}

/** `body` sent once, by the path asked, in a session of its own; what a client and the oracle saw of it. */
async function send(path: Path, session: string, body: string, headers: Record<string, string> = {}): Promise<Sent> {
  const metricsBefore = await counted();
  const linesBefore = lines.length;
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k', 'x-mock-session': session, ...headers, ...PATHS[path] },
    body,
  });
  const text = await response.text();
  const [entry, ...more] = await journaled(session);
  expect(more).toEqual([]);
  const metricsAfter = await counted();
  return sameIds({
    status: response.status,
    headers: withoutIds(Object.fromEntries(response.headers)),
    body: withoutIds(JSON.parse(text) as Record<string, unknown>),
    entry: comparable(entry!),
    metrics: added(metricsBefore, metricsAfter),
    log: logLineOf(linesBefore),
  });
}

/** A tool call's id is drawn from its session too. */
function sameIds(sent: Sent): Sent {
  return JSON.parse(JSON.stringify(sent).replace(/call_[0-9a-f]+/g, 'call_')) as Sent;
}

const ask = (content: string, model = 'gpt-4o-mini') => JSON.stringify({ model, messages: [{ role: 'user', content }] });

describe('a plain chat request and the same request through Koa', () => {
  const cases: [string, string, Record<string, string>?][] = [
    ['a fixture hit', ask('Where is my parcel?')],
    // Over 1 MB: written a piece at a time (server/text-body.ts).
    ['a long answer', ask('Send me the whole manual.')],
    ['invalid JSON', '{"model": "gpt-4o-mini", "messages": ['],
    ['a missing field', JSON.stringify({ model: 'gpt-4o-mini' })],
    ['an unknown model', ask('Where is my parcel?', 'gpt-nonesuch')],
    ["a scenario step's error", ask('Where is my parcel?'), { 'x-mock-scenario': 'busy' }],
  ];
  for (const [name, body, headers] of cases) {
    it(`give the same answer, entry, metrics and log line for ${name}`, async () => {
      const slug = name.replace(/\W+/g, '-');
      const plain = await send('plain', `plain-${slug}`, body, headers);
      const koa = await send('koa', `koa-${slug}`, body, headers);
      expect(plain).toEqual(koa);
      expect(plain.log).toHaveLength(1);
      expect(Object.keys(plain.metrics).length).toBeGreaterThan(0);
    });
  }

  it('give the same answer to the OpenAI SDK, whole and streamed', async () => {
    const client = (path: Path, session: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0, defaultHeaders: { 'x-mock-session': session, ...PATHS[path] } });
    const messages = [{ role: 'user' as const, content: 'Where is my parcel?' }];
    const whole = async (path: Path) => {
      const { id: _id, created: _created, ...rest } = await client(path, `sdk-${path}`).chat.completions.create({ model: 'gpt-4o-mini', messages });
      return { answer: rest, entry: comparable((await journaled(`sdk-${path}`))[0]!) };
    };
    expect(await whole('plain')).toEqual(await whole('koa'));
    const streamed = async (path: Path) => {
      const pieces: string[] = [];
      for await (const chunk of await client(path, `sdk-stream-${path}`).chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true })) {
        pieces.push(chunk.choices[0]?.delta.content ?? '');
      }
      const [entry] = await journaled(`sdk-stream-${path}`);
      return { pieces, status: entry!.status, events: (entry!.response as unknown as { events: unknown[] }).events.length };
    };
    const plain = await streamed('plain');
    expect(plain).toEqual(await streamed('koa'));
    expect(plain.pieces.join('')).toBe('Your parcel left the depot this morning.');
  });

  it('refuse an oversized session id alike', async () => {
    const long = 'x'.repeat(300);
    const answers = await Promise.all(
      (['plain', 'koa'] as const).map(async (path) => {
        const response = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-mock-session': long, ...PATHS[path] }, body: ask('parcel') });
        return { status: response.status, body: await response.json() };
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.status).toBe(400);
  });
});

describe('which requests are plain', () => {
  const row = { bodyLimit: 1000 } as ModelRow;
  const rows: PlainRows = new Map([['/v1/chat/completions', row]]);
  const mock = { options: {} } as Mock;
  const request = (change: { method?: string; url?: string; httpVersionMajor?: number; headers?: Record<string, string | undefined> } = {}) => ({
    method: 'POST',
    url: '/v1/chat/completions',
    httpVersionMajor: 1,
    ...change,
    headers: { host: '127.0.0.1:1234', 'content-type': 'application/json', 'content-length': '120', ...change.headers },
  });

  it('takes a small JSON POST to a chat door, as the SDKs send one', () => {
    expect(plainRow(mock, rows, request())).toEqual({ row, host: '127.0.0.1:1234' });
    expect(plainRow(mock, rows, request({ headers: { 'content-type': 'application/json; charset=utf-8', 'x-mock-session': 'a' } }))?.row).toBe(row);
  });

  it("are the chat doors' paths of the mock's own route table, so the comparisons above go both ways", () => {
    const plain = plainRows({ options: { bodyLimitBytes: 1_000_000 } } as Mock);
    expect([...plain.keys()]).toEqual(expect.arrayContaining(['/v1/chat/completions', '/v1/responses', '/v1/messages']));
    // A path with a parameter (generate-content's model) and a door that is not chat stay Koa's.
    expect([...plain.keys()].some((path) => path.includes(':') || path === '/v1/embeddings')).toBe(false);
    expect(plainRow(mock, plain, request())?.row.route.path).toBe('/v1/chat/completions');
  });

  it('leaves everything else to Koa', () => {
    const others = [
      request({ url: '/v1/chat/completions?x=1' }),
      request({ url: '/v1/embeddings' }),
      request({ method: 'OPTIONS' }),
      request({ httpVersionMajor: 2 }),
      request({ headers: { 'content-encoding': 'gzip' } }),
      request({ headers: { 'content-length': undefined, 'transfer-encoding': 'chunked' } }),
      request({ headers: { 'content-length': '1001' } }),
      request({ headers: { 'content-type': 'multipart/form-data; boundary=x' } }),
      request({ headers: { host: 'a,b' } }),
      request({ headers: { 'x-mock-session': 'x'.repeat(300) } }),
    ];
    for (const other of others) expect(plainRow(mock, rows, other)).toBeUndefined();
    expect(plainRow({ options: { upstream: {} } } as Mock, rows, request())).toBeUndefined();
  });
});
