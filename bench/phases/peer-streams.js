// The stream workload shared with the peers: `streams` unpaced streams of the same ~1 KB text,
// all asked at once, one per connection, timed until the last one ends. Counted per stream, not
// per event: the mock sends a chunk per token, aimock one per 20 characters, mock-llm one per 50.
// Rounds alternate the contenders; the fastest round of each counts.
import { join } from 'node:path';
import { postChat, streamedText } from '../lib/client.js';
import { streamsAtOnce } from '../lib/stream-client.js';
import { serverLog, startMock, startPeer } from '../lib/servers.js';
import { emptyScenarios, LONG_STREAM_TEXT, longStreamRequest, PEER_FIXTURES, writeFixtures } from '../lib/workload.js';

/** A started server, checked to stream exactly the shared text, with the number of its events. */
async function contender(server) {
  const reply = await postChat(server.url, longStreamRequest());
  if (reply.status !== 200 || streamedText(reply.text) !== LONG_STREAM_TEXT) {
    throw new Error(`expected ${server.url} to stream the shared ~1 KB text, got ${reply.status}: ${reply.text.slice(0, 300)}`);
  }
  const eventsPerStream = reply.text.split('\n\n').filter((frame) => frame.startsWith('data: ')).length;
  return { server, eventsPerStream };
}

/** @param settings `{ streams, rounds }` */
export async function peerStreams(root, settings) {
  const fixtures = join(root, 'fixtures-peer-streams');
  writeFixtures(fixtures, 10);
  const log = serverLog(root);
  const mock = (logLevel) => startMock({ fixtures, scenarios: emptyScenarios(root), logLevel }, log);
  const contenders = {};
  try {
    contenders.logging = await contender(await mock('info'));
    contenders.quiet = await contender(await mock('silent'));
    contenders.aimock = await contender(await startPeer('aimock', PEER_FIXTURES.aimock, log));
    contenders.mockLlm = await contender(await startPeer('mock-llm', PEER_FIXTURES.mockLlm, log));
    const body = longStreamRequest();
    // One unmeasured batch each: JIT, and the sockets' first allocation.
    for (const { server } of Object.values(contenders)) await streamsAtOnce(server.url, body, settings.streams);
    const runs = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
    for (let round = 0; round < settings.rounds; round++) {
      for (const [name, { server }] of Object.entries(contenders)) {
        await server.reset();
        const run = await streamsAtOnce(server.url, body, settings.streams);
        runs[name].push({ ...run, server: await server.stats() });
      }
    }
    const fastest = (list) => list.reduce((top, run) => (run.wallMs < top.wallMs ? run : top));
    return {
      streams: settings.streams,
      textBytes: Buffer.byteLength(LONG_STREAM_TEXT),
      ...Object.fromEntries(
        Object.entries(runs).map(([name, list]) => {
          const run = fastest(list);
          return [name, { ...run, eventsPerStream: contenders[name].eventsPerStream, cpuMsPerStream: run.server.cpuMs / settings.streams }];
        }),
      ),
      runs,
    };
  } finally {
    await Promise.all(Object.values(contenders).map(({ server }) => server.stop()));
  }
}
