// The test's oracle at scale: `POST /__admin/verify` over a session journal of 10,000 entries
// (an agent's tool round trips among support questions), every kind of expectation at once,
// timed end to end over HTTP as a test suite calls it.
import { join } from 'node:path';
import { postChat } from '../lib/client.js';
import { startMock } from '../lib/servers.js';
import { median } from '../lib/stats.js';
import { emptyScenarios, MODEL, ticketRef, ticketRequest, writeFixtures } from '../lib/workload.js';

const ENTRIES = 10_000;
const CONCURRENCY = 16;
const TOOLS = [{ type: 'function', function: { name: 'lookup_ticket', parameters: { type: 'object', properties: { ref: { type: 'string' } } } } }];

/** Every fourth request carries a tool result back, as the second turn of an agent's round trip. */
function request(index) {
  const plain = JSON.parse(ticketRequest(index % 100, index));
  if (index % 4 !== 3) return JSON.stringify({ ...plain, tools: TOOLS });
  const call = { id: `call_${index}`, type: 'function', function: { name: 'lookup_ticket', arguments: JSON.stringify({ ref: ticketRef(index % 100) }) } };
  const messages = [...plain.messages, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: '{"status":"open"}' }];
  return JSON.stringify({ ...plain, messages, tools: TOOLS });
}

const BODY = { temperature: 0.2, tools: [{ function: { name: 'lookup_ticket' } }] };

/** What a suite asks after an agent's run: each kind of expectation, a body filter beside a tool result (a quarter of the bodies read). */
const EXPECT = [
  { requests: { model: MODEL, tool_result: 'lookup_ticket', body: BODY }, count: ENTRIES / 4 },
  { sequence: [{ tools_offered: 'lookup_ticket' }, { tool_result: 'lookup_ticket' }, { text: ticketRef(99) }] },
  { requests: { model: 'gpt-4.1' }, count: 0 },
  { no_generated: true },
  { max_tokens: 1e9 },
  { max_cost_usd: 1000 },
];

/** The worst case: a body filter alone, so every entry's request body is read. */
const EVERY_BODY = [{ requests: { path: '/v1/chat/completions', body: BODY }, count: ENTRIES }];

async function timed(mock, expect, rounds) {
  const url = mock.url;
  await mock.reset();
  const body = JSON.stringify({ session: 'default', expect });
  const samples = [];
  let answer;
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const response = await fetch(`${url}/__admin/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    answer = await response.json();
    samples.push(performance.now() - started);
  }
  // Each expectation is written to hold: one that fails means the bench measured the wrong journal.
  const failed = answer.results.find((result) => !result.ok);
  if (failed) throw new Error(`verify failed in the bench: ${failed.message}`);
  // CPU time holds better than wall time on a machine other processes keep busy.
  const { cpuMs } = await mock.stats();
  return { medianMs: median(samples), cpuMs: cpuMs / rounds };
}

/** @param settings `{ rounds }`: verify calls timed after the journal is full */
export async function verifyPhase(root, settings) {
  const dir = join(root, 'fixtures-verify');
  writeFixtures(dir, 100);
  const mock = await startMock({ fixtures: dir, scenarios: emptyScenarios(root), journalMax: ENTRIES, memoryLimit: '1gb', sessionMemoryLimit: '512mb' });
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ENTRIES) await postChat(mock.url, request(next++));
      }),
    );
    return { entries: ENTRIES, rounds: settings.rounds, mixed: await timed(mock, EXPECT, settings.rounds), everyBody: await timed(mock, EVERY_BODY, settings.rounds) };
  } finally {
    await mock.stop();
  }
}
