// The pacing clock shares the one thread with requests: when more paced events fall due than a
// slice of the loop holds (a saturated thread under a burst of streams), it wakes them a slice at
// a time, the loop's I/O polled in between, still in deadline order and none early. Each stand-in
// event below holds the thread for a millisecond, as a stream's event does on a thread that many
// streams keep busy; what is asserted is order, not time.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wakeAt } from '../../src/server/pacing-clock.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: {
      'chat.yaml':
        'chat:\n  - match: { contains: hello }\n    reply: { text: "Hello there." }\n' +
        '  - match: { contains: paced }\n    reply: { text: "One token at a time." }\n    stream: { first_chunk_ms: 50, chunk_ms: 1 }\n',
    },
  });
});
afterAll(() => server.close());

/** Holds the thread for `ms`, as an event's work does on a busy one. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Resolves once `count` sleepers, each waking `run` and then holding the thread, have all woken. */
function dueTogether(count: number, atMs: number, run: (index: number) => void): Promise<void> {
  return new Promise((done) => {
    let woken = 0;
    for (let index = 0; index < count; index++) {
      wakeAt(atMs, {
        due: () => {
          run(index);
          busy(1);
          if (++woken === count) done();
        },
      });
    }
  });
}

/** Reads a paced stream through the OpenAI SDK to its end, telling `onFirst` its first content as it comes. */
async function readPaced(client: OpenAI, onFirst: (token: string) => void): Promise<void> {
  const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'paced please' }] });
  let told = false;
  for await (const chunk of stream) {
    const content = chunk.choices[0]?.delta.content;
    if (told || !content) continue;
    told = true;
    onFirst(content);
  }
}

describe('the pacing clock in slices', () => {
  it('answers a request that comes while hundreds of events are due before it has woken them all', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const seen: string[] = [];
    let answer: Promise<unknown> | undefined;
    await dueTogether(400, performance.now() + 20, (index) => {
      seen.push('event');
      // The request is sent as the run of due events begins.
      if (index === 0) {
        answer = client.chat.completions
          .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] })
          .then((completion) => seen.push(`answer: ${completion.choices[0]!.message.content}`));
      }
    });
    await answer;
    const answeredAfter = seen.findIndex((entry) => entry.startsWith('answer'));
    expect(seen[answeredAfter]).toBe('answer: Hello there.');
    // Unbounded, the clock woke all 400 before the loop read the request.
    expect(answeredAfter).toBeLessThan(400);
  });

  it("sends a new stream's first token before a long run of other streams' due events", async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const seen: string[] = [];
    let read: Promise<void> | undefined;
    await dueTogether(400, performance.now() + 20, (index) => {
      seen.push('event');
      if (index === 0) read = readPaced(client, (token) => seen.push(`first token: ${token}`));
    });
    await read;
    const firstAfter = seen.findIndex((entry) => entry.startsWith('first token'));
    expect(seen[firstAfter]).toBe('first token: One');
    // In deadline order alone, the stream's first event, due after theirs, waited for all 400.
    expect(firstAfter).toBeLessThan(400);
  });

  it('wakes sleepers cut across slices in deadline order, none before its deadline', async () => {
    const start = performance.now();
    const woke: { deadline: number; at: number }[] = [];
    const deadlines = Array.from({ length: 60 }, (_, i) => start + 10 + ((i * 7) % 12) + (i % 3) / 3);
    await new Promise<void>((done) => {
      for (const deadline of deadlines) {
        wakeAt(deadline, {
          due: () => {
            woke.push({ deadline, at: performance.now() });
            busy(1);
            if (woke.length === deadlines.length) done();
          },
        });
      }
    });
    for (const { deadline, at } of woke) expect(at).toBeGreaterThanOrEqual(deadline);
    const order = woke.map(({ deadline }) => Math.ceil(deadline));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
