// A forwarded answer streams through the mock: a large one is never held whole (without --record,
// only what the journal's 1 MB entry shows is kept), and the journal says where it was cut.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const LARGE = 128 * 1024 * 1024;
const SLICE = Buffer.alloc(1024 * 1024, 'a');

let upstream: FakeUpstream;
let mock: TestServer;

beforeAll(async () => {
  upstream = await startFakeUpstream((req, res) => {
    if (req.path.startsWith('/v1/videos/')) {
      // A large JSON answer, written as fast as the mock takes it.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(LARGE + 12) });
      res.write('{"padding":"');
      let left = LARGE / SLICE.length;
      const more = () => {
        while (left > 0) {
          left--;
          if (!res.write(SLICE)) return void res.once('drain', more);
        }
        res.end('"}');
      };
      more();
      return;
    }
    // A chat stream of 3 MB in 3,000 chunks.
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const piece = 'x'.repeat(1000);
    for (let i = 0; i < 3000; i++) {
      res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  });
  mock = await startTestServer({ upstream: upstream.url });
});
afterAll(async () => {
  await mock.close();
  await upstream.close();
});

async function lastEntry(): Promise<{ response: { status: number; body?: unknown; events?: unknown[]; truncated?: boolean } }> {
  const { requests } = (await (await mock.admin('/requests')).json()) as { requests: Array<{ response: never }> };
  return requests.at(-1)!;
}

describe('a forwarded answer', () => {
  it('of 128 MB is streamed through, never held whole, and journaled by type and size', async () => {
    const held = () => process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;
    const before = held();
    let peak = before;
    const response = await fetch(`${mock.url}/v1/videos/video_1`, { headers: { authorization: 'Bearer sk-client' } });
    expect(response.headers.get('x-mock-source')).toBe('upstream');
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      peak = Math.max(peak, held());
    }
    expect(size).toBe(LARGE + 12);
    // Held whole, the answer alone would add 128 MB; what passes through is freed as it goes.
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
    await expect.poll(async () => (await lastEntry()).response).toEqual({
      status: 200,
      headers: expect.any(Object),
      body: { type: 'application/json', size: LARGE + 12 },
      truncated: true,
    });
  });

  it('as a stream reaches the SDK whole, and the journal keeps its first megabyte of events', async () => {
    const openai = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-client', maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'a long one' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toHaveLength(3_000_000);
    await expect.poll(async () => (await lastEntry()).response.truncated).toBe(true);
    const { response } = await lastEntry();
    expect(response.events!.length).toBeGreaterThan(500);
    expect(response.events!.length).toBeLessThan(1100);
    expect(JSON.stringify(response).length).toBeLessThan(1.2 * 1024 * 1024);
  });
});
