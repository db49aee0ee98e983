// Many large bodies at once (SPEC 11, "Time" and "Memory"): the mock works on a bounded share of
// them at a time and the others wait their turn, still in their sockets. Every client is answered,
// none refused; a client that leaves while its body waits holds nothing of the mock's.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_FLIGHT_BYTES } from '../../src/state/large-bodies.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': 'chat:\n  - name: large\n    match: { contains: "large question" }\n    reply: { text: "A large answer." }\n' } });
});
afterAll(() => server.close());

const KB = 1024;
const MB = 1024 * KB;

/** Sends `parts` as one JSON body, each written on its own after the last, and reads the answer. */
function sendInParts(path: string, parts: Buffer[]): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const sending = request(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>));
    });
    sending.on('error', reject);
    const writeFrom = (index: number): void => {
      if (index === parts.length) return void sending.end();
      sending.write(parts[index], () => setImmediate(() => writeFrom(index + 1)));
    };
    writeFrom(0);
  });
}

describe('a JSON body decoded as it comes', () => {
  it('reads characters split across chunks, and a byte order mark, as the whole body would be read', async () => {
    const input = `${'x'.repeat(40 * KB)} caf\u00e9 \u{1F4E6} \u4E2D`;
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const whole = await client.embeddings.create({ model: 'text-embedding-3-small', input, encoding_format: 'base64' });
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ model: 'text-embedding-3-small', input, encoding_format: 'base64' }))]);
    // Cut inside the byte order mark, inside the two-byte é, inside the four-byte parcel emoji.
    const cuts = [1, body.indexOf('caf') + 4, body.indexOf(0xf0) + 2, body.length];
    const parts = cuts.map((cut, i) => body.subarray(i === 0 ? 0 : cuts[i - 1], cut));
    const answer = await sendInParts('/v1/embeddings', parts);
    expect(answer.data[0].embedding).toBe(whole.data[0]!.embedding);
    expect(answer.usage).toEqual(whole.usage);
  });
});

describe('many large bodies at once', () => {
  it('answers each of 80 SDK clients sending 300 KB together, more than the mock works on at once', async () => {
    const clients = 80;
    expect(clients * 300 * KB).toBeGreaterThan(IN_FLIGHT_BYTES);
    const answers = await Promise.all(
      Array.from({ length: clients }, (_, i) =>
        new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'large' } }).chat.completions.create({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: `large question ${i} ${'x'.repeat(300 * KB)}` }],
        }),
      ),
    );
    expect(answers.map((answer) => answer.choices[0]!.message.content)).toEqual(Array(clients).fill('A large answer.'));
  });

  it("keeps a chat request's large body waiting, unread, while the bodies before it fill the mock's share", async () => {
    // One body of the whole share, half sent: it is read as it comes, and holds the share meanwhile.
    const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nauthorization: Bearer sk-test\r\ncontent-length: ${IN_FLIGHT_BYTES}\r\n\r\n`;
    const { port } = new URL(server.url);
    const holding = connect(Number(port), '127.0.0.1');
    holding.on('error', () => {});
    await new Promise<void>((done) => holding.write(`${head}{"model": "gpt-4o-mini", "padding": "`, () => done()));
    expect((await server.admin('/health')).status).toBe(200);

    // 200 KB more does not fit: it waits, though every byte of it is in its socket.
    let waited: Response | undefined;
    const waiting = fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `large question ${'w'.repeat(200 * KB)}` }] }),
    }).then((response) => (waited = response));
    try {
      // Twenty answers one after another: read at once, 200 KB would have been answered long before.
      for (let i = 0; i < 20; i += 1) expect((await server.admin('/health')).status).toBe(200);
      expect(waited).toBeUndefined();
    } finally {
      holding.destroy();
    }
    expect((await waiting).status).toBe(200);
  });

  it('forgets the bodies of clients that left while they were read or waited', async () => {
    // Each announces more than half of what the mock works on at once: one is read, the others wait.
    const announced = IN_FLIGHT_BYTES / 2 + MB;
    const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nauthorization: Bearer sk-test\r\ncontent-length: ${announced}\r\n\r\n`;
    const { port } = new URL(server.url);
    const leaving: Socket[] = [];
    for (let i = 0; i < 3; i += 1) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => {});
      await new Promise<void>((done) => socket.write(`${head}{"model": "gpt-4o-mini", "padding": "`, () => done()));
      leaving.push(socket);
    }
    // Once a request sent after them is answered, the mock has seen them come.
    expect((await server.admin('/health')).status).toBe(200);
    for (const socket of leaving) socket.destroy();

    // Two whole bodies of that size: were a left body still held, the second would wait for ever.
    const whole = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'large question' }], padding: 'p'.repeat(announced - 200) });
    const statuses = await Promise.all(
      [0, 1].map(async () => {
        const response = await fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
          body: whole,
          signal: AbortSignal.timeout(20_000),
        });
        await response.text();
        return response.status;
      }),
    );
    expect(statuses).toEqual([200, 200]);
  });
});
