// A batch of 10,000 lines (SPEC 16): uploaded as a JSONL file, run on a manual clock moved past
// its end, and its output file downloaded, while another client asks the mock something every few
// milliseconds. The rows are how long each step takes, the longest the server's event loop
// stalled meanwhile (measured in the server's own process) and the longest the other client
// waited for an answer: the goal is that the batch never holds other clients for more than 50 ms.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startMock } from '../lib/servers.js';
import { HEADERS, MODEL } from '../lib/workload.js';

const AUTH = { authorization: HEADERS.authorization };
const PROBE_EVERY_MS = 5;

function batchFile(lines) {
  const text = [];
  for (let i = 0; i < lines; i++) {
    text.push(JSON.stringify({ custom_id: `ticket-${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: MODEL, messages: [{ role: 'user', content: `Summarise ticket ref-${i} about order ${1000 + i}.` }] } }));
  }
  return `${text.join('\n')}\n`;
}

/** Asks the mock for its model list in a loop until stopped; answers the longest wait. */
function probe(url) {
  let stopped = false;
  let longest = 0;
  let count = 0;
  const running = (async () => {
    while (!stopped) {
      const started = performance.now();
      const response = await fetch(`${url}/v1/models`, { headers: AUTH });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`the probe was answered ${response.status}`);
      longest = Math.max(longest, performance.now() - started);
      count += 1;
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  })();
  return async () => {
    stopped = true;
    await running;
    return { longestMs: longest, probes: count };
  };
}

async function timed(work) {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** Uploads `text`, runs it as a batch to its end and downloads its output file: the timed steps. */
async function runBatch(url, text, lines) {
  const upload = await timed(async () => {
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([text]), 'tickets.jsonl');
    return json(await fetch(`${url}/v1/files`, { method: 'POST', headers: AUTH, body: form }));
  });
  const run = await timed(async () => {
    const body = JSON.stringify({ input_file_id: upload.value.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const created = await json(await fetch(`${url}/v1/batches`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body }));
    const clock = JSON.stringify({ advance_ms: 1000 + 2000 + 50 * lines + 1000 });
    await json(await fetch(`${url}/__admin/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: clock }));
    return json(await fetch(`${url}/v1/batches/${created.id}`, { headers: AUTH }));
  });
  if (run.value.status !== 'completed' || run.value.request_counts.completed !== lines) {
    throw new Error(`the batch ended ${run.value.status} with ${JSON.stringify(run.value.request_counts)}`);
  }
  const download = await timed(async () => (await fetch(`${url}/v1/files/${run.value.output_file_id}/content`, { headers: AUTH })).text());
  const outputLines = download.value.split('\n').filter((line) => line !== '').length;
  if (outputLines !== lines) throw new Error(`the output file holds ${outputLines} lines`);
  return { uploadMs: upload.ms, runMs: run.ms, downloadMs: download.ms };
}

async function json(response) {
  if (response.status !== 200) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** @param settings `{ lines }` */
export async function batch(root, settings) {
  const fixtures = join(root, 'batch-fixtures');
  const scenarios = join(root, 'batch-scenarios');
  mkdirSync(fixtures, { recursive: true });
  mkdirSync(scenarios, { recursive: true });
  // A session holds the file, its answers and the output: more than the 16 MB default.
  const server = await startMock({ fixtures, scenarios, clock: 'manual', sessionMemoryLimit: '256mb', memoryLimit: '512mb' });
  const text = batchFile(settings.lines);
  try {
    // A one-line batch first: what the first multipart body and the first chat reply load once
    // (the form parser, the token tables) is not the batch's cost.
    await runBatch(server.url, batchFile(1), 1);
    await server.reset();
    const stopProbe = probe(server.url);
    const steps = await runBatch(server.url, text, settings.lines);
    const probes = await stopProbe();
    const stats = await server.stats();
    return { lines: settings.lines, bytes: text.length, ...steps, lagMaxMs: stats.lagMaxMs, probeMaxMs: probes.longestMs, probes: probes.probes };
  } finally {
    await server.stop();
  }
}
