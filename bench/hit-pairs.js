// `node bench/hit-pairs.js --builds /path/a,/path/b [--blocks 20 --hits 2000 --levels info,silent --fixtures 10]`:
// the throughput rows' fixture hit (POST chat, the last of 10 tickets, 32 keep-alive connections),
// two builds of the mock (each a checkout with its own built dist/) side by side at each log level
// and each count of fixtures (`--fixtures 10,10000`: the hit is the last ticket of each count) and
// spread of tickets (`--tickets 1,2000`), their CPU a hit read from /proc. One server of each build, level and count is started at once (a level
// other than `silent` logs to a file, as the throughput rows' server does); each is warmed, then
// served blocks of `--hits` hits in turn, the order reversed every block, so a burst of other
// load falls on all of them alike. A server's CPU a block is the sum of its threads' time on a
// core (schedstat), and its main thread's apart. Prints each block and, per setting, the median of
// the paired ratios (each build over the first) with their quartiles. A build named `aimock` is
// the peer, with the bench's fixture file of the same tickets (one at each level, which it has
// not). Linux.
import { openSync, closeSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildsFrom, startChild } from './lib/builds.js';
import { allThreadsNs, schedstat } from './lib/schedstat.js';
import { median, percentile } from './lib/stats.js';
import { CHAT_PATH, emptyScenarios, HEADERS, LONG_STREAM_TEXT, PEER_FIXTURES, ticketRequest, ticketRequests, writeFixtures } from './lib/workload.js';

const { values } = parseArgs({
  options: {
    builds: { type: 'string' },
    blocks: { type: 'string', default: '20' },
    hits: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '6000' },
    levels: { type: 'string', default: 'info,silent' },
    fixtures: { type: 'string', default: '10' },
    // The user's message this many characters longer (the bench's prose, after the ticket's
    // question), so that what reads the whole message (the needle search, its lower case) weighs more.
    longer: { type: 'string', default: '0' },
    // The requests spread over this many tickets, the last of the fixtures (`--tickets 1000,2000`,
    // a list like --levels): more than 1,024 fixtures answered in turn empty the answers' memo.
    tickets: { type: 'string', default: '1' },
    connections: { type: 'string', default: '32' },
    // Warm the servers in the reverse of their start order.
    'warm-reverse': { type: 'boolean', default: false },
    // Start one server first that is never measured.
    'first-dummy': { type: 'boolean', default: false },
    // Node's flags for the mock's servers (`--trace-deopt`), and a directory to keep their output in.
    'node-flags': { type: 'string', default: '' },
    'keep-logs': { type: 'string' },
  },
});
const builds = buildsFrom(values.builds, 'aimock');
const blocks = Number(values.blocks);
const hits = Number(values.hits);
const connections = Number(values.connections);
const counts = values.fixtures.split(',').map(Number);
const spreads = values.tickets.split(',').map(Number);
/** A server's setting besides its build: a log level, a count of fixtures and a spread of tickets, each named when more than one is asked. */
const groups = values.levels.split(',').flatMap((level) =>
  counts.flatMap((count) =>
    spreads.map((tickets) => ({ level, count, tickets, name: [level, counts.length > 1 ? count : '', spreads.length > 1 ? `${tickets} tickets` : ''].filter(Boolean).join('/') })),
  ),
);

const root = mkdtempSync(join(tmpdir(), 'hit-pairs-'));
const fixtureDirs = new Map(counts.map((count) => [count, join(root, `fixtures-${count}`)]));
for (const [count, dir] of fixtureDirs) writeFixtures(dir, count);
const scenarios = emptyScenarios(root);

/** All threads' ns on a core, the main thread's, and the main thread's runs on a core, so far. */
function cpuOf(pid) {
  const main = schedstat(pid);
  return { allNs: allThreadsNs(pid), mainNs: main.onCpu, mainRuns: main.runs };
}

/** This process's (the client's) µs of CPU so far. */
function clientUs() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function requestBytes(port, body) {
  const head = Object.entries({ ...HEADERS, host: `127.0.0.1:${port}`, 'content-length': Buffer.byteLength(body) })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  return Buffer.from(`POST ${CHAT_PATH} HTTP/1.1\r\n${head}\r\n\r\n${body}`);
}

