// Streams: many concurrent paced streams held to completion, on the mock, on aimock paced as
// alike as its settings allow, and on a bare node:http server pacing the mock's very bytes, in
// alternating rounds, with each server's own event-loop lag and RSS and each client's time to
// the response headers and to the end; the same streams all asked in one instant (mock and
// bare); then the mock's unpaced streams as fast as they go, in events per second.
import { join } from 'node:path';
import { sampleReply, streamedText } from '../lib/client.js';
import { measure } from '../lib/load.js';
import { serverLog, startBareSse, startMock, startPeer } from '../lib/servers.js';
import { waitingPercent } from '../lib/stats.js';
import { emptyScenarios, STREAM_TEXT, streamRequest, writeAimockPacedFixture, writeFixtures } from '../lib/workload.js';

const REALISTIC = { 'x-mock-latency': 'realistic' };
const DONE = 'data: [DONE]';

function frames(sse) {
  return sse.split('\n\n').filter((frame) => frame.startsWith('data: '));
}

/** What the open streams of a run added to what the server held as they began. */
function kbPerOpenStream(run) {
  return ((run.server.peakRssMb - run.server.rssAtStartMb) * 1024) / run.completed;
}

/** A stream of exactly STREAM_TEXT, or the bench would compare different work. */
async function checkedStream(url, body, headers) {
  const sse = await sampleReply(url, body, DONE, headers);
  if (streamedText(sse) !== STREAM_TEXT) throw new Error(`expected ${url} to stream the shared text, got: ${sse.slice(0, 300)}`);
  return sse;
}

/**
 * One run on a freshly started server, so that its peak RSS is this run's and not what earlier
 * runs left; the server first streams once, paced, so what its first paced answer loads is not
 * counted.
 */
async function onFresh(start, body, run) {
  const server = await start();
  try {
    await checkedStream(server.url, body, REALISTIC);
    return await run(server);
  } finally {
    await server.stop();
  }
}

/**
 * Timings: the least of the rounds (other load only adds); memory, the wait for a core and the
 * waves let go on their own: the most.
 */
function summary(runs) {
  const least = (figure) => Math.min(...runs.map(figure));
  return {
    latencyP99Ms: least((run) => run.latencyP99Ms),
    headersP99Ms: least((run) => run.headersP99Ms),
    firstTokenP50Ms: least((run) => run.firstTokenP50Ms),
    firstTokenP99Ms: least((run) => run.firstTokenP99Ms),
    lagP99Ms: least((run) => run.server.lagP99Ms),
    cpuUsPerRequest: least((run) => run.cpuUsPerRequest),
    peakRssMb: Math.max(...runs.map((run) => run.server.peakRssMb)),
    kbPerOpenStream: Math.max(...runs.map(kbPerOpenStream)),
    waitingPercent: Math.max(...runs.map((run) => waitingPercent(run.server))),
    wavesApart: Math.max(...runs.map((run) => run.wavesApart)),
    runs,
  };
}

/** @param settings `{ streams, rounds, warmup, duration, connections }` */
export async function streams(root, settings) {
  const fixtures = join(root, 'fixtures-streams');
  writeFixtures(fixtures, 10);
  const body = streamRequest();
  const mock = () => startMock({ fixtures, scenarios: emptyScenarios(root) });
  const sample = await onFresh(mock, body, (server) => checkedStream(server.url, body));
  const eventsPerStream = frames(sample).length;
  // The content chunks are the events the writer paces (not the role chunk, finish, [DONE]).
  const pacedEvents = frames(sample).filter((frame) => frame.includes('"delta":{"content":')).length;
  const { REALISTIC: pacing } = await import('../../dist/exchange/pacing.js');
  // aimock pauses before every chunk it sends (its role chunk first, its finish chunk last),
  // `ttft` before the first and 1000 / `tps` ms before each other: the same pauses as the mock's,
  // and pieces of the text's length / the mock's token count, so as many pauses as near as whole
  // characters allow.
  const aimockFixture = writeAimockPacedFixture(join(root, 'aimock-paced'), {
    chunkSize: Math.round(STREAM_TEXT.length / pacedEvents),
    ttftMs: pacing.firstChunkMs,
    chunkMs: pacing.chunkMs,
  });
  const aimock = () => startPeer('aimock', aimockFixture, serverLog(root));
  const aimockSample = await onFresh(aimock, body, (server) => checkedStream(server.url, body));
  const aimockChunks = frames(aimockSample).filter((frame) => frame !== DONE).length;
  const contenders = { mock, aimock, bare: () => startBareSse(sample, pacing) };

  // Each stream paced like a hosted model: a pause before the first token, then one every few
  // tens of ms. Opened in 10 waves over half a second, all are open together for over a second.
  const waves = { streams: settings.streams, waves: 10, gapMs: 50, headers: REALISTIC };
  const runs = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let round = 0; round < settings.rounds; round++) {
    for (const [name, start] of Object.entries(contenders)) runs[name].push(await onFresh(start, body, (server) => measure(server, body, waves)));
  }
  // All requested in the same instant: mostly the time to answer 1,000 requests at once.
  const atOnce = { ...waves, waves: 1 };
  const burst = {
    mock: await onFresh(mock, body, (server) => measure(server, body, atOnce)),
    bare: await onFresh(contenders.bare, body, (server) => measure(server, body, atOnce)),
  };
  const unpaced = await onFresh(mock, body, (server) =>
    measure(server, body, { connections: settings.connections, duration: settings.duration, warmup: settings.warmup }),
  );
  return {
    streams: settings.streams,
    eventsPerStream,
    idealPacedMs: pacing.firstChunkMs + (pacedEvents - 1) * pacing.chunkMs,
    idealFirstTokenMs: pacing.firstChunkMs,
    aimockPacing: { chunks: aimockChunks, idealMs: pacing.firstChunkMs + (aimockChunks - 1) * pacing.chunkMs },
    ...Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, summary(list)])),
    burst,
    unpaced: { ...unpaced, eventsPerSecond: unpaced.requestsPerSecond * eventsPerStream },
  };
}
