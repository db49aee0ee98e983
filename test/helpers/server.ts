// Starts a mock on port 0 with `--latency none` and temporary fixture and scenario directories.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { vi } from 'vitest';
import { startMockServer, type MockServer, type MockServerOptions } from '../../src/index.js';

export interface TestServer extends MockServer {
  fixturesDir: string;
  scenariosDir: string;
  /** Writes a file under the fixtures directory and waits until the server has reloaded. */
  writeFixture(name: string, yaml: string): Promise<void>;
  writeScenario(name: string, yaml: string): Promise<void>;
  /** Deletes a file under the fixtures directory and waits until the server has reloaded. */
  removeFixture(name: string): Promise<void>;
  /** Resolves once the reload counter passes `count`. */
  waitForReload(count: number): Promise<void>;
  admin(path: string, init?: RequestInit): Promise<Response>;
  /** Moves the mock clock through `POST /__admin/clock`, as a user would. */
  advanceClock(ms: number): Promise<void>;
}

export interface TestServerSetup extends MockServerOptions {
  fixtureFiles?: Record<string, string>;
  scenarioFiles?: Record<string, string>;
}

function writeAll(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

export async function startTestServer(setup: TestServerSetup = {}): Promise<TestServer> {
  const root = mkdtempSync(join(tmpdir(), 'mgm-test-'));
  const fixturesDir = join(root, 'fixtures');
  const scenariosDir = join(root, 'scenarios');
  mkdirSync(fixturesDir);
  mkdirSync(scenariosDir);
  writeAll(fixturesDir, setup.fixtureFiles ?? {});
  writeAll(scenariosDir, setup.scenarioFiles ?? {});
  const { fixtureFiles: _f, scenarioFiles: _s, ...options } = setup;
  const server = await startMockServer({ fixtures: fixturesDir, scenarios: scenariosDir, ...options });
  // Polls the counter the server exposes, to a deadline: no fixed sleep decides the outcome, and a
  // reload that never comes fails the test instead of hanging it.
  const waitForReload = async (count: number): Promise<void> => {
    await vi.waitUntil(() => server.reloads() > count, { timeout: 15_000, interval: 5 });
  };
  const writeInto = (dir: string) => async (name: string, yaml: string) => {
    const before = server.reloads();
    writeAll(dir, { [name]: yaml });
    await waitForReload(before);
  };
  return {
    ...server,
    fixturesDir,
    scenariosDir,
    writeFixture: writeInto(fixturesDir),
    writeScenario: writeInto(scenariosDir),
    removeFixture: async (name) => {
      const before = server.reloads();
      rmSync(join(fixturesDir, name));
      await waitForReload(before);
    },
    waitForReload,
    admin: (path, init) => fetch(`${server.url}/__admin${path}`, init),
    advanceClock: async (ms) => {
      const response = await fetch(`${server.url}/__admin/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_ms: ms }),
      });
      if (response.status !== 200) throw new Error(`POST /__admin/clock answered ${response.status}: ${await response.text()}`);
    },
    close: async () => {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
