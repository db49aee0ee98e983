// A hostile soak: malformed, oversized and chained requests mixed with ordinary traffic across
// 1,000 sessions for a bounded time, after a long previous_response_id chain alone. It reports
// the server's RSS at the end and at its peak, the longest event-loop stall, the 5xx answers, the
// longest request, whether the ordinary requests were answered exactly as before the soak, and
// how a late turn of the chain compares with an early one.
import { join } from 'node:path';
import { startMock } from '../lib/servers.js';
import { CHAT_PATH, emptyScenarios, HEADERS, MODEL, ticketRef, ticketRequest, writeFixtures } from '../lib/workload.js';

const SESSIONS = 1000;
const REQUEST_TIMEOUT_MS = 30_000;

/** A session whose run-time fixtures are patterns without a literal, each near the size bound. */
const PATTERN_SESSION = 'soak-patterns';
const PATTERN_FIXTURES = JSON.stringify({
  chat: Array.from({ length: 50 }, (_, i) => ({ name: `pattern-${i}`, match: { pattern: `(?:[a-z]|\\d){1,190}${'QXZJVK'[i % 6]}${i}` }, reply: { text: 'never' } })),
});
const MCP_HEADERS = { ...HEADERS, accept: 'application/json, text/event-stream' };
const journalBatch = (n) =>
  JSON.stringify(Array.from({ length: n }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'journal', arguments: { limit: 1000 } } })));
/** Letters without a space from a fixed seed: the slowest text for the BPE tokenizer. */
function noSpace(length) {
  let state = 7;
  const next = () => ((state ^= state << 13), (state ^= state >>> 17), (state ^= state << 5), state >>> 0);
  return Array.from({ length }, () => String.fromCharCode(97 + (next() % 26))).join('');
}
/** `{{` and `}}` as JSON escapes, as a faker argument inside a template writes them. */
const braced = (text) => JSON.stringify(text).replaceAll('{{', '\\u007b\\u007b').replaceAll('}}', '\\u007d\\u007d');

const chat = (content, extra = {}) => JSON.stringify({ model: MODEL, messages: [{ role: 'user', content }], ...extra });
const schemaRequest = (schema) => chat('structured, please', { response_format: { type: 'json_schema', json_schema: { name: 'out', schema } } });

/** Ordinary requests whose answers must not change: a fixture hit, generated prose, a small structured output. */
const ORDINARY = [
  { path: CHAT_PATH, body: ticketRequest(3, 7) },
  { path: CHAT_PATH, body: chat('What should I pack for a weekend in Lisbon?') },
  { path: CHAT_PATH, body: schemaRequest({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] }) },
];

/** Requests that once hung the mock or grew it: each must get a 4xx or a bounded 200. */
const HOSTILE = [
  { path: CHAT_PATH, body: '{"model": "gpt-4o-mini", "messages": [' },
  { path: CHAT_PATH, body: JSON.stringify({ model: MODEL, messages: 'not a list' }) },
  { path: CHAT_PATH, body: schemaRequest({ type: 'string', minLength: 1e9 }) },
  { path: CHAT_PATH, body: schemaRequest({ type: 'array', minItems: 1e8, items: { type: 'string' } }) },
  { path: CHAT_PATH, body: schemaRequest({ type: 'string', pattern: '^a{100000000}$' }) },
  { path: CHAT_PATH, body: schemaRequest({ type: 'array', minItems: 3000, items: { type: 'array', minItems: 3000 } }) },
  {
    path: CHAT_PATH,
    body: chat('call it', { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { xs: { type: 'array', minItems: 1e8 } } } } }], tool_choice: 'required' }),
  },
  { path: CHAT_PATH, body: schemaRequest({ type: 'array', minItems: 2000, items: { type: 'string', minLength: 20 } }) },
  { path: CHAT_PATH, body: chat('a large body for the journal', { padding: 'x'.repeat(512 * 1024) }) },
  { path: '/__admin/fixtures', body: JSON.stringify({ chat: [{ name: 'huge', reply: { text: '{{faker.lorem.paragraphs(1000000)}}' } }] }) },
  { path: '/__admin/fixtures', body: JSON.stringify({ chat: [{ name: 'alpha', reply: { text: '{{faker.string.alpha({"length": 100000000})}}' } }] }) },
  { path: '/__admin/fixtures', body: JSON.stringify({ chat: [{ name: 'fake', reply: { text: `{{faker.helpers.fake(${braced('{{lorem.paragraphs(1000000)}}')})}}` } }] }) },
  { path: '/__admin/fixtures', body: JSON.stringify({ chat: [{ name: 'separator', reply: { text: `{{faker.lorem.sentences(2000, "${'-'.repeat(90_000)}")}}` } }] }) },
  // A 1 MB message against 50 literal-free patterns of nearly the largest size.
  { path: CHAT_PATH, body: chat('ab1c2d3 '.repeat(128 * 1024)), session: PATTERN_SESSION },
  // The journal of 1,000 sessions, ten pages at once, and a batch past the bound.
  { path: '/__admin/mcp', body: journalBatch(10), headers: MCP_HEADERS },
  { path: '/__admin/mcp', body: journalBatch(100), headers: MCP_HEADERS },
  { path: CHAT_PATH, body: chat(noSpace(128 * 1024)) },
  { path: '/v1/images/generations', body: JSON.stringify({ model: 'gpt-image-1', prompt: 'a lighthouse', size: '1024x1024', response_format: 'url' }) },
];

