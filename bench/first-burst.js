// `node bench/first-burst.js --builds /path/a,/path/b [--pairs 10 --streams 1000 --bursts 1]`:
// a stream's request path to its headers on a fresh server, two builds of the mock (each a
// checkout with its own built dist/) side by side. Each pair starts one fresh server of each
// build, the order swapped from pair to pair; each server is asked one paced stream, then, 1.5 s
// later, `--streams` streams at once of a model whose first token is 20 s away (or
// `--first-token-ms`). Each burst is timed from a request to its headers, and the server's CPU is
// read from /proc around it (its main thread's schedstat, all threads' utime and stime, its write
// calls), until 300 ms after the last headers, before the clients leave. `--bursts 3` asks three
// bursts of one server (the third is about a warm server's path). A build named `bare` is the
// bench's bare paced server instead. `--profile cpu|heap` keeps a profile of each server's first
// burst; `--node-flags` gives the servers Node or V8 flags (`--trace-deopt`). `--style messages`
// (or responses, generate-content, ollama, converse) asks the same stream in that style's wire;
// chat-completions is the default; `--system-chars 4000` puts a system message of that many
// characters before its user message (an SDK's instructions: the body's size); `--vary-prompt`
// ends each stream's prompt with its own number, so that no two bodies are alike (a load test's
// varied prompts: the body's remembered schema check answers none of them). Prints every pair
// and the medians of the paired ratios (each build against the first). Linux.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ask, buildsFrom, profilePath, startChild } from './lib/builds.js';
import { schedstat } from './lib/schedstat.js';
import { median, percentile } from './lib/stats.js';
import { CHAT_PATH, emptyScenarios, HEADERS, MODEL, streamRequest, writeFixtures } from './lib/workload.js';

const { values } = parseArgs({
  options: {
    builds: { type: 'string' },
    pairs: { type: 'string', default: '10' },
    streams: { type: 'string', default: '1000' },
    // When the streams' first token is due: by default far past the burst, so the work after each
    // stream's headers stays out of what is measured; a short one brings it within the burst.
    'first-token-ms': { type: 'string', default: '20000' },
    bursts: { type: 'string', default: '1' },
    // `cpu` or `heap`: each server's first burst profiled (from its first request to its settle)
    // into --profile-dir, one file a server, named by build index and pair.
    profile: { type: 'string' },
    'profile-dir': { type: 'string', default: 'bench/results' },
    // Node or V8 flags for the servers (`--trace-deopt`), their output to this process's.
    'node-flags': { type: 'string', default: '' },
    // The wire the streams are asked in: one of STYLES' names.
    style: { type: 'string', default: 'chat-completions' },
    // A chat-completions request's system message of this many characters (0: none, the phase's body).
    'system-chars': { type: 'string', default: '0' },
    // Each stream's prompt ends with its own number, so no two bodies of a burst are alike.
    'vary-prompt': { type: 'boolean', default: false },
  },
});
const builds = buildsFrom(values.builds, 'bare');
const pairs = Number(values.pairs);
const streams = Number(values.streams);
const bursts = Number(values.bursts);
const TICKS_PER_S = 100;
const SETTLE_MS = 300;
const firstTokenMs = Number(values['first-token-ms']);

const root = mkdtempSync(join(tmpdir(), 'first-burst-'));
const fixtures = join(root, 'fixtures');
writeFixtures(fixtures, 10);
writeFileSync(join(fixtures, 'models.yaml'), `models:\n  - id: ${MODEL}\n    latency:\n      first_token_ms: { p50: ${firstTokenMs}, p99: ${firstTokenMs + 1} }\n      token_ms: { p50: 25, p99: 26 }\n`);
const scenarios = emptyScenarios(root);
const PROMPT = JSON.parse(streamRequest()).messages[0].content;
const systemChars = Number(values['system-chars']);
if (systemChars > 0 && values.style !== 'chat-completions') throw new Error('--system-chars: chat-completions only');

