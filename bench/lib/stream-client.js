// Many streams, each on its own connection, with the time each took to its response headers and
// to its end, as its client saw them. autocannon would not do: it checks whether a fixed number
// of requests is done once a second, and does not time headers.
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile } from './stats.js';
import { CHAT_PATH, HEADERS } from './workload.js';

const GIVE_UP_MS = 60_000;
const CONTENT = Buffer.from('"delta":{"content":');

/** One request; resolves with `performance.now()` as it was sent, as its headers came and as it ended. */
function oneStream(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const sentMs = performance.now();
    const req = request(`${url}${CHAT_PATH}`, { method: 'POST', headers: { ...HEADERS, ...headers }, agent: false, timeout: GIVE_UP_MS }, (res) => {
      const headersMs = performance.now();
      let bytes = 0;
      // The first content chunk's arrival: the stream's time to first token, as a load test reads it.
      let firstContentMs;
      res.on('data', (chunk) => {
        bytes += chunk.length;
        if (firstContentMs === undefined && chunk.includes(CONTENT)) firstContentMs = performance.now();
      });
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`a stream from ${url} answered ${res.statusCode}`));
        else resolve({ sentMs, headersMs, firstContentMs, endedMs: performance.now(), bytes });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`a stream from ${url} took over ${GIVE_UP_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `count` requests sent together; any error or non-200 fails the run.
 * @returns `{ wallMs, p50Ms, bytesPerStream }`: until the last stream ended, and the median one
 */
export async function streamsAtOnce(url, body, count) {
  const started = performance.now();
  const streams = await Promise.all(Array.from({ length: count }, () => oneStream(url, body)));
  const ended = streams.map((stream) => stream.endedMs - started).sort((a, b) => a - b);
  return { wallMs: ended[ended.length - 1], p50Ms: ended[Math.floor(ended.length / 2)], bytesPerStream: streams[0].bytes };
}

/**
 * `streams` requests opened in `waves` equal groups `gapMs` apart, as clients of a real service
 * arrive (one wave: all in the same instant), held to their end; any error or non-200 fails the run.
 * Percentiles are over every stream: `latency*` from sending to the end, `headers*` from sending
 * to the response headers.
 */
export async function streamsInWaves(url, body, { streams, waves, gapMs = 0, headers }) {
  const size = Math.ceil(streams / waves);
  const started = performance.now();
  const all = (
    await Promise.all(
      Array.from({ length: waves }, async (_, wave) => {
        await sleep(wave * gapMs);
        return Promise.all(Array.from({ length: size }, () => oneStream(url, body, headers)));
      }),
    )
  ).flat();
  const durationS = (performance.now() - started) / 1000;
  const toEnd = all.map((stream) => stream.endedMs - stream.sentMs);
  const toHeaders = all.map((stream) => stream.headersMs - stream.sentMs);
  const toContent = all.filter((stream) => stream.firstContentMs !== undefined).map((stream) => stream.firstContentMs - stream.sentMs);
  return {
    requestsPerSecond: all.length / durationS,
    completed: all.length,
    latencyP50Ms: percentile(toEnd, 50),
    latencyP99Ms: percentile(toEnd, 99),
    latencyMaxMs: Math.max(...toEnd),
    headersP50Ms: percentile(toHeaders, 50),
    headersP99Ms: percentile(toHeaders, 99),
    headersMaxMs: Math.max(...toHeaders),
    ...(toContent.length === all.length && { firstTokenP50Ms: percentile(toContent, 50), firstTokenP90Ms: percentile(toContent, 90), firstTokenP99Ms: percentile(toContent, 99) }),
    bytesPerSecond: all.reduce((sum, stream) => sum + stream.bytes, 0) / durationS,
    durationS,
  };
}
