// Claude Code and the Codex CLI, the pinned devDependencies, run non-interactively against a mock:
// each run in a working directory and a HOME of its own (removed after), stdin closed, no
// telemetry, update check or other traffic but the mock's, and killed at its time limit.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Claude Code's native binary, from its platform package: the `claude.exe` of the main package is a
 * placeholder its install script replaces, and an npm that runs no install script leaves it so.
 */
export function claudeBinary(): string {
  const native = `@anthropic-ai/claude-code-${process.platform}-${process.arch}/package.json`;
  const binary = join(dirname(require.resolve(native)), process.platform === 'win32' ? 'claude.exe' : 'claude');
  if (!existsSync(binary)) throw new Error(`Claude Code's binary is missing at ${binary}: run npm ci`);
  return binary;
}

/** The Codex CLI's launcher, which finds its platform package's binary itself (no install script). */
export function codexLauncher(): string {
  return require.resolve('@openai/codex/bin/codex.js');
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Whether the run was killed at its time limit. */
  timedOut: boolean;
}

export interface AgentPlace {
  /** The working directory the agent edits. */
  work: string;
  home: string;
  remove(): void;
}

export function agentPlace(): AgentPlace {
  const root = mkdtempSync(join(tmpdir(), 'mgm-agent-'));
  const work = join(root, 'work');
  const home = join(root, 'home');
  mkdirSync(work);
  mkdirSync(home);
  return { work, home, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** What any run needs: no proxy between the agent and the mock, nothing read from the user's HOME. */
function baseEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, USERPROFILE: home, NO_PROXY: '127.0.0.1,localhost', LANG: 'C.UTF-8', TERM: 'dumb' };
}

export const AGENT_TIME_LIMIT_MS = 120_000;

function run(command: string, args: string[], cwd: string, env: Record<string, string>, limitMs: number): Promise<AgentRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limitMs);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** `claude -p PROMPT` with the mock as its API; `args` adds flags (a model, the tools it may use). */
export function runClaude(mockUrl: string, place: AgentPlace, prompt: string, args: string[] = [], headers: Record<string, string> = {}): Promise<AgentRun> {
  const env = {
    ...baseEnv(place.home),
    ANTHROPIC_BASE_URL: mockUrl,
    ANTHROPIC_API_KEY: 'sk-ant-mock',
    ...(Object.keys(headers).length > 0 && { ANTHROPIC_CUSTOM_HEADERS: Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\n') }),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
  return run(claudeBinary(), ['-p', prompt, ...args], place.work, env, AGENT_TIME_LIMIT_MS);
}

/**
 * `codex exec PROMPT` through a `model_providers` entry for the mock (the Responses wire), in a
 * CODEX_HOME of its own; `model` left out runs its default. No sandbox: bubblewrap needs user
 * namespaces a CI container may not give, and the run is confined to its temporary directory.
 */
export function runCodex(mockUrl: string, place: AgentPlace, prompt: string, model?: string, headers: Record<string, string> = {}): Promise<AgentRun> {
  const codexHome = join(place.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const headerLines = Object.entries(headers).map(([name, value]) => `${JSON.stringify(name)} = ${JSON.stringify(value)}`);
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model_provider = "mock"',
      ...(model ? [`model = "${model}"`] : []),
      '[analytics]',
      'enabled = false',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${mockUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      ...(headerLines.length > 0 ? ['[model_providers.mock.http_headers]', ...headerLines] : []),
      '',
    ].join('\n'),
  );
  const env = { ...baseEnv(place.home), CODEX_HOME: codexHome, MOCK_API_KEY: 'sk-mock' };
  const args = [codexLauncher(), 'exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', prompt];
  return run(process.execPath, args, place.work, env, AGENT_TIME_LIMIT_MS);
}
