// Many streams asked at once, each on its own connection, timed until the last one ends.
// autocannon would not do: it checks whether a fixed number of requests is done once a second.
import { request } from 'node:http';
import { CHAT_PATH, HEADERS } from './workload.js';

const GIVE_UP_MS = 60_000;

function oneStream(url, body, started) {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${CHAT_PATH}`, { method: 'POST', headers: HEADERS, agent: false, timeout: GIVE_UP_MS }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`a stream from ${url} answered ${res.statusCode}`));
        else resolve({ endedMs: performance.now() - started, bytes });
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
  const streams = await Promise.all(Array.from({ length: count }, () => oneStream(url, body, started)));
  const ended = streams.map((stream) => stream.endedMs).sort((a, b) => a - b);
  return { wallMs: ended[ended.length - 1], p50Ms: ended[Math.floor(ended.length / 2)], bytesPerStream: streams[0].bytes };
}
