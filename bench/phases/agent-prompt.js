// A coding agent's request (SPEC 20): a 100 KB system prompt and 25 tools on the messages wire, as
// Claude Code sends, answered from a fixture that matches its turn and tools (never the system
// text). Beside it, a short request hitting the same fixture, and a bare node:http server that
// reads and parses the same agent body and answers the mock's bytes: the agent's request should
// cost what the short one does plus the time to read it (SPEC 20), the bare server's time for the
// same body. Rounds alternate the targets.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from '../lib/load.js';
import { serverLog, startBare, startMock } from '../lib/servers.js';
import { best } from '../lib/stats.js';
import { emptyScenarios, HEADERS } from '../lib/workload.js';

export const PATH = '/v1/messages';
export const MESSAGE_HEADERS = { 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-bench' };
const ANSWER = 'Created hello.txt.';
export const FIXTURE = `chat:
  - name: agent-done
    match: { tools: [Write], turn: 1, contains: "create hello.txt" }
    reply: { text: "${ANSWER}" }
`;

const GUIDANCE = 'Prefer the dedicated file tools over shell commands; read a file before you edit it; keep changes small and tested. ';

/** 25 tools with schemas of the size an agent declares: Write among them. */
function tools() {
  const names = ['Write', ...Array.from({ length: 24 }, (_, i) => `Tool${i + 1}`)];
  return names.map((name) => ({
    name,
    description: `${name}: ${GUIDANCE.repeat(6)}`,
    input_schema: {
      type: 'object',
      properties: Object.fromEntries(['file_path', 'content', 'pattern', 'limit', 'offset'].map((key) => [key, { type: key === 'limit' || key === 'offset' ? 'integer' : 'string', description: `The ${key} of the call.` }])),
      required: ['file_path'],
    },
  }));
}

/** Distinct bodies (the order number differs), so nothing answers from a cache of identical ones. */
function bodies(system, declared) {
  return Array.from({ length: 200 }, (_, i) =>
    JSON.stringify({
      model: 'claude-opus-4-8',
      max_tokens: 64000,
      system: [{ type: 'text', text: system }],
      tools: declared,
      messages: [{ role: 'user', content: [{ type: 'text', text: `<system-reminder>Session ${i}.</system-reminder>` }, { type: 'text', text: `Create hello.txt saying hi (run ${i})` }] }],
    }),
  );
}

/** The agent's 200 distinct bodies: a 100 KB system prompt and 25 tools each. */
export function agentBodies() {
  return bodies(GUIDANCE.repeat(Math.ceil(100_000 / GUIDANCE.length)).slice(0, 100_000), tools());
}

async function sample(url, body) {
  const response = await fetch(`${url}${PATH}`, { method: 'POST', headers: { ...HEADERS, ...MESSAGE_HEADERS }, body });
  const text = await response.text();
  if (response.status !== 200 || !text.includes(ANSWER)) throw new Error(`expected a 200 with "${ANSWER}" from ${url}, got ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

/** @param settings `{ rounds, warmup, duration, connections }` */
export async function agentPrompt(root, settings) {
  const log = serverLog(root);
  const dir = join(root, 'fixtures-agent');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'agent.yaml'), FIXTURE);
  const agent = agentBodies();
  const shortBodies = bodies('You edit files.', tools().slice(0, 1));
  const targets = {};
  try {
    const mock = await startMock({ fixtures: dir, scenarios: emptyScenarios(root), logLevel: 'silent' }, log);
    const reply = await sample(mock.url, agent[0]);
    await sample(mock.url, shortBodies[0]);
    targets.agent = { server: mock, body: agent };
    targets.short = { server: mock, body: shortBodies };
    targets.bare = { server: await startBare(reply), body: agent };
    const runs = { agent: [], short: [], bare: [] };
    const { rounds, ...load } = settings;
    for (let round = 0; round < rounds; round++) {
      for (const [name, { server, body }] of Object.entries(targets)) runs[name].push(await measure(server, body, { ...load, path: PATH, headers: MESSAGE_HEADERS }));
    }
    return {
      requestBytes: Buffer.byteLength(agent[0]),
      ...Object.fromEntries(Object.keys(runs).map((name) => [name, best(runs[name], 'requestsPerSecond')])),
      runs,
    };
  } finally {
    await Promise.all([targets.agent?.server.stop(), targets.bare?.server.stop()]);
  }
}
