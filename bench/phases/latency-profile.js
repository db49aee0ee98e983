// Latency profiles: 1,000 paced streams of a model whose catalog entry carries a `latency:`
// profile, opened in 10 waves 50 ms apart and held together; each stream's time to its first
// content chunk as its client saw it, against the percentiles the profile configures. What the
// mock adds under the load shows as the measured figures above the configured ones. The floor:
// bare `node:http` sending the same stream with the profile's median as a fixed first pause, to
// the same client in the same waves: what the client, the kernel's accept queue and a bare
// server's timer add on this host, beside what the mock adds.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleReply } from '../lib/client.js';
import { measure } from '../lib/load.js';
import { startBareSse, startMock } from '../lib/servers.js';
import { emptyScenarios, MODEL, streamRequest, writeFixtures } from '../lib/workload.js';

/** The profile's spreads (ms): a log-normal first-token pause and per-token gap, as SPEC 5's `latency:`. */
export const PROFILE = { firstToken: { p50: 600, p99: 1500 }, token: { p50: 25, p99: 60 } };
const Z90 = 1.2815515655446004;
const Z99 = 2.3263478740408408;

/** A log-normal's 90th percentile from its median and 99th. */
function p90Of({ p50, p99 }) {
  return p50 * Math.exp((Math.log(p99 / p50) / Z99) * Z90);
}

/** @param settings `{ streams }` */
export async function latencyProfile(root, settings) {
  const fixtures = join(root, 'fixtures-latency');
  writeFixtures(fixtures, 10);
  const { firstToken, token } = PROFILE;
  writeFileSync(
    join(fixtures, 'models.yaml'),
    `models:\n  - id: ${MODEL}\n    latency:\n      first_token_ms: { p50: ${firstToken.p50}, p99: ${firstToken.p99} }\n      token_ms: { p50: ${token.p50}, p99: ${token.p99} }\n`,
  );
  const server = await startMock({ fixtures, scenarios: emptyScenarios(root) });
  const headers = { 'x-mock-latency': 'realistic' };
  const waves = { streams: settings.streams, waves: 10, gapMs: 50, headers };
  let sample;
  let run;
  try {
    // One paced stream first, as the streams phase does, so that what a first stream loads (the
    // tokenizer's table among it) is not counted in the first wave's time to first token.
    sample = await sampleReply(server.url, streamRequest(), 'data: [DONE]', headers);
    run = await measure(server, streamRequest(), waves);
  } finally {
    await server.stop();
  }
  const bare = await startBareSse(sample, { firstChunkMs: firstToken.p50, chunkMs: token.p50 });
  try {
    await sampleReply(bare.url, streamRequest(), 'data: [DONE]');
    const floor = await measure(bare, streamRequest(), waves);
    return {
      streams: settings.streams,
      configured: { p50Ms: firstToken.p50, p90Ms: p90Of(firstToken), p99Ms: firstToken.p99 },
      measured: { p50Ms: run.firstTokenP50Ms, p90Ms: run.firstTokenP90Ms, p99Ms: run.firstTokenP99Ms },
      headersP99Ms: run.headersP99Ms,
      // Which outcome the run got (lib/stream-client.js): runs with no wave let go on its own read
      // the TTFT p50 highest (docs/performance.md, round twenty-one).
      wavesApart: run.wavesApart,
      // The bench's own client late to send (its event loop carries the thousand streams): part of
      // every figure above that the mock never sees.
      clientConnectLateP50Ms: run.connectLateP50Ms,
      mainThread: run.server.mainThread,
      bare: { firstChunkMs: firstToken.p50, p50Ms: floor.firstTokenP50Ms, p99Ms: floor.firstTokenP99Ms, clientConnectLateP50Ms: floor.connectLateP50Ms },
    };
  } finally {
    await bare.stop();
  }
}
