// The peers: the LLM mocks a user would pick instead, each loaded from its fixture file in
// bench/peers/ and started the way its own CLI starts it, with the CLI's default log level.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * CopilotKit's aimock, as its `llmock` CLI builds it: the fixtures from one file, chunk size and
 * latency at their defaults (20 characters, no pause between chunks), log level `info`, which
 * prints nothing per request. It listens itself, so this returns the running instance.
 */
export async function startAimock(fixturesPath, host) {
  const { createServer, loadFixtureFile } = await import('@copilotkit/aimock');
  return createServer(loadFixtureFile(fixturesPath), { port: 0, host, logLevel: 'info' });
}

/**
 * dwmkerr's mock-llm: its Express app from the YAML config, as its `mock-llm` CLI loads it. It
 * prints a line per request (`POST /v1/chat/completions`) and has no setting to stop that.
 * Its package has no exports map and its main module listens on import, hence the deep paths.
 * @returns the request handler, for the caller to listen with
 */
export function mockLlmHandler(configPath, host) {
  const { loadConfig } = require('@dwmkerr/mock-llm/dist/config.js');
  const { createServer } = require('@dwmkerr/mock-llm/dist/server.js');
  return createServer(loadConfig(configPath), host, 0);
}
