// Non-stream chat completions on a fixture hit: the mock with 10 fixtures at its CLI's default log
// level and with logging off, the mock with 10,000, the peers (aimock, mock-llm) with the same
// tickets, a bare node:http server answering the very bytes the mock answered, and the mock's
// framework alone (Koa, router, body parser) answering them too. Rounds alternate the targets so
// that a burst of other load on the machine hits all of them alike.
import { join } from 'node:path';
import { sampleReply } from '../lib/client.js';
import { measure } from '../lib/load.js';
import { serverLog, startBare, startKoa, startMock, startPeer } from '../lib/servers.js';
import { best } from '../lib/stats.js';
import { emptyScenarios, PEER_FIXTURES, ticketReply, ticketRequest, ticketRequests, writeFixtures } from '../lib/workload.js';

const SMALL = 10;
const LARGE = 10_000;

/** A started server, checked to answer the ticket that is last of `count`. */
async function target(server, count) {
  // The hit is the last ticket: matched by `contains`, and last of all fixtures in file order.
  const reply = await sampleReply(server.url, ticketRequest(count - 1), ticketReply(count - 1));
  return { server, body: ticketRequests(count - 1), reply };
}

/** @param settings `{ rounds, warmup, duration, connections }` */
export async function throughput(root, settings) {
  const log = serverLog(root);
  // Each directory is written once, before any mock watches it: a rewrite would reload a mock.
  for (const count of [SMALL, LARGE]) writeFixtures(join(root, `fixtures-${count}`), count);
  const mockWith = (count, logLevel) => startMock({ fixtures: join(root, `fixtures-${count}`), scenarios: emptyScenarios(root), logLevel }, log);
  const targets = {};
  try {
    targets.quiet = await target(await mockWith(SMALL, 'silent'), SMALL);
    targets.logging = await target(await mockWith(SMALL, 'info'), SMALL);
    targets.large = await target(await mockWith(LARGE, 'silent'), LARGE);
    targets.aimock = await target(await startPeer('aimock', PEER_FIXTURES.aimock, log), SMALL);
    targets.mockLlm = await target(await startPeer('mock-llm', PEER_FIXTURES.mockLlm, log), SMALL);
    targets.bare = { server: await startBare(targets.quiet.reply), body: targets.quiet.body };
    targets.koa = { server: await startKoa(targets.quiet.reply), body: targets.quiet.body };
    const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
    const { rounds, ...load } = settings;
    for (let round = 0; round < rounds; round++) {
      for (const [name, { server, body }] of Object.entries(targets)) runs[name].push(await measure(server, body, load));
    }
    return {
      replyBytes: Buffer.byteLength(targets.quiet.reply),
      connections: settings.connections,
      ...Object.fromEntries(Object.keys(runs).map((name) => [name, best(runs[name], 'requestsPerSecond')])),
      runs,
    };
  } finally {
    await Promise.all(Object.values(targets).map(({ server }) => server.stop()));
  }
}
