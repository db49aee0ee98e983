// Streams: many concurrent paced streams held to completion, with the mock's own event-loop lag
// and peak RSS, next to a bare node:http server pacing the same bytes; the same streams all asked
// in one instant; then unpaced streams as fast as they go, in events per second.
import { join } from 'node:path';
import { sampleReply } from '../lib/client.js';
import { measure } from '../lib/load.js';
import { startBareSse, startMock } from '../lib/servers.js';
import { emptyScenarios, streamRequest, writeFixtures } from '../lib/workload.js';

const REALISTIC = { 'x-mock-latency': 'realistic' };

function frames(sse) {
  return sse.split('\n\n').filter((frame) => frame.startsWith('data: '));
}

/** What the open streams of a run added to what the server held as they began. */
function kbPerOpenStream(run) {
  return ((run.server.peakRssMb - run.server.rssAtStartMb) * 1024) / run.completed;
}

/** One run on a fresh mock, so that peak RSS is this run's and not what earlier runs left. */
async function onFreshMock(fixtures, root, run) {
  const mock = await startMock({ fixtures, scenarios: emptyScenarios(root) });
  try {
    return await run(mock);
  } finally {
    await mock.stop();
  }
}

/** @param settings `{ streams, rounds, warmup, duration, connections }` */
export async function streams(root, settings) {
  const fixtures = join(root, 'fixtures-streams');
  writeFixtures(fixtures, 10);
  const body = streamRequest();
  const sample = await onFreshMock(fixtures, root, (mock) => sampleReply(mock.url, body, 'data: [DONE]'));
  const eventsPerStream = frames(sample).length;
  // The content chunks are the events the writer paces (not the role chunk, finish, [DONE]).
  const pacedEvents = frames(sample).filter((frame) => frame.includes('"delta":{"content":')).length;
  const { REALISTIC: pacing } = await import('../../dist/exchange/pacing.js');

  // Each stream paced like a hosted model: a pause before the first token, then one every few
  // tens of ms. Opened in 10 waves over half a second, all are open together for over a second.
  // Best of `rounds`: other load on the machine can only add lag.
  const rounds = [];
  for (let round = 0; round < settings.rounds; round++) {
    rounds.push(
      await onFreshMock(fixtures, root, async (mock) => {
        const run = await measure(mock, body, { streams: settings.streams, waves: 10, gapMs: 50, headers: REALISTIC });
        return { ...run, lagP99Ms: run.server.lagP99Ms };
      }),
    );
  }
  const paced = rounds.reduce((top, run) => (run.lagP99Ms < top.lagP99Ms ? run : top));
  // The same bytes paced by a bare node:http server: what any Node server pays per paced event.
  const bareServer = await startBareSse(sample, pacing);
  let bare;
  try {
    bare = await measure(bareServer, body, { streams: settings.streams, waves: 10, gapMs: 50, headers: REALISTIC });
  } finally {
    await bareServer.stop();
  }

  return onFreshMock(fixtures, root, async (mock) => {
    // All requested in the same instant: the lag is then mostly answering 1,000 requests at once.
    const burst = await measure(mock, body, { connections: settings.streams, amount: settings.streams, headers: REALISTIC });
    const unpaced = await measure(mock, body, { connections: settings.connections, duration: settings.duration, warmup: settings.warmup });
    return {
      eventsPerStream,
      idealPacedMs: pacing.firstChunkMs + (pacedEvents - 1) * pacing.chunkMs,
      paced: { ...paced, streams: settings.streams },
      bare: { ...bare, lagP99Ms: bare.server.lagP99Ms, kbPerOpenStream: kbPerOpenStream(bare) },
      peakRssMb: Math.max(...rounds.map((run) => run.server.peakRssMb)),
      kbPerOpenStream: Math.max(...rounds.map(kbPerOpenStream)),
      rounds,
      burst,
      unpaced: { ...unpaced, eventsPerSecond: unpaced.requestsPerSecond * eventsPerStream },
    };
  });
}
