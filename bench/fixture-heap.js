// `node bench/fixture-heap.js --builds /path/a,/path/b [--fixtures 10000 --tickets 2000 --hits 20000 --pairs 3]`:
// what many fixtures hold. Each build's server is started alone in a child with `--expose-gc
// --trace-gc`, in alternating pairs, and reports: its start (the time `startMockServer` took to
// load and compile the fixtures, and the process's CPU meanwhile); V8's heap in use after forced
// full collections, at load and again after `--hits` fixture hits spread over `--tickets` tickets
// in turn (the last of the fixtures); and, over those hits, the collector's mark-compacts and
// scavenges as `--trace-gc` names them (their count and milliseconds, incremental marking steps
// included). Heap bytes after a forced collection do not move with the machine's load; the
// collector's milliseconds do, so they are read in pairs.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './lib/stats.js';
import { CHAT_PATH, HEADERS, ticketRequest, writeFixtures } from './lib/workload.js';

const { values } = parseArgs({
  options: {
    builds: { type: 'string' },
    fixtures: { type: 'string', default: '10000' },
    tickets: { type: 'string', default: '2000' },
    hits: { type: 'string', default: '20000' },
    pairs: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    // Internal: this process is a server child.
    child: { type: 'boolean', default: false },
    build: { type: 'string' },
    dir: { type: 'string' },
  },
});

const MARK = '--fixture-heap--';

/** Heap in use after full collections until it stops falling (weak references cleared on a later one). */
function settledHeap() {
  let used = Infinity;
  for (let i = 0; i < 5; i++) {
    globalThis.gc();
    const now = process.memoryUsage().heapUsed;
    if (now >= used) break;
    used = now;
  }
  return used;
}

async function runChild() {
  const build = resolve(values.build);
  const { startMockServer } = await import(join(build, 'dist/index.js'));
  const { boundHeapGrowth } = await import(join(build, 'dist/heap.js'));
  boundHeapGrowth();
  const before = settledHeap();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const server = await startMockServer({ latency: 'none', logLevel: 'silent', fixtures: values.dir, port: 0, host: '127.0.0.1' });
  const startMs = Number(process.hrtime.bigint() - started) / 1e6;
  const { user, system } = process.cpuUsage(cpu);
  const atLoad = settledHeap() - before;
  process.on('message', (message) => {
    if (message.type === 'hits') console.log(`${MARK}from`);
    if (message.type === 'done') {
      console.log(`${MARK}to`);
      const afterHits = settledHeap() - before;
      process.send({ type: 'after', afterHits }, () => server.close().then(() => process.exit(0)));
    }
  });
  process.send({ type: 'listening', url: server.url, startMs, startCpuMs: (user + system) / 1000, atLoad });
}

/** `hits` requests over keep-alive connections, each sending its next when its answer is whole. */
async function fire(url, bodies, hits, connections) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  const one = () =>
    new Promise((done, fail) => {
      const body = bodies[next++ % bodies.length];
      const req = request(`${url}${CHAT_PATH}`, { method: 'POST', agent, headers: { ...HEADERS, 'content-length': Buffer.byteLength(body) } }, (res) => {
        if (res.statusCode !== 200) fail(new Error(`not a 200: ${res.statusCode}`));
        res.resume();
        res.on('end', done);
      });
      req.on('error', fail);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < hits) await one();
    }),
  );
  agent.destroy();
}

/** The collector's work named by `--trace-gc` between the marks: count and ms of each kind. */
function collections(out) {
  const from = out.indexOf(`${MARK}from`);
  const to = out.indexOf(`${MARK}to`);
  const lines = out.slice(from, to).split('\n');
  const tally = { markCompacts: 0, markCompactMs: 0, scavenges: 0, scavengeMs: 0 };
  for (const line of lines) {
    const ms = /MB, (?:pooled: [\d.]+ MB\), )?([\d.]+) \/ [\d.]+ ms/.exec(line);
    const steps = /\(\+ ([\d.]+) ms in \d+ steps/.exec(line);
    if (/Mark-Compact|Mark-sweep/i.test(line)) {
      tally.markCompacts++;
      tally.markCompactMs += Number(ms?.[1] ?? 0) + Number(steps?.[1] ?? 0);
    } else if (/Scavenge/.test(line)) {
      tally.scavenges++;
      tally.scavengeMs += Number(ms?.[1] ?? 0);
    }
  }
  return tally;
}

async function measure(build, dir, bodies) {
  const child = fork(new URL(import.meta.url).pathname, ['--child', '--build', build, '--dir', dir], {
    execArgv: ['--expose-gc', '--trace-gc'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const next = (type) => new Promise((done) => child.on('message', (m) => m.type === type && done(m)));
  const listening = await next('listening');
  await fire(listening.url, bodies.slice(0, 64), 64, 1);
  child.send({ type: 'hits' });
  await fire(listening.url, bodies, Number(values.hits), Number(values.connections));
  const after = next('after');
  child.send({ type: 'done' });
  const { afterHits } = await after;
  await new Promise((done) => child.on('exit', done));
  return { startMs: listening.startMs, startCpuMs: listening.startCpuMs, atLoad: listening.atLoad, afterHits, ...collections(out) };
}

async function main() {
  const builds = values.builds.split(',').map((b) => resolve(b));
  const count = Number(values.fixtures);
  const tickets = Number(values.tickets);
  const dir = mkdtempSync(join(tmpdir(), 'fixture-heap-'));
  try {
    writeFixtures(dir, count);
    const bodies = Array.from({ length: Math.max(1000, tickets) }, (_, order) => ticketRequest(count - 1 - (order % tickets), order));
    const runs = builds.map(() => []);
    for (let pair = 0; pair < Number(values.pairs); pair++) {
      const order = pair % 2 === 0 ? builds.keys() : [...builds.keys()].reverse();
      for (const index of order) {
        const load = loadavg()[0].toFixed(2);
        const run = { ...(await measure(builds[index], dir, bodies)), load };
        runs[index].push(run);
        console.log(JSON.stringify({ build: builds[index], pair: pair + 1, ...run }));
      }
    }
    const mb = (bytes) => (bytes / 1e6).toFixed(2);
    for (const [index, build] of builds.entries()) {
      const of = (key) => runs[index].map((run) => run[key]);
      const spread = (key, f = (x) => x.toFixed(1)) => `${f(median(of(key)))} (${f(Math.min(...of(key)))}-${f(Math.max(...of(key)))})`;
      console.log(
        `${build}: heap at load ${spread('atLoad', mb)} MB, after hits ${spread('afterHits', mb)} MB; start ${spread('startMs')} ms, CPU ${spread('startCpuMs')} ms; ` +
          `mark-compacts ${spread('markCompacts', String)} taking ${spread('markCompactMs')} ms; scavenges ${spread('scavenges', String)} taking ${spread('scavengeMs')} ms`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (values.child) await runChild();
else await main();
