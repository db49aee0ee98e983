#!/usr/bin/env node
// The command line: `model-gateway-mock [options]` serves; `validate` checks the YAML files and
// exits non-zero with file:line:col for each problem; `init` writes starter files; `mcp` serves
// the MCP tools over stdio for a mock that runs elsewhere; `fingerprint` prints a request's.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { loadSettledConfig } from './config/load.js';
import { ConfigLoadError, formatProblem } from './config/store.js';
import { boundHeapGrowth } from './heap.js';
import { dirsOf, startMockServer } from './index.js';
import { init } from './init.js';
import { STYLE_NAMES, type StyleName } from './conversation/types.js';
import type { DriftFormat } from './drift-report.js';
import { flushLines, printLine } from './log-sink.js';
import { timed } from './log-time.js';
import { PACKAGE_VERSION } from './package-root.js';


function integer(name: string, min: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}.`);
    return parsed;
  };
}

/** A flag given more than once keeps every value, in order. */
const repeat = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function httpUrl(value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw new InvalidArgumentError('--url must be an http:// or https:// URL.');
  return value;
}

const program = new Command()
  .name('model-gateway-mock')
  .description('A mock model gateway: four chat styles, images and video tasks, from YAML fixtures.')
  .version(PACKAGE_VERSION)
  .enablePositionalOptions()
  .addOption(new Option('--port <port>', 'port to listen on (0 picks a free one)').env('PORT').default(4141).argParser(integer('--port', 0)))
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .option('--tls-cert <file>', 'serve TLS with this PEM certificate chain instead of the local CA\'s (with --tls-key)')
  .option('--tls-key <file>', 'the key of --tls-cert')
  .option('--fixtures <dir>', 'fixtures directory, repeatable (default: ./fixtures, else the package\'s)', repeat)
  .option('--scenarios <dir>', 'scenarios directory, repeatable (default: ./scenarios, else the package\'s)', repeat)
  .option('--upstream <url>', 'forward what no fixture answers to this gateway (UPSTREAM_API_KEY replaces the key)')
  .option('--record <dir>', 'with --upstream: write each forwarded exchange into this directory as fixtures, and serve them')
  .option('--upstream-timeout-ms <ms>', 'with --upstream: how long a batch line forwarded to it may wait for its whole answer', integer('--upstream-timeout-ms', 1), 60000)
  .option('--drift', 'with --upstream: set each forwarded answer beside the mock\'s own and gather where their shapes differ (GET /__admin/drift)', false)
  .option('--seed <n>', 'seed of generated replies and ids', integer('--seed', 0), 0)
  .addOption(new Option('--latency <mode>', 'stream pacing').choices(['realistic', 'none']).default('realistic'))
  .option('--clock <clock>', 'real, manual or an ISO time', 'real')
  .option('--strict', 'answer unmatched chat requests 404 instead of generating', false)
  .option('--journal-max <n>', 'journal entries kept per session', integer('--journal-max', 1), 1000)
  .option('--body-limit <size>', 'largest request body', '50mb')
  .option('--memory-limit <size>', 'bytes all sessions hold together (journal, stored responses, fixtures, pictures, tasks, files), with the process caches, which give way first', '128mb')
  .option('--session-memory-limit <size>', 'bytes one session holds', '16mb')
  .option('--admin-token <token>', 'require this bearer token on /__admin')
  .option('--admin-origin <origin>', 'an origin besides loopback whose pages may call /__admin (repeatable)', repeat, [])
  .option('--admin-host <name>', 'a Host name besides the bound address and loopback that /__admin answers (repeatable)', repeat, [])
  .option('--no-watch', 'do not reload fixtures and scenarios on change')
  .option('--otlp-endpoint <url>', 'export a span per model API request to this OTLP/HTTP collector (default: OTEL_EXPORTER_OTLP_ENDPOINT)')
  .option('--grace-ms <ms>', 'on SIGTERM or SIGINT, how long open streams may finish before they are ended', integer('--grace-ms', 0), 5000)
  .option('--exit-with-stdin', 'end when standard input closes: a parent that started the mock with a pipe there went away, however it ended', false)
  .addOption(new Option('--log-level <level>', 'log detail (debug adds each match decision)').choices(['silent', 'error', 'info', 'debug']).default('info'))
  .action(async (options) => {
    boundHeapGrowth();
    try {
      const server = await startMockServer({ ...options, logLevel: options.logLevel });
      // Before the listening line: a parent that signals as soon as it reads that line must meet
      // the graceful stop, not the signal's default, which ends the process with no exit code.
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        // A second signal means "now": no more waiting for streams.
        if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
        stopping = true;
        printLine(timed(`${signal}: no new requests; open streams may finish for ${options.graceMs} ms (signal again to exit at once)`));
        void server.shutdown().then(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      printLine(timed(`model-gateway-mock listening on ${server.url}`));
      // The CA is made before its path is printed, so a client can trust it at once.
      await server.tlsCa();
      if (options.logLevel !== 'silent') {
        printLine(timed(server.summary()));
        const modes = server.modes();
        if (modes !== undefined) printLine(timed(modes));
      }
      flushLines();
      if (options.exitWithStdin) {
        // The pipe's far end closes whenever its holder ends (killed, os._exit): no one is left
        // to read a stream, so nothing waits for one.
        process.stdin.on('close', () => void server.shutdown(0).then(() => process.exit(0)));
        process.stdin.resume();
      }
    } catch (error) {
      console.error(error instanceof ConfigLoadError ? error.message : (error as Error).message);
      process.exit(1);
    }
  });

program
  .command('validate')
  .description('check the fixtures and scenarios; exit 1 with file:line:col for each problem')
  .option('--fixtures <dir>', 'fixtures directory, repeatable', repeat)
  .option('--scenarios <dir>', 'scenarios directory, repeatable', repeat)
  .action((options: { fixtures?: string[]; scenarios?: string[] }) => {
    const result = loadSettledConfig({ fixturesDirs: dirsOf(options.fixtures, 'fixtures'), scenariosDirs: dirsOf(options.scenarios, 'scenarios') });
    for (const problem of result.problems) console.error(formatProblem(problem));
    if (result.problems.length > 0) process.exit(1);
    console.log(`ok: ${result.files.length} files`);
  });

program
  .command('init')
  .argument('[dir]', 'where to write fixtures/ and scenarios/', '.')
  .description('write starter fixtures/ and scenarios/ (with their media) into DIR; never overwrites')
  .action((dir: string) => {
    const report = init(dir);
    console.log(`wrote ${report.written.length} files into ${dir}`);
    for (const name of report.skipped) console.log(`skipped ${name}: it already exists`);
    const where = relative('.', dir);
    const flags = where === '' ? '' : ` --fixtures ${where}/fixtures --scenarios ${where}/scenarios`;
    console.log(`next: npx model-gateway-mock${flags}`);
  });

program
  .command('mcp')
  .description("serve the MCP tools over stdio, calling a running mock's admin API")
  .requiredOption('--url <url>', 'the running mock, e.g. http://127.0.0.1:4141', httpUrl)
  .addOption(new Option('--admin-token <token>', "the mock's --admin-token").env('MOCK_ADMIN_TOKEN'))
  .action(async (options: { url: string; adminToken?: string }) => {
    // stdout carries the protocol: nothing else may be printed there. The MCP SDK is loaded only
    // by the commands that use it: it weighed more than anything else in `serve`'s start-up.
    const { serveStdio } = await import('./admin/mcp/stdio.js');
    await serveStdio(options.url, options.adminToken);
  });

program
  .command('mcp-serve')
  .argument('<server>', 'a server declared in an `mcp:` section of the fixtures')
  .description('serve one fake MCP server of the fixtures over stdio (its tool calls answered from them)')
  .option('--fixtures <dir>', "fixtures directory, repeatable (default: ./fixtures, else the package's)", repeat)
  .option('--scenarios <dir>', "scenarios directory, repeatable (default: ./scenarios, else the package's)", repeat)
  .option('--seed <n>', 'seed of generated results', integer('--seed', 0), 0)
  .option('--session <id>', 'the mock session tool calls are journaled in', 'default')
  .option('--url <url>', "a running mock's address: pass the calls to its /mcp/SERVER, to be answered and journaled there (the fixture options are its own)")
  .action(async (name: string, options: { fixtures?: string[]; scenarios?: string[]; seed: number; session: string; url?: string }) => {
    // Loaded only here, as `mcp` loads its own: stdout carries the protocol.
    if (options.url !== undefined) {
      const { bridgeToolServer } = await import('./mcp-bridge.js');
      return bridgeToolServer(name, options.url, options.session);
    }
    const { serveToolServer } = await import('./mcp-serve.js');
    await serveToolServer(name, options);
  });

program
  .command('fingerprint')
  .description("print the fingerprint of the chat request read from standard input, as match.fingerprint takes it")
  .addOption(new Option('--style <style>', 'the style the body is written in (default: guessed from its fields)').choices([...STYLE_NAMES]))
  .option('--model <id>', 'the model, for a generate-content body (it travels in the path there)')
  .action(async (options: { style?: StyleName; model?: string }) => {
    const { requestFingerprint } = await import('./exchange/upstream/fingerprint-command.js');
    try {
      console.log(requestFingerprint(readFileSync(0, 'utf8'), options));
    } catch (error) {
      console.error((error as Error).message);
      process.exit(1);
    }
  });

program
  .command('drift')
  .description('ask the upstream and the mock each recorded turn and drift: entry, and report where their answers differ in shape')
  .requiredOption('--upstream <url>', 'the real gateway (its key from UPSTREAM_API_KEY)', httpUrl)
  .option('--fixtures <dir>', "fixtures directory, repeatable (default: ./fixtures, else the package's)", repeat)
  .addOption(new Option('--format <format>', 'the report').choices(['text', 'json', 'junit']).default('text'))
  .option('--out <file>', 'write the report here instead of standard output')
  .option('--timeout-ms <ms>', 'how long one request to the upstream may take, answer included', integer('--timeout-ms', 1), 15000)
  .action(async (options: { upstream: string; fixtures?: string[]; format: DriftFormat; out?: string; timeoutMs: number }) => {
    const { runDrift, UpstreamUnreachable } = await import('./drift.js');
    const { driftExitCode, driftReport } = await import('./drift-report.js');
    try {
      const results = await runDrift({ upstream: options.upstream, fixtures: dirsOf(options.fixtures, 'fixtures'), key: process.env.UPSTREAM_API_KEY, timeoutMs: options.timeoutMs });
      const report = driftReport(results, options.format);
      if (options.out) writeFileSync(options.out, report);
      else process.stdout.write(report);
      process.exit(driftExitCode(results));
    } catch (error) {
      console.error((error as Error).message);
      process.exit(error instanceof UpstreamUnreachable ? 2 : 1);
    }
  });

// Not awaited: the command's code runs as a classic script (src/command-script.ts), which has no
// top-level await; a rejection still ends the process with its error.
void program.parseAsync();
