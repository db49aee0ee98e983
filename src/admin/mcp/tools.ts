// The MCP tools (SPEC 14): each one input schema, a description a model can act on, and a thin
// call of the admin API through an AdminClient, so they are the same in-process and over HTTP.
// The test's oracle (verify, usage) has its own file.
import * as z from 'zod';
import { yaml as yamlLib } from '../../conversation/yaml.js';
import type { JournalEntry } from '../../state/journal.js';
import { MCP_BOUNDS } from './bounds.js';
import { ask, findEntry, requireSession, ToolError } from './calls.js';
import { ORACLE_TOOLS } from './oracle-tools.js';
import { session, tool, type Tool } from './tool.js';
import { explanation, healthText, journalTable, table } from './words.js';

const entryId = z.string().min(1).describe("A journal entry's id (the x-request-id of the answer), as the journal tool lists them.");
const fileName = z.string().min(1).describe('A plain file name such as checkout.yaml (no folders), written into the first fixtures directory; an existing file is left unchanged.');

interface Listed {
  name: string;
  file: string;
  section: string;
  priority: number;
  session: string | null;
}

function sessionWords(id: string | undefined): string {
  return id === undefined ? 'globally (for every session without a scenario of its own)' : `for the session '${id}'`;
}

function parsedDocument(yaml: string): unknown {
  // Parsing takes far longer than reading: 30 MB of YAML held the event loop for 17 s.
  const bytes = Buffer.byteLength(yaml);
  if (bytes > MCP_BOUNDS.documentBytes) {
    throw new ToolError(`Invalid value for 'yaml': the document is ${bytes} bytes, past the limit of ${MCP_BOUNDS.documentBytes} bytes of a fixtures file.`);
  }
  try {
    return yamlLib().parse(yaml);
  } catch (error) {
    if (!(error instanceof yamlLib().YAMLParseError)) throw error;
    const at = error.linePos?.[0];
    throw new ToolError(`Invalid value for 'yaml': ${at ? `line ${at.line}, col ${at.col}: ` : ''}${error.message.split('\n')[0]!.replace(/:$/, '')}`);
  }
}

const status = tool('status', "The mock's health: the files loaded, the reload count and each configuration error as file:line:col: message.", z.strictObject({}), async (admin) =>
  healthText(await ask(admin, 'GET', '/health')),
);

const listFixtures = tool(
  'list_fixtures',
  'Every fixture the mock answers from: name, section (chat, images, videos), file, priority, and the session of fixtures added at run time.',
  z.strictObject({ session: session.optional() }),
  async (admin, input) => {
    await requireSession(admin, input.session);
    const { fixtures } = await ask<{ fixtures: Listed[] }>(admin, 'GET', '/fixtures', { query: { session: input.session } });
    if (fixtures.length === 0) return 'No fixtures are loaded.';
    return `${fixtures.length} fixture${fixtures.length === 1 ? '' : 's'}:\n\n${table(
      ['name', 'section', 'file', 'priority', 'session'],
      fixtures.map((f) => [f.name, f.section, f.file, f.priority, f.session]),
    )}`;
  },
);

const addFixture = tool(
  'add_fixture',
  'Add fixtures from a fixtures YAML document (`chat:` entries with match and reply, as in a fixtures file). By default they are held by a session until reset; with `file` the document is written into the first fixtures directory instead and loaded like any file (then it may hold images and videos too).',
  z.strictObject({
    yaml: z.string().min(1).describe('A fixtures document, e.g. "chat:\\n  - name: hello\\n    match: { contains: hello }\\n    reply: { text: Hi there }".'),
    session: session.optional(),
    file: fileName.optional(),
  }),
  async (admin, input) => {
    if (input.file !== undefined && input.session !== undefined) {
      throw new ToolError("Invalid value for 'file': a file serves every session; give either session or file, not both.");
    }
    const body = parsedDocument(input.yaml);
    if (input.file !== undefined) {
      const saved = await ask<{ file: string; fixtures: string[] }>(admin, 'POST', '/fixtures', { query: { file: input.file }, body });
      return `Wrote ${saved.file} and loaded it; its fixtures: ${saved.fixtures.join(', ') || 'none'}.`;
    }
    const { fixtures } = await ask<{ fixtures: Listed[] }>(admin, 'POST', '/fixtures', { query: { session: input.session }, body });
    const names = fixtures.map((f) => f.name).join(', ');
    return `Added ${fixtures.length} fixture${fixtures.length === 1 ? '' : 's'} to the session '${fixtures[0]?.session ?? input.session ?? 'default'}': ${names || 'none'}. They win over file fixtures of the same priority until the session is reset.`;
  },
);

const listScenarios = tool(
  'list_scenarios',
  'The scenarios that can be set (rate limits, outages, slow or broken streams), each with its description.',
  z.strictObject({}),
  async (admin) => {
    const { scenarios } = await ask<{ scenarios: Array<{ name: string; description: string | null }> }>(admin, 'GET', '/scenarios');
    if (scenarios.length === 0) return 'No scenarios are loaded.';
    return scenarios.map((s) => `- ${s.name}: ${s.description ?? '(no description)'}`).join('\n');
  },
);

