// The scenarios the repo ships: one per error kind and fault, named after it, plus sequences,
// each described, valid for `model-gateway-mock validate`, and doing what its name says.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { JournalEntry } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { COMMAND, ensureBuilt } from '../helpers/built.js';
import { SHIPPED_SCENARIOS_DIR, shippedScenarioFiles } from '../helpers/shipped.js';

const ROOT = join(import.meta.dirname, '..', '..');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [...COMMAND, ...args], { encoding: 'utf8', cwd: ROOT });

const ERROR_KINDS = ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'rate_limit', 'server_error', 'overloaded', 'timeout'];
const FAULTS = ['delay', 'cut_stream', 'stream_error', 'malformed', 'reset'];

const shipped = loadConfig({ fixturesDirs: [join(ROOT, 'fixtures')], scenariosDirs: [SHIPPED_SCENARIOS_DIR] });
const stepOf = (name: string) => shipped.config!.scenarios.get(name)!.spec.steps[0];

let server: TestServer;
const client = (scenario: string, session = `shipped-${scenario}`, timeout?: number) =>
  new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: 'sk-test',
    maxRetries: 0,
    timeout,
    defaultHeaders: { 'x-mock-scenario': scenario, 'x-mock-session': session },
  });
const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: unknown) => (error instanceof OpenAI.APIError ? error.status : error),
  );
const journal = async (session: string) =>
  ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: JournalEntry[] }).requests;

beforeAll(ensureBuilt, 300_000);
beforeAll(async () => {
  server = await startTestServer({
    scenarioFiles: {
      ...shippedScenarioFiles(),
      'quick.yaml': 'scenarios:\n  - name: quick_timeout\n    steps: [ { error: timeout, delay_ms: 1 } ]\n',
    },
  });
});
afterAll(() => server.close());

describe('the shipped scenarios', () => {
  it('pass `model-gateway-mock validate`', () => {
    const result = cli('validate', '--scenarios', 'scenarios');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('name one scenario after each error kind and fault, plus the sequences, each with a description', () => {
    expect(shipped.problems).toEqual([]);
    const scenarios = shipped.config!.scenarios;
    for (const name of [...ERROR_KINDS, ...FAULTS, 'rate_limit_then_ok', 'flaky']) {
      expect(scenarios.has(name), name).toBe(true);
      expect(scenarios.get(name)!.spec.description, name).toBeTruthy();
    }
    for (const kind of ERROR_KINDS) expect(stepOf(kind), kind).toMatchObject({ error: kind });
    for (const fault of FAULTS) expect(stepOf(fault), fault).toMatchObject({ fault });
  });

  it('carry the parameters of SPEC section 9', () => {
    expect(stepOf('rate_limit')).toMatchObject({ headers: { 'retry-after': '1' } });
    expect(stepOf('delay')).toMatchObject({ delay_ms: 2000 });
    expect(stepOf('timeout')).toMatchObject({ delay_ms: 10_000 });
    expect(stepOf('cut_stream')).toMatchObject({ after_chunks: 3 });
    expect(stepOf('stream_error')).toMatchObject({ after_chunks: 3 });
  });

  it('rate_limit_then_ok: two 429s, then normal replies', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await statusOf(client('rate_limit_then_ok').chat.completions.create(ask)));
    expect(statuses).toEqual([429, 429, 200, 200]);
  });

  it('flaky: every third request fails with 500, over and over', async () => {
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push(await statusOf(client('flaky').chat.completions.create(ask)));
    expect(statuses).toEqual([200, 200, 500, 200, 200, 500, 200]);
  });

  it('malformed: a 200 whose JSON body is cut short', async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', 'x-mock-scenario': 'malformed' },
      body: JSON.stringify(ask),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const text = await response.text();
    expect(text.startsWith('{"id":"chatcmpl-')).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('timeout: no answer while it waits; a client that gives up is journaled as gone (499)', async () => {
    const error = await client('timeout', 'shipped-timeout', 300).chat.completions.create(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    // The entry is written once the server has seen the client leave and dropped its timer.
    let entries = await journal('shipped-timeout');
    while (entries.length === 0) entries = await journal('shipped-timeout');
    expect(entries).toEqual([expect.objectContaining({ status: 499, scenario: 'timeout' })]);
  });

  it('a timeout step answers 504 in the style envelope once its delay_ms has passed', async () => {
    const error = await client('quick_timeout').chat.completions.create(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.InternalServerError>).status).toBe(504);
    expect((error as InstanceType<typeof OpenAI.InternalServerError>).type).toBe('timeout_error');
  });
});

describe('validate on scenario files', () => {
  it('reports an unknown error kind with file:line:col', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgm-bad-scenario-'));
    writeFileSync(join(dir, 'bad.yaml'), 'scenarios:\n  - name: oops\n    steps:\n      - { error: rate_limits }\n');
    const result = cli('validate', '--scenarios', dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/bad\.yaml:4:\d+: scenarios\[0\]\.steps\[0\]/);
  });
});
