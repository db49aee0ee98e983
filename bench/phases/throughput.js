// Non-stream chat completions on a fixture hit: the mock with 10 fixtures, the mock with 10,000,
// a bare node:http server answering the very bytes the mock answered, and the mock's framework
// alone (Koa, router, body parser) answering them too. Rounds alternate the targets so that a
// burst of other load on the machine hits all of them alike.
import { join } from 'node:path';
import { sampleReply } from '../lib/client.js';
import { measure } from '../lib/load.js';
import { startBare, startKoa, startMock } from '../lib/servers.js';
import { best } from '../lib/stats.js';
import { ticketRef, ticketRequest, ticketRequests, writeFixtures } from '../lib/workload.js';

const SMALL = 10;
const LARGE = 10_000;

async function mockWith(root, count) {
  const fixtures = join(root, `fixtures-${count}`);
  writeFixtures(fixtures, count);
  const started = performance.now();
  const server = await startMock({ fixtures, scenarios: join(root, 'no-scenarios') });
  // The hit is the last ticket: matched by `contains`, and last of all fixtures in file order.
  const body = ticketRequests(count - 1);
  const reply = await sampleReply(server.url, ticketRequest(count - 1), `Ticket ${ticketRef(count - 1)} is logged`);
  return { server, body, reply, startMs: performance.now() - started };
}

/** @param settings `{ rounds, warmup, duration, connections }` */
export async function throughput(root, settings) {
  const small = await mockWith(root, SMALL);
  const large = await mockWith(root, LARGE);
  const bare = { server: await startBare(small.reply), body: small.body };
  const koa = { server: await startKoa(small.reply), body: small.body };
  const targets = { bare, koa, small, large };
  const runs = { bare: [], koa: [], small: [], large: [] };
  const { rounds, ...load } = settings;
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [name, target] of Object.entries(targets)) runs[name].push(await measure(target.server, target.body, load));
    }
  } finally {
    await Promise.all(Object.values(targets).map((target) => target.server.stop()));
  }
  return {
    replyBytes: Buffer.byteLength(small.reply),
    largeStartMs: large.startMs,
    bare: best(runs.bare, 'requestsPerSecond'),
    koa: best(runs.koa, 'requestsPerSecond'),
    small: best(runs.small, 'requestsPerSecond'),
    large: best(runs.large, 'requestsPerSecond'),
    runs,
  };
}
