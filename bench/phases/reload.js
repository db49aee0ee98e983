// Hot reload as a user sees it: from writing a fixture file to the first request answered by the
// new version. The poller sends real requests (the reload counter would say nothing about when
// the answer changes), one every POLL_MS, each write bounded by GIVE_UP_MS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { postChat } from '../lib/client.js';
import { startMock } from '../lib/servers.js';
import { median, percentile } from '../lib/stats.js';
import { emptyScenarios, reloadFixture, reloadRequest, writeFixtures } from '../lib/workload.js';

const POLL_MS = 2;
const GIVE_UP_MS = 3000;
/** A person saves a file at most every few hundred ms; the gap also lets each reload finish. */
const BETWEEN_WRITES_MS = 150;

async function firstAnswerWith(url, expected) {
  const body = reloadRequest();
  const started = performance.now();
  while (performance.now() - started < GIVE_UP_MS) {
    const reply = await postChat(url, body);
    if (reply.text.includes(expected)) return performance.now();
    await sleep(POLL_MS);
  }
  return undefined;
}

/** @param settings `{ writes, fixtures }`: how many saves, and how many fixtures the directory holds */
export async function reload(root, settings) {
  const dir = join(root, `fixtures-reload-${settings.fixtures}`);
  writeFixtures(dir, settings.fixtures);
  const file = join(dir, 'reload.yaml');
  writeFileSync(file, reloadFixture(0));
  const mock = await startMock({ fixtures: dir, scenarios: emptyScenarios(root) });
  const samples = [];
  let missed = 0;
  let server;
  try {
    // The first request's one-time costs (modules and tables loaded on first use, code not yet
    // optimized) are not a reload's: one answered request before the measuring starts.
    await postChat(mock.url, reloadRequest());
    // The longest the mock's event loop stood still over all the saves: every stream in flight
    // stalls as long.
    await mock.reset();
    for (let version = 1; version <= settings.writes; version++) {
      await sleep(BETWEEN_WRITES_MS);
      const written = performance.now();
      writeFileSync(file, reloadFixture(version));
      const seen = await firstAnswerWith(mock.url, `reload version ${version}"`);
      if (seen === undefined) missed++;
      else samples.push(seen - written);
    }
    // A reload may go on after its answer shows: the stall it causes counts too.
    await sleep(BETWEEN_WRITES_MS);
    server = await mock.stats();
  } finally {
    await mock.stop();
  }
  return {
    fixtures: settings.fixtures,
    writes: settings.writes,
    missed,
    p50Ms: median(samples),
    p90Ms: percentile(samples, 90),
    maxMs: Math.max(...samples),
    lagMaxMs: server.lagMaxMs,
    samples,
  };
}
