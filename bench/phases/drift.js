// Drift: `node dist/cli.js drift` over recorded turns (chat fixtures with `match.fingerprint` and
// the `request:` that --record keeps) against a mock playing the real gateway on the same
// recordings, in a child process of its own as a user runs it: from spawn to exit, start-up of the
// in-process mock included. Its CPU time is measured too (bench/lib/cpu-at-exit.js), and the
// upstream's: on two cores the run's wall time is about the two together.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { fingerprint } from '../../dist/conversation/fingerprint.js';
import { median } from '../lib/stats.js';
import { startMock } from '../lib/servers.js';
import { CHAT_PATH, MODEL } from '../lib/workload.js';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const CPU_AT_EXIT = fileURLToPath(new URL('../lib/cpu-at-exit.js', import.meta.url));

/** `count` recorded turns, one file each, as --record writes them; every fourth one streamed. */
function writeRecordings(dir, count) {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const question = `Recorded question number ${i}: where is order ${1000 + i}?`;
    const body = { model: MODEL, messages: [{ role: 'user', content: question }], ...(i % 4 === 0 && { stream: true }) };
    const match = { fingerprint: fingerprint({ model: MODEL, system: '', turns: [{ role: 'user', parts: [{ kind: 'text', text: question }] }], tools: [] }) };
    const fixture = { name: `recorded-${i}`, match, reply: { text: `Order ${1000 + i} left the warehouse on Tuesday.` }, request: { path: CHAT_PATH, body } };
    writeFileSync(join(dir, `recorded-${i}.yaml`), stringify({ chat: [fixture] }));
  }
}

/** @param settings `{ turns, runs }` */
export async function drift(root, settings) {
  const recordings = join(root, 'drift-recordings');
  const empty = join(root, 'drift-empty');
  mkdirSync(empty, { recursive: true });
  writeRecordings(recordings, settings.turns);
  const upstream = await startMock({ fixtures: recordings, scenarios: empty });
  const seconds = [];
  const cpuSeconds = [];
  const upstreamCpuSeconds = [];
  let report;
  try {
    for (let run = 0; run < settings.runs; run++) {
      await upstream.reset();
      const started = performance.now();
      const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', CPU_AT_EXIT, CLI, 'drift', '--upstream', upstream.url, '--fixtures', recordings, '--format', 'json'], { maxBuffer: 64 * 2 ** 20 });
      seconds.push((performance.now() - started) / 1000);
      cpuSeconds.push(Number(/^cpu-ms (\d+)$/m.exec(stderr)[1]) / 1000);
      upstreamCpuSeconds.push((await upstream.stats()).cpuMs / 1000);
      report = JSON.parse(stdout);
    }
  } finally {
    await upstream.stop();
  }
  // A faithful upstream: every turn asked, nothing found; otherwise the figure would flatter.
  if (report.requests !== settings.turns || report.findings !== 0) throw new Error(`drift asked ${report.requests} turns and found ${report.findings} drifts; expected ${settings.turns} and none`);
  return { turns: settings.turns, seconds: median(seconds), cpuSeconds: median(cpuSeconds), upstreamCpuSeconds: median(upstreamCpuSeconds), runs: seconds, cpuRuns: cpuSeconds };
}
