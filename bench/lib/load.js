// The load generator: autocannon, in the bench's own process. Servers run in child processes, so
// on two cores the generator and the server under test each have one.
import { createHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { streamsInWaves } from './stream-client.js';
import { CHAT_PATH, HEADERS } from './workload.js';

/**
 * Fires requests at `url` and returns req/s, latency percentiles, counts and `wallMs` (from the
 * start to the end of the last answer: for `amount` requests on as many connections, the time
 * until all of them are done). Any error, timeout
 * or non-2xx answer fails the run: a figure built on errors would flatter the server.
 * @param bodies one body, or several that each connection sends in turn (built once, so the
 *   load generator spends no time making requests)
 * @param options `{ connections, duration }` (seconds) or `{ connections, amount }`, plus extra `headers`,
 *   the `path` (default: chat completions) and the `method` (default: POST; a GET sends no body)
 */
export async function fire(url, bodies, options) {
  const { headers = {}, path = CHAT_PATH, method = 'POST', ...rest } = options;
  const all = { ...HEADERS, ...headers };
  // autocannon's own latency histogram counts whole milliseconds, too coarse for a server that
  // answers in less than one: the response events carry the time to a fraction of a ms.
  const latencyUs = createHistogram();
  const started = performance.now();
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}${path}`,
        requests: [bodies].flat().map((body) => ({ method, path, headers: all, body })),
        timeout: 30,
        ...rest,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status < 300) latencyUs.record(Math.max(1, Math.round(ms * 1000)));
    });
  });
  const wallMs = performance.now() - started;
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0) {
    throw new Error(`${failed} of ${result.requests.sent} requests to ${url} failed (errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx})`);
  }
  return {
    requestsPerSecond: result.requests.total / result.duration,
    completed: result.requests.total,
    latencyP50Ms: latencyUs.percentile(50) / 1000,
    latencyP99Ms: latencyUs.percentile(99) / 1000,
    latencyMaxMs: latencyUs.max / 1000,
    bytesPerSecond: result.throughput.total / result.duration,
    durationS: result.duration,
    wallMs,
  };
}

/**
 * A warmup (JIT, connection pools), then a measured run with the server's own figures for just
 * that run: CPU time per request, event-loop lag, peak RSS (and the RSS as the run began).
 * @param server from servers.js; `options` as for `fire` (or for `streamsInWaves` when it has
 *   `waves`), plus `warmup` seconds
 */
export async function measure(server, body, options) {
  const { warmup = 0, ...rest } = options;
  if (warmup > 0) await fire(server.url, body, { connections: rest.connections, headers: rest.headers, path: rest.path, method: rest.method, duration: warmup });
  const { rssMb: rssAtStartMb } = await server.reset();
  const load = rest.waves ? await streamsInWaves(server.url, body, rest) : await fire(server.url, body, rest);
  const own = await server.stats();
  const perRequest = (ms) => (1000 * ms) / load.completed;
  return { ...load, server: { ...own, rssAtStartMb }, cpuUsPerRequest: perRequest(own.cpuMs), systemCpuUsPerRequest: perRequest(own.cpuSystemMs) };
}
