#!/usr/bin/env node
// The command line: `model-gateway-mock [options]` serves; `model-gateway-mock validate` checks
// the YAML files and exits non-zero with file:line:col for each problem; `model-gateway-mock mcp`
// serves the MCP tools over stdio for a mock that runs elsewhere.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig } from './config/load.js';
import { ConfigLoadError, formatProblem } from './config/store.js';
import { serveStdio } from './admin/mcp/stdio.js';
import { defaultDir, startMockServer } from './index.js';
import { timed } from './log-time.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

function integer(name: string, min: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}.`);
    return parsed;
  };
}

function httpUrl(value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw new InvalidArgumentError('--url must be an http:// or https:// URL.');
  return value;
}

const program = new Command()
  .name('model-gateway-mock')
  .description('A mock model gateway: four chat styles, images and video tasks, from YAML fixtures.')
  .version(pkg.version)
  .enablePositionalOptions()
  .addOption(new Option('--port <port>', 'port to listen on (0 picks a free one)').env('PORT').default(4141).argParser(integer('--port', 0)))
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .option('--fixtures <dir>', 'fixtures directory (default: ./fixtures, else the package\'s)')
  .option('--scenarios <dir>', 'scenarios directory (default: ./scenarios, else the package\'s)')
  .option('--seed <n>', 'seed of generated replies and ids', integer('--seed', 0), 0)
  .addOption(new Option('--latency <mode>', 'stream pacing').choices(['realistic', 'none']).default('realistic'))
  .option('--clock <clock>', 'real, manual or an ISO time', 'real')
  .option('--strict', 'answer unmatched chat requests 404 instead of generating', false)
  .option('--journal-max <n>', 'journal entries kept per session', integer('--journal-max', 1), 1000)
  .option('--body-limit <size>', 'largest request body', '50mb')
  .option('--admin-token <token>', 'require this bearer token on /__admin')
  .option('--no-watch', 'do not reload fixtures and scenarios on change')
  .addOption(new Option('--log-level <level>', 'log detail').choices(['silent', 'error', 'info', 'debug']).default('info'))
  .action(async (options) => {
    try {
      const server = await startMockServer({ ...options, logLevel: options.logLevel });
      console.log(timed(`model-gateway-mock listening on ${server.url} (inspector: ${server.url}/__admin/ui)`));
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    } catch (error) {
      console.error(error instanceof ConfigLoadError ? error.message : (error as Error).message);
      process.exit(1);
    }
  });

program
  .command('validate')
  .description('check the fixtures and scenarios; exit 1 with file:line:col for each problem')
  .option('--fixtures <dir>', 'fixtures directory')
  .option('--scenarios <dir>', 'scenarios directory')
  .action((options: { fixtures?: string; scenarios?: string }) => {
    const result = loadConfig({
      fixturesDir: resolve(options.fixtures ?? defaultDir('fixtures')),
      scenariosDir: resolve(options.scenarios ?? defaultDir('scenarios')),
    });
    for (const problem of result.problems) console.error(formatProblem(problem));
    if (result.problems.length > 0) process.exit(1);
    console.log(`ok: ${result.files.length} files`);
  });

program
  .command('mcp')
  .description("serve the MCP tools over stdio, calling a running mock's admin API")
  .requiredOption('--url <url>', 'the running mock, e.g. http://127.0.0.1:4141', httpUrl)
  .addOption(new Option('--admin-token <token>', "the mock's --admin-token").env('MOCK_ADMIN_TOKEN'))
  .action(async (options: { url: string; adminToken?: string }) => {
    // stdout carries the protocol: nothing else may be printed there.
    await serveStdio(options.url, options.adminToken);
  });

await program.parseAsync();
