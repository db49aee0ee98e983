// The hostile soak's socket cases, each in its own function: an /__admin/events watcher that stops
// reading while 1 MB requests are journaled, a 300 MB answer relayed from an upstream, and many
// sessions sending 300 KB bodies over keep-alive. The server reports its longest event-loop stall
// and its peak RSS over all of them; the bench counts the connections that failed.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { startMock } from '../lib/servers.js';
import { CHAT_PATH, emptyScenarios, HEADERS, MODEL, writeFixtures } from '../lib/workload.js';

const chat = (content, extra = {}) => JSON.stringify({ model: MODEL, messages: [{ role: 'user', content }], ...extra });

/** What the upstream answers a chat request: small, so the steps weigh the mock's side of the socket. */
const UPSTREAM_CHAT = JSON.stringify({
  id: 'chatcmpl-upstream',
  object: 'chat.completion',
  created: 0,
  model: MODEL,
  choices: [{ index: 0, message: { role: 'assistant', content: 'From the upstream.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 },
});

/**
 * An upstream in the bench process: a video's "content" of `mb` megabytes, sent as fast as it is
 * taken, and a small completion for every other request (the forwarded chats of the other steps).
 */
async function startUpstream(mb) {
  const slice = Buffer.alloc(1024 * 1024, 'v');
  const server = createServer((req, res) => {
    req.resume();
    if (!req.url.startsWith('/v1/videos/')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(UPSTREAM_CHAT);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(mb * slice.length + 14) });
    res.write('{"padding": "');
    let left = mb;
    const more = () => {
      while (left > 0) {
        left -= 1;
        if (!res.write(slice)) return void res.once('drain', more);
      }
      res.end('"}');
    };
    more();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((done) => server.close(done)) };
}

/** A watcher that opens the event stream and never reads; resolves once the mock dropped it (or not, within `waitMs`). */
async function stalledWatcher(url, requests, waitMs) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.write('GET /__admin/events HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
  await once(socket, 'data');
  socket.pause();
  // Just under the 1 MB a journal entry keeps of a body, so each entry (and event) is about 1 MB.
  const padding = 'j'.repeat(1000 * 1024);
  for (let i = 0; i < requests; i += 1) {
    const response = await fetch(`${url}${CHAT_PATH}`, { method: 'POST', headers: { ...HEADERS, 'x-mock-session': `watched-${i % 8}` }, body: chat(`entry ${i}`, { padding }) });
    await response.text();
  }
  // Reading again: a dropped watcher gets what was on its way, then the end.
  socket.resume();
  const closed = once(socket, 'close').then(() => true);
  const dropped = await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve(false), waitMs))]);
  socket.destroy();
  return dropped;
}

/** A large forwarded answer read to its end; answers the megabytes per second it came at. */
async function largeRelay(url, mb) {
  const started = performance.now();
  const response = await fetch(`${url}/v1/videos/video_large`, { headers: HEADERS });
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  if (bytes < mb * 1024 * 1024) throw new Error(`the relayed answer ended at ${bytes} bytes`);
  return bytes / 2 ** 20 / ((performance.now() - started) / 1000);
}

/** `sessions` clients at once, each sending `requests` bodies of 300 KB over fetch's keep-alive; answers the failures. */
async function keepAliveSessions(url, sessions, requests) {
  const body = chat('a large body over keep-alive', { padding: 'k'.repeat(300 * 1024) });
  let failed = 0;
  const firstErrors = [];
  const session = async (index) => {
    for (let i = 0; i < requests; i += 1) {
      try {
        const response = await fetch(`${url}${CHAT_PATH}`, { method: 'POST', headers: { ...HEADERS, 'x-mock-session': `keep-${index}` }, body });
        await response.text();
        if (response.status !== 200) failed += 1;
      } catch (error) {
        failed += 1;
        if (firstErrors.length < 3) firstErrors.push(error.cause?.code ?? error.message);
      }
    }
  };
  await Promise.all(Array.from({ length: sessions }, (_, index) => session(index)));
  return { failed, firstErrors };
}

/** Runs `step` on a freshly reset server: its answer, and the server's longest stall and peak RSS meanwhile. */
async function measured(server, step) {
  await server.reset();
  const started = performance.now();
  const answer = await step();
  const { lagMaxMs, stallCpuMaxMs, peakRssMb, peakHeapUsedMb, peakExternalMb, cpuMs } = await server.stats();
  return { answer, lagMaxMs, stallCpuMaxMs, peakRssMb, peakHeapUsedMb, peakExternalMb, cpuMs, ms: performance.now() - started };
}

/** @param settings `{ watchedRequests, relayMb, sessions, requestsPerSession }` */
export async function hostileSockets(root, { watchedRequests, relayMb, sessions, requestsPerSession }) {
  const fixtures = join(root, 'sockets-fixtures');
  writeFixtures(fixtures, 10);
  const upstream = await startUpstream(relayMb);
  const server = await startMock({ fixtures, scenarios: emptyScenarios(root), upstream: upstream.url });
  try {
    // Warm, as the soak is: the modules loaded after listening (the tokenizer) and the JIT.
    await (await fetch(`${server.url}${CHAT_PATH}`, { method: 'POST', headers: HEADERS, body: chat('warming up') })).text();
    const steps = {
      watcher: await measured(server, () => stalledWatcher(server.url, watchedRequests, 10_000)),
      relay: await measured(server, () => largeRelay(server.url, relayMb)),
      keepAlive: await measured(server, () => keepAliveSessions(server.url, sessions, requestsPerSession)),
    };
    const { rssMb } = await server.stats();
    const health = await (await fetch(`${server.url}/__admin/health`)).json();
    const all = Object.values(steps);
    return {
      watchedRequests,
      watcherDropped: steps.watcher.answer,
      relayMb,
      relayMbPerS: steps.relay.answer,
      sessions,
      requestsPerSession,
      keepAlive: steps.keepAlive.answer,
      steps: Object.fromEntries(Object.entries(steps).map(([name, { answer, ...figures }]) => [name, figures])),
      lagMaxMs: Math.max(...all.map((step) => step.lagMaxMs)),
      stallCpuMaxMs: Math.max(...all.map((step) => step.stallCpuMaxMs)),
      peakRssMb: Math.max(...all.map((step) => step.peakRssMb)),
      rssMb,
      memory: health.memory,
    };
  } finally {
    await server.stop();
    await upstream.close();
  }
}
