// Forwarding: what `--upstream` adds to a stream. The same paced stream is read straight from a
// mock playing the gateway and through a second mock forwarding to it, in alternating rounds; the
// forwarder must add little to the first event and keep the upstream's gaps.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../lib/stats.js';
import { startMock } from '../lib/servers.js';
import { CHAT_PATH, HEADERS, MODEL, writeFixtures } from '../lib/workload.js';

const BODY = JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'stream-probe' }] });

/** ms from sending to the first SSE event, and the mean gap between events after it. */
async function readStream(url) {
  const started = performance.now();
  const response = await fetch(`${url}${CHAT_PATH}`, { method: 'POST', headers: { ...HEADERS, 'x-mock-latency': 'realistic' }, body: BODY });
  const times = [];
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    const events = decoder.decode(chunk, { stream: true }).split('\n\n').filter((frame) => frame.startsWith('data:')).length;
    for (let i = 0; i < events; i++) times.push(performance.now() - started);
  }
  const gaps = times.length > 1 ? (times[times.length - 1] - times[0]) / (times.length - 1) : 0;
  return { firstMs: times[0] ?? NaN, gapMs: gaps };
}

/** @param settings `{ rounds }` */
export async function relay(root, settings) {
  const fixtures = join(root, 'relay-fixtures');
  const empty = join(root, 'relay-empty');
  writeFixtures(fixtures, 1);
  mkdirSync(empty, { recursive: true });
  const upstream = await startMock({ fixtures, scenarios: empty, latency: 'realistic' });
  const forwarder = await startMock({ fixtures: empty, scenarios: empty, upstream: upstream.url });
  const direct = [];
  const forwarded = [];
  try {
    for (let round = 0; round < settings.rounds; round++) {
      direct.push(await readStream(upstream.url));
      forwarded.push(await readStream(forwarder.url));
    }
  } finally {
    await forwarder.stop();
    await upstream.stop();
  }
  const summary = (list) => ({ firstMs: median(list.map((r) => r.firstMs)), gapMs: median(list.map((r) => r.gapMs)) });
  return { direct: summary(direct), forwarded: summary(forwarded) };
}