const connected = (port) =>
  new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => done(socket));
    socket.once('error', fail);
  });

/**
 * `connections` keep-alive sockets to a server, each sending its next request when an answer is
 * whole. A socket the server closed while it waited for its turn (aimock's keep-alive ends after 5
 * s idle) is opened again by `reopen`, which the caller runs before it reads the server's CPU.
 */
const extra = ` ${LONG_STREAM_TEXT.repeat(Math.ceil(Number(values.longer) / LONG_STREAM_TEXT.length))}`.slice(0, Number(values.longer));

/** A ticket's request, its user's message `--longer` characters longer. */
function longer(body) {
  if (extra === '') return body;
  const request = JSON.parse(body);
  request.messages.at(-1).content += extra;
  return JSON.stringify(request);
}

/** The requests a server is sent in turn: `tickets` tickets, the last of `count`, each with its own order numbers. */
function requestsFor(count, tickets) {
  if (tickets === 1) return ticketRequests(count - 1);
  return Array.from({ length: Math.max(1000, tickets) }, (_, order) => ticketRequest(count - 1 - (order % tickets), order));
}

async function open(port, count, tickets) {
  const requests = requestsFor(count, tickets).map((body) => requestBytes(port, longer(body)));
  const sockets = await Promise.all(Array.from({ length: connections }, () => connected(port)));
  const reopen = async () => {
    for (const [at, socket] of sockets.entries()) if (socket.destroyed || socket.readyState !== 'open') sockets[at] = await connected(port);
  };
  let next = 0;
  /** Sends `count` requests over the sockets; resolves when every answer is read. */
  const fire = (count) =>
    new Promise((done, fail) => {
      let sent = 0;
      let answered = 0;
      for (const socket of sockets) {
        let buffered = Buffer.alloc(0);
        const send = () => {
          if (sent >= count) return;
          sent++;
          socket.write(requests[next++ % requests.length]);
        };
        socket.removeAllListeners('data');
        socket.on('data', (chunk) => {
          buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
          for (;;) {
            const end = buffered.indexOf('\r\n\r\n');
            if (end < 0) return;
            const head = buffered.toString('latin1', 0, end);
            if (!head.startsWith('HTTP/1.1 200')) return fail(new Error(`not a 200: ${head.split('\r\n')[0]}`));
            const length = /content-length: (\d+)/i.exec(head);
            let through;
            if (length) through = end + 4 + Number(length[1]);
            else {
              // Chunked (aimock): through the last chunk, which a JSON answer's text cannot spell.
              const last = buffered.indexOf('\r\n0\r\n\r\n', end + 2);
              through = last < 0 ? Infinity : last + 7;
            }
            if (buffered.length < through) return;
            buffered = buffered.subarray(through);
            if (++answered === count) return done();
            send();
          }
        });
        send();
      }
    });
  return { fire, reopen };
}

