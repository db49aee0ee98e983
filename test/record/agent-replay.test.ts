// An agent's session replays where it was not recorded (SPEC 20): Claude Code or Codex records a
// coding session through a mock forwarding to a second mock (playing the vendor), in one working
// directory; a third mock serving only the recording answers the same session from another
// directory, whose system prompt and context name other paths, by the shape of each turn
// (`shape:NAME`), so the same file is written and the same final text said. Another request (the
// agent taking another path) is not answered from the recording.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_TIME_LIMIT_MS, agentPlace, runClaude, runCodex, type AgentPlace, type AgentRun } from '../helpers/coding-agents.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const EXAMPLES = resolve(import.meta.dirname, '..', '..', 'examples', 'agents');
const TEST_LIMIT = 3 * AGENT_TIME_LIMIT_MS;

type Runner = (url: string, place: AgentPlace, prompt: string, session: string) => Promise<AgentRun>;

const AGENTS: Array<[string, string, Runner]> = [
  ['Claude Code', 'claude-code.yaml', (url, place, prompt, session) => runClaude(url, place, prompt, ['--allowedTools', 'Write'], { 'x-mock-session': session })],
  // Its apply_patch is a freeform tool: the recording keeps the patch as the call's raw input.
  ['Codex', 'codex.yaml', (url, place, prompt, session) => runCodex(url, place, prompt, 'gpt-5.5', { 'x-mock-session': session })],
];

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function place(): AgentPlace {
  const made = agentPlace();
  cleanups.push(() => made.remove());
  return made;
}

async function sources(server: TestServer, session: string): Promise<string[]> {
  const { requests } = (await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Array<{ source: string }> };
  return requests.map((entry) => entry.source);
}

describe.each(AGENTS)('a %s session recorded in one directory', (_agent, fixtures, runAgent) => {
  it('replays from another with the same file and final text, by shape', { timeout: TEST_LIMIT }, async () => {
    const vendor = await startTestServer({ fixtureFiles: { [fixtures]: readFileSync(join(EXAMPLES, fixtures), 'utf8') } });
    cleanups.push(() => vendor.close());
    const recordDir = mkdtempSync(join(tmpdir(), 'mgm-agent-recording-'));
    cleanups.push(() => rmSync(recordDir, { recursive: true, force: true }));
    const recorder = await startTestServer({ upstream: vendor.url, record: recordDir });
    cleanups.push(() => recorder.close());

    const there = place();
    const recorded = await runAgent(recorder.url, there, 'Create hello.txt saying hi', 'rec');
    expect(recorded, recorded.stderr).toMatchObject({ code: 0, timedOut: false });
    expect(readFileSync(join(there.work, 'hello.txt'), 'utf8')).toBe('hi from the mock\n');
    expect(readdirSync(recordDir).length).toBeGreaterThanOrEqual(2);

    const replayer = await startTestServer({ fixtures: recordDir });
    cleanups.push(() => replayer.close());
    const here = place();
    const replayed = await runAgent(replayer.url, here, 'Create hello.txt saying hi', 'replay');
    expect(replayed, replayed.stderr).toMatchObject({ code: 0, timedOut: false });
    expect(replayed.stdout.trim()).toBe(recorded.stdout.trim());
    expect(replayed.stdout.trim()).toBe('Created hello.txt.');
    expect(readFileSync(join(here.work, 'hello.txt'), 'utf8')).toBe('hi from the mock\n');
    const replaySources = await sources(replayer, 'replay');
    expect(replaySources.length).toBeGreaterThanOrEqual(2);
    for (const source of replaySources) expect(source).toMatch(/^shape:/);

    // Another instruction is another path: nothing recorded answers it, the generator does.
    const elsewhere = place();
    await runAgent(replayer.url, elsewhere, 'Create bye.txt saying bye', 'other');
    const otherSources = await sources(replayer, 'other');
    expect(otherSources[0]).toBe('generated');
    expect(readdirSync(elsewhere.work)).toEqual([]);
  });
});
