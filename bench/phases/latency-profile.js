// Latency profiles: 1,000 paced streams of a model whose catalog entry carries a `latency:`
// profile, opened in 10 waves 50 ms apart and held together; each stream's time to its first
// content chunk as its client saw it, against the percentiles the profile configures. What the
// mock adds under the load shows as the measured figures above the configured ones.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleReply } from '../lib/client.js';
import { measure } from '../lib/load.js';
import { startMock } from '../lib/servers.js';
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
  try {
    // One paced stream first, as the streams phase does, so that what a first stream loads (the
    // tokenizer's table among it) is not counted in the first wave's time to first token.
    await sampleReply(server.url, streamRequest(), 'data: [DONE]', headers);
    const run = await measure(server, streamRequest(), { streams: settings.streams, waves: 10, gapMs: 50, headers });
    return {
      streams: settings.streams,
      configured: { p50Ms: firstToken.p50, p90Ms: p90Of(firstToken), p99Ms: firstToken.p99 },
      measured: { p50Ms: run.firstTokenP50Ms, p90Ms: run.firstTokenP90Ms, p99Ms: run.firstTokenP99Ms },
      headersP99Ms: run.headersP99Ms,
      mainThread: run.server.mainThread,
    };
  } finally {
    await server.stop();
  }
}