async function send(url, path, body, session, headers = HEADERS) {
  const started = performance.now();
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'x-mock-session': session },
    body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started };
}

/** The part of an answer that must not change: the reply's content (ids and times differ by session). */
function contentOf(text) {
  try {
    return JSON.parse(text).choices?.[0]?.message?.content ?? text;
  } catch {
    return text;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * A `turns`-long previous_response_id chain alone, then turns continued from its first and from
 * its last response in alternation (so a change of load on the machine hits both alike): the
 * median time of each.
 */
async function chainCost(url, turns) {
  const turn = async (previous, input) => {
    const body = JSON.stringify({ model: MODEL, input, ...(previous ? { previous_response_id: previous } : {}) });
    const reply = await send(url, '/v1/responses', body, 'soak-chain');
    if (reply.status !== 200) throw new Error(`chain turn: ${reply.status} ${reply.text.slice(0, 200)}`);
    return { id: JSON.parse(reply.text).id, ms: reply.ms };
  };
  const ids = [];
  for (let index = 0; index < turns; index += 1) ids.push((await turn(ids.at(-1), `turn ${index}: and then?`)).id);
  const early = [];
  const late = [];
  for (let branch = 0; branch < 40; branch += 1) {
    early.push((await turn(ids[0], `branch ${branch}`)).ms);
    late.push((await turn(ids.at(-1), `branch ${branch}`)).ms);
  }
  return { turns, firstMs: median(early), lastMs: median(late) };
}

/** @param settings `{ durationMs, concurrency, chainTurns }` */
export async function hostileSoak(root, { durationMs, concurrency, chainTurns }) {
  const fixtures = join(root, 'soak-fixtures');
  writeFixtures(fixtures, 10);
  const server = await startMock({ fixtures, scenarios: emptyScenarios(root) });
  const expected = [];
  for (const request of ORDINARY) expected.push(contentOf((await send(server.url, request.path, request.body, 'soak-reference')).text));
  if (!expected[0].includes(`Ticket ${ticketRef(3)} is logged`)) throw new Error(`the ordinary fixture request did not hit its fixture: ${expected[0]}`);

  const chains = new Map();
  const tally = { requests: 0, ordinary: 0, changed: 0, serverErrors: 0, maxMs: 0, slowest: '', chained: 0, byStatus: {} };
  const note = (reply, what) => {
    tally.requests += 1;
    if (reply.ms > tally.maxMs) Object.assign(tally, { maxMs: reply.ms, slowest: what });
    tally.byStatus[reply.status] = (tally.byStatus[reply.status] ?? 0) + 1;
    if (reply.status >= 500) tally.serverErrors += 1;
  };
  /** One more turn of this session's previous_response_id chain (a new chain once evicted). */
  const chainTurn = async (session) => {
    const previous = chains.get(session);
    const body = JSON.stringify({ model: MODEL, input: `turn ${tally.chained}: go on`, ...(previous ? { previous_response_id: previous } : {}) });
    const reply = await send(server.url, '/v1/responses', body, session);
    note(reply, 'a chained response');
    tally.chained += 1;
    chains.set(session, reply.status === 200 ? JSON.parse(reply.text).id : undefined);
  };

  const deadline = performance.now() + durationMs;
  let turn = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const n = turn++;
      const session = `soak-${n % SESSIONS}`;
      if (n % 3 === 0) {
        const index = (n / 3) % ORDINARY.length;
        const reply = await send(server.url, ORDINARY[index].path, ORDINARY[index].body, session);
        note(reply, `ordinary ${ORDINARY[index].body.slice(0, 80)}`);
        tally.ordinary += 1;
        if (contentOf(reply.text) !== expected[index]) tally.changed += 1;
      } else if (n % 3 === 1) {
        // A few long chains: sessions 0-19 carry on, turn after turn.
        await chainTurn(`soak-${n % 20}`);
      } else {
        const request = HOSTILE[Math.floor(n / 3) % HOSTILE.length];
        note(await send(server.url, request.path, request.body, request.session ?? session, request.headers), `${request.path} ${request.body.slice(0, 80)}`);
      }
    }
  };
  try {
    // Each kind once beforehand, so the figures are of a warm server (lazy modules, the JIT).
    const patterns = await send(server.url, `/__admin/fixtures?session=${PATTERN_SESSION}`, PATTERN_FIXTURES, PATTERN_SESSION);
    if (patterns.status !== 201) throw new Error(`the pattern fixtures were refused: ${patterns.status} ${patterns.text.slice(0, 300)}`);
    for (const request of HOSTILE) await send(server.url, request.path, request.body, request.session ?? 'soak-warm-up', request.headers);
    const chain = await chainCost(server.url, chainTurns);
    await server.reset();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const stats = await server.stats();
    const health = await (await fetch(`${server.url}/__admin/health`)).json();
    const { rssMb, peakRssMb, heapUsedMb, heapTotalMb, externalMb, lagMaxMs, stallCpuMaxMs } = stats;
    return { ...tally, chain, durationMs, sessions: SESSIONS, rssMb, peakRssMb, heapUsedMb, heapTotalMb, externalMb, lagMaxMs, stallCpuMaxMs, memory: health.memory };
  } finally {
    await server.stop();
  }
}