/** The phase's stream request, with a system message of `chars` characters of prose before its user message when asked. */
function chatRequest(chars) {
  if (chars === 0) return streamRequest();
  const request = JSON.parse(streamRequest());
  const system = 'Answer briefly and plainly, citing the sources given where they help. '.repeat(Math.ceil(chars / 70)).slice(0, chars);
  request.messages.unshift({ role: 'system', content: system });
  return JSON.stringify(request);
}
/** The same paced stream asked in each style's wire: its path and body (and a header the style requires). */
const STYLES = {
  'chat-completions': [CHAT_PATH, chatRequest(systemChars)],
  messages: ['/v1/messages', JSON.stringify({ model: MODEL, max_tokens: 1024, stream: true, messages: [{ role: 'user', content: PROMPT }] }), { 'anthropic-version': '2023-06-01' }],
  responses: ['/v1/responses', JSON.stringify({ model: MODEL, stream: true, input: PROMPT })],
  'generate-content': [`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] })],
  ollama: ['/api/chat', JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: PROMPT }] })],
  converse: [`/model/${MODEL}/converse-stream`, JSON.stringify({ messages: [{ role: 'user', content: [{ text: PROMPT }] }] })],
};
if (!STYLES[values.style]) throw new Error(`--style: one of ${Object.keys(STYLES).join(', ')}`);
const [path, body, styleHeaders] = STYLES[values.style];

async function start(build) {
  const execArgv = values['node-flags'].split(' ').filter(Boolean);
  const message =
    build === 'bare'
      ? { type: 'start', kind: 'bare-sse', body: 'data: {"choices":[{"delta":{"role":"assistant"}}]}\n\ndata: {"choices":[{"delta":{"content":"x"}}]}\n\ndata: [DONE]\n\n', pacing: { firstChunkMs: firstTokenMs, chunkMs: 25 } }
      : { type: 'start', kind: 'mock', options: { fixtures, scenarios, latency: 'realistic' } };
  const { child, url } = await startChild(build, 'bare', message, { execArgv });
  return { child, port: Number(new URL(url).port), asked: 0 };
}

/** CPU of a process so far: its main thread's ns on a core, all its threads' ticks, its write calls. */
function cpuOf(pid) {
  const mainNs = schedstat(pid).onCpu;
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const allMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  const writes = Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'latin1'))[1]);
  return { mainNs, allMs, writes };
}

/**
 * The stream's request on the wire; with `--vary-prompt`, its prompt ends with ` (request N)`, N
 * of the same width for every stream, so that each body is its own (the fixture still matches it).
 */
function requestBytes(port, index) {
  const sent = values['vary-prompt'] ? body.replace(PROMPT, `${PROMPT} (request ${String(index).padStart(6, '0')})`) : body;
  const text = Object.entries({ ...HEADERS, ...styleHeaders, 'x-mock-latency': 'realistic', host: `127.0.0.1:${port}`, 'content-length': Buffer.byteLength(sent), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  return Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\n${text}\r\n\r\n`), Buffer.from(sent)]);
}

/** One stream to its headers; resolves with its socket (still open) and the ms from its send. */
function toHeaders(port, request) {
  return new Promise((done, fail) => {
    const sentMs = performance.now();
    const socket = connect({ port, host: '127.0.0.1' });
    let head = '';
    socket.on('data', (chunk) => {
      if (head === undefined) return;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      if (!head.startsWith('HTTP/1.1 200')) fail(new Error(head.slice(0, 200)));
      head = undefined;
      done({ socket, ms: performance.now() - sentMs });
    });
    socket.on('error', fail);
    socket.write(request);
  });
}

async function burst(server, profileFile) {
  // With `--vary-prompt`, each stream's own number: a server's bursts go on from its first stream's 0.
  const requests = values['vary-prompt']
    ? Array.from({ length: streams }, () => requestBytes(server.port, (server.asked += 1)))
    : new Array(streams).fill(requestBytes(server.port, 0));
  if (profileFile) await ask(server, { type: 'profile', kind: values.profile, file: profileFile });
  const before = cpuOf(server.child.pid);
  const answers = await Promise.all(requests.map((request) => toHeaders(server.port, request)));
  await sleep(SETTLE_MS);
  const after = cpuOf(server.child.pid);
  if (profileFile) await ask(server, { type: 'profile' });
  for (const { socket } of answers) socket.destroy();
  return {
    mainUs: (after.mainNs - before.mainNs) / 1000 / streams,
    allUs: ((after.allMs - before.allMs) * 1000) / streams,
    writes: (after.writes - before.writes) / streams,
    headersP99Ms: percentile(
      answers.map(({ ms }) => ms),
      99,
    ),
  };
}

async function fresh(build, profileFile) {
  const server = await start(build);
  try {
    const first = await toHeaders(server.port, requestBytes(server.port, 0));
    first.socket.destroy();
    const runs = [];
    for (let index = 0; index < bursts; index++) {
      await sleep(1500);
      runs.push(await burst(server, index === 0 ? profileFile : undefined));
    }
    return runs;
  } finally {
    server.child.kill('SIGKILL');
  }
}

const load = () => readFileSync('/proc/loadavg', 'latin1').split(' ')[0];
const results = builds.map(() => []);
try {
  for (let pair = 0; pair < pairs; pair++) {
    const order = builds.map((_, index) => index);
    if (pair % 2 === 1) order.reverse();
    for (const index of order) {
      const profileFile = values.profile && profilePath(values['profile-dir'], 'first-burst', values.profile, index, pair);
      results[index][pair] = await fresh(builds[index], profileFile);
    }
    const line = builds.map((build, index) => results[index][pair].map((run) => `${run.mainUs.toFixed(0)}/${run.allUs.toFixed(0)} µs ${run.headersP99Ms.toFixed(0)} ms ${run.writes.toFixed(2)} w`).join(' | '));
    console.log(`pair ${pair + 1} (load ${load()}): ${line.join('  ||  ')}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

const row = (name, pick) => {
  for (let burstIndex = 0; burstIndex < bursts; burstIndex++) {
    const cells = builds.map((_, index) => median(results[index].map((runs) => pick(runs[burstIndex]))));
    const ratios = builds.slice(1).map((_, index) => {
      const paired = results[index + 1].map((runs, pair) => pick(runs[burstIndex]) / pick(results[0][pair][burstIndex]));
      return `${median(paired).toFixed(3)} (lower in ${paired.filter((ratio) => ratio < 1).length} of ${paired.length})`;
    });
    console.log(`${name}, burst ${burstIndex + 1}: medians ${cells.map((cell) => cell.toFixed(1)).join(' / ')}; against the first: ${ratios.join(', ')}`);
  }
};
row('µs a stream, main thread', (run) => run.mainUs);
row('µs a stream, all threads', (run) => run.allUs);
row('headers p99, ms', (run) => run.headersP99Ms);
row('writes a stream', (run) => run.writes);