const listFaults = tool(
  'list_faults',
  'Every fault a scenario step can name (`fault: NAME`): transport faults that break the connection or stream, and semantic faults where the model answers 200 with something wrong (invalid tool JSON, a refusal...), each with the styles it acts in.',
  z.strictObject({}),
  async (admin) => {
    const { faults } = await ask<{ faults: Array<{ name: string; kind: string; styles: string[]; description: string }> }>(admin, 'GET', '/faults');
    return faults.map((f) => `- ${f.name} (${f.kind}; ${f.styles.join(', ')}): ${f.description}`).join('\n');
  },
);

const setScenario = tool(
  'set_scenario',
  'Make a scenario answer the following model requests (e.g. a 429 rate limit), for one session or globally. list_scenarios names them.',
  z.strictObject({ name: z.string().min(1).describe('The scenario, as list_scenarios names it.'), session: session.optional() }),
  async (admin, input) => {
    await ask(admin, 'PUT', '/scenario', { query: { session: input.session }, body: { name: input.name } });
    return `The scenario '${input.name}' is now active ${sessionWords(input.session)}.`;
  },
);

const clearScenario = tool(
  'clear_scenario',
  'Stop the scenario set for a session, or the global one; requests are answered normally again.',
  z.strictObject({ session: session.optional() }),
  async (admin, input) => {
    await ask(admin, 'DELETE', '/scenario', { query: { session: input.session } });
    return input.session === undefined
      ? "Cleared the global scenario; a session's own scenario stays until cleared with its session."
      : `Cleared the scenario of the session '${input.session}'.`;
  },
);

const journal = tool(
  'journal',
  'The requests the mock answered, oldest first, as a table of id, time, session, method, path, status and source; filters are exact. Pass an id to explain_request for the why.',
  z.strictObject({
    session: session.optional(),
    path: z.string().min(1).describe('Exact path, e.g. /v1/chat/completions.').optional(),
    style: z.string().min(1).describe('chat-completions, responses, messages, generate-content, images, videos or models.').optional(),
    model: z.string().min(1).describe('Exact model id.').optional(),
    status: z.number().int().min(0).max(599).describe('Exact HTTP status, e.g. 429.').optional(),
    limit: z.number().int().min(1).max(1000).default(20).describe('Show only the latest this many (default 20).'),
  }),
  async (admin, input) => {
    await requireSession(admin, input.session);
    const { limit, status, ...filters } = input;
    // The table shows no bodies: the page comes without them, nothing to unpack.
    const query = { ...filters, status: status === undefined ? undefined : String(status), limit: String(limit), brief: 'true' };
    const { requests, total } = await ask<{ requests: JournalEntry[]; total: number }>(admin, 'GET', '/requests', { query });
    return journalTable(requests, total);
  },
);

const explainRequest = tool(
  'explain_request',
  'Why a request got its answer: the source (fixture, generated, scenario, upstream), the closest fixture and its failed match keys, the scenario step and the fault.',
  z.strictObject({ id: entryId }),
  async (admin, input) => explanation(await findEntry(admin, input.id)),
);

const fixtureFromRequest = tool(
  'fixture_from_request',
  'Turn a journal entry into a fixture that gives the same answer to the same request, as YAML; with `file` it is also written into the first fixtures directory and loaded.',
  z.strictObject({ id: entryId, file: fileName.optional() }),
  async (admin, input) => {
    await findEntry(admin, input.id);
    const path = `/requests/${encodeURIComponent(input.id)}/fixture`;
    if (input.file === undefined) {
      const yaml = await ask<unknown>(admin, 'GET', path);
      return typeof yaml === 'string' ? yaml : JSON.stringify(yaml, null, 2);
    }
    const saved = await ask<{ file: string; name: string; fingerprint: string }>(admin, 'POST', path, { body: { file: input.file } });
    return `Wrote the fixture '${saved.name}' (match.fingerprint ${saved.fingerprint}) into ${saved.file} in the first fixtures directory; the mock loads it on its next reload, at once when it watches its files.`;
  },
);

const advanceClock = tool(
  'advance_clock',
  'Move the mock clock instead of waiting: video tasks and batches progress and rate-limit windows reset. Give advance_ms or set, not both.',
  z.strictObject({
    advance_ms: z.number().int().min(0).describe('Milliseconds to move forward, e.g. 60000.').optional(),
    set: z.string().min(1).describe('An ISO 8601 time to jump to, e.g. 2026-01-01T00:00:00Z.').optional(),
  }),
  async (admin, input) => {
    const clock = await ask<{ now: string; mode: string }>(admin, 'POST', '/clock', { body: input });
    return `The mock clock now reads ${clock.now} (${clock.mode} clock).`;
  },
);

const reset = tool(
  'reset',
  "Forget a session's state (journal, scenario counters, video tasks, stored responses, run-time fixtures, its scenario), or every session's and the global scenario. Loaded files stay.",
  z.strictObject({ session: session.optional() }),
  async (admin, input) => {
    await ask(admin, 'POST', '/reset', { query: { session: input.session } });
    return input.session === undefined
      ? 'Reset every session and the global scenario; the loaded files stay.'
      : `Reset the session '${input.session}': its journal, counters, tasks, stored responses, run-time fixtures and scenario are gone.`;
  },
);

export const TOOLS: readonly Tool[] = [
  status,
  listFixtures,
  addFixture,
  listScenarios,
  listFaults,
  setScenario,
  clearScenario,
  journal,
  explainRequest,
  fixtureFromRequest,
  advanceClock,
  reset,
  ...ORACLE_TOOLS,
];