const servers = [];
let dummy;
try {
  if (values['first-dummy']) ({ child: dummy } = await startChild(builds[0], 'aimock', { type: 'start', kind: 'mock', options: { fixtures: fixtureDirs.get(counts[0]), scenarios, logLevel: 'silent' } }));
  for (const { level, count, tickets, name } of groups) {
    for (const [index, build] of builds.entries()) {
      const logFile = join(values['keep-logs'] ?? root, `log-${index}-${name.replaceAll('/', '-')}.txt`);
      const stdout = openSync(logFile, 'a');
      const fixtures = fixtureDirs.get(count);
      const message = build === 'aimock' ? { type: 'start', kind: 'aimock', fixtures: PEER_FIXTURES.aimock } : { type: 'start', kind: 'mock', options: { fixtures, scenarios, logLevel: level } };
      const execArgv = build === 'aimock' || !values['node-flags'] ? [] : values['node-flags'].split(' ');
      const { child, url } = await startChild(build, 'aimock', message, { stdout, execArgv });
      closeSync(stdout);
      servers.push({ group: name, count, tickets, index, child, port: Number(new URL(url).port), allUs: [], mainUs: [], rps: [], hitsARun: [], clientUs: [] });
    }
  }
  // The clients' sockets opened from the last server to the first, once all listen: opened as each
  // server started, the first server of the list read 5-15 % more CPU a hit than the others of its
  // build in 7 of 9 runs (cause not found); opened so, in 1 of 4.
  for (const server of [...servers].reverse()) Object.assign(server, await open(server.port, server.count, server.tickets));
  for (const server of values['warm-reverse'] ? [...servers].reverse() : servers) {
    await server.reopen();
    await server.fire(Number(values.warmup));
  }
  for (let block = 0; block < blocks; block++) {
    // Each server takes each place in turn: the first of a block read 5-10 % more CPU a hit than
    // the others of the same build when the order was only reversed from block to block.
    const turn = block % servers.length;
    const order = [...servers.slice(turn), ...servers.slice(0, turn)];
    for (const server of order) {
      await server.reopen();
      const before = cpuOf(server.child.pid);
      const clientBefore = clientUs();
      const from = performance.now();
      await server.fire(hits);
      server.rps.push(hits / ((performance.now() - from) / 1000));
      server.clientUs.push((clientUs() - clientBefore) / hits);
      const after = cpuOf(server.child.pid);
      server.allUs.push((after.allNs - before.allNs) / 1000 / hits);
      server.mainUs.push((after.mainNs - before.mainNs) / 1000 / hits);
      server.hitsARun.push(hits / (after.mainRuns - before.mainRuns));
    }
    console.log(`block ${block + 1}: ${servers.map((s) => `${s.index}/${s.group} ${s.allUs.at(-1).toFixed(1)} (${s.mainUs.at(-1).toFixed(1)}, ${s.hitsARun.at(-1).toFixed(2)})`).join('  ')} µs a hit, all threads (main thread, its hits a run)`);
  }
  const spread = (list) => `${median(list).toFixed(3)} (${percentile(list, 25).toFixed(3)}-${percentile(list, 75).toFixed(3)})`;
  for (const { name } of groups) {
    const own = servers.filter((s) => s.group === name);
    console.log(`\n${name}: medians ${own.map((s) => `build ${s.index} ${median(s.allUs).toFixed(1)} (${median(s.mainUs).toFixed(1)})`).join(', ')} µs a hit, all threads (main)`);
    // Fewer hits a run of the main thread is more wake-ups (epoll, reads, writes) for the same hits.
    console.log(`  hits a run of the main thread: ${own.map((s) => `build ${s.index} ${median(s.hitsARun).toFixed(2)}`).join(', ')}; the client's µs a hit: ${own.map((s) => `build ${s.index} ${median(s.clientUs).toFixed(1)}`).join(', ')}`);
    for (const [at, first] of own.entries()) {
      for (const other of own.slice(at + 1)) {
        const all = other.allUs.map((us, i) => us / first.allUs[i]);
        const main = other.mainUs.map((us, i) => us / first.mainUs[i]);
        const rps = other.rps.map((r, i) => r / first.rps[i]);
        console.log(`  build ${other.index} / build ${first.index}: all threads ${spread(all)}, main thread ${spread(main)}; below in ${all.filter((r) => r < 1).length} of ${all.length}; hits/s ${spread(rps)}`);
      }
    }
  }
  // The first setting over each other one, in each build: the log's own price, or what the
  // extra fixtures cost (a hit among 10 over a hit among 10,000, the throughput phase's ratio).
  for (const { name } of groups.slice(1)) {
    for (const [index] of builds.entries()) {
      const [base, other] = [groups[0].name, name].map((g) => servers.find((s) => s.group === g && s.index === index));
      console.log(`build ${index}: ${groups[0].name} / ${name}, all threads ${spread(base.allUs.map((us, i) => us / other.allUs[i]))}`);
    }
  }
} finally {
  for (const { child } of servers) child.kill();
  dummy?.kill();
  rmSync(root, { recursive: true, force: true });
}
