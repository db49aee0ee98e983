// Claude Code and the Codex CLI, at their pinned versions, pointed at the mock (SPEC 20): a plain
// prompt on each one's default model, and a scripted coding session each that writes a file in a
// temporary working directory with the agent's own tool (Claude Code's Write, Codex's freeform
// apply_patch on gpt-5.5), answered by examples/agents' fixtures turn by turn and held by `verify`.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_TIME_LIMIT_MS, agentPlace, runClaude, runCodex, type AgentPlace } from '../helpers/coding-agents.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const EXAMPLES = resolve(import.meta.dirname, '..', '..', 'examples', 'agents');
const fixtureFile = (name: string) => readFileSync(join(EXAMPLES, name), 'utf8');
/** Room for the agent's own start and end around its time limit. */
const TEST_LIMIT = AGENT_TIME_LIMIT_MS + 30_000;

interface Journal {
  requests: Array<{ path: string; model: string; source: string; fixture: string | null }>;
}

async function journal(server: TestServer, session: string): Promise<Journal['requests']> {
  return ((await (await server.admin(`/requests?session=${session}`)).json()) as Journal).requests;
}

async function verify(server: TestServer, session: string, expect: unknown[]): Promise<{ ok: boolean; results: Array<{ message: string }> }> {
  const response = await server.admin('/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, expect }) });
  return (await response.json()) as { ok: boolean; results: Array<{ message: string }> };
}

const places: AgentPlace[] = [];
function place(): AgentPlace {
  const made = agentPlace();
  places.push(made);
  return made;
}
afterAll(() => {
  for (const made of places) made.remove();
});

describe('Claude Code against the mock', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ fixtureFiles: { 'claude-code.yaml': fixtureFile('claude-code.yaml') } });
  });
  afterAll(() => server.close());

  it('answers `claude -p` on its default model from a fixture', { timeout: TEST_LIMIT }, async () => {
    const run = await runClaude(server.url, place(), 'Say hello', [], { 'x-mock-session': 'claude-plain' });
    expect(run, run.stderr).toMatchObject({ code: 0, timedOut: false });
    expect(run.stdout.trim()).toBe('Hello from the mock.');
    const [entry] = await journal(server, 'claude-plain');
    expect(entry).toMatchObject({ path: '/v1/messages', source: 'fixture:claude-hello' });
    expect(entry!.model).toMatch(/^claude-/);
  });

  it('writes the scripted file with its Write tool and ends with the fixture text', { timeout: TEST_LIMIT }, async () => {
    const here = place();
    const run = await runClaude(server.url, here, 'Create hello.txt saying hi', ['--allowedTools', 'Write'], { 'x-mock-session': 'claude-write' });
    expect(run, run.stderr).toMatchObject({ code: 0, timedOut: false });
    expect(run.stdout.trim()).toBe('Created hello.txt.');
    expect(readFileSync(join(here.work, 'hello.txt'), 'utf8')).toBe('hi from the mock\n');
    const verdict = await verify(server, 'claude-write', [
      { sequence: [{ fixture: 'claude-write', tools_offered: 'Write' }, { fixture: 'claude-done', tool_result: 'Write' }] },
      { no_generated: true },
    ]);
    expect(verdict.ok, verdict.results.map((r) => r.message).join('\n')).toBe(true);
  });
});

describe('the Codex CLI against the mock', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ fixtureFiles: { 'codex.yaml': fixtureFile('codex.yaml') } });
  });
  afterAll(() => server.close());

  it('answers `codex exec` on its default model through a model_providers entry', { timeout: TEST_LIMIT }, async () => {
    const run = await runCodex(server.url, place(), 'Say hello', undefined, { 'x-mock-session': 'codex-plain' });
    expect(run, run.stderr).toMatchObject({ code: 0, timedOut: false });
    expect(run.stdout.trim()).toBe('Hello from the mock.');
    const [entry] = await journal(server, 'codex-plain');
    expect(entry).toMatchObject({ path: '/v1/responses', source: 'fixture:codex-hello' });
  });

  it('applies the scripted patch on gpt-5.5 with its freeform apply_patch tool', { timeout: TEST_LIMIT }, async () => {
    const here = place();
    const run = await runCodex(server.url, here, 'Create hello.txt saying hi', 'gpt-5.5', { 'x-mock-session': 'codex-patch' });
    expect(run, run.stderr).toMatchObject({ code: 0, timedOut: false });
    expect(run.stdout.trim()).toBe('Created hello.txt.');
    expect(existsSync(join(here.work, 'hello.txt'))).toBe(true);
    expect(readFileSync(join(here.work, 'hello.txt'), 'utf8')).toBe('hi from the mock\n');
    const verdict = await verify(server, 'codex-patch', [
      { sequence: [{ fixture: 'codex-patch', model: 'gpt-5.5', tools_offered: 'apply_patch' }, { fixture: 'codex-done', tool_result: 'apply_patch' }] },
      { no_generated: true },
    ]);
    expect(verdict.ok, verdict.results.map((r) => r.message).join('\n')).toBe(true);
  });
});
