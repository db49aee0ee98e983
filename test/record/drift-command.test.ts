// `model-gateway-mock drift`: turns are recorded with `--record` through a second mock playing the
// real gateway; drift against that faithful upstream finds nothing, against a small upstream that
// drifts in known ways it names each drift, in text, JSON and JUnit. The reports are made in
// process (runDrift, driftReport: what the command prints); the command line is spawned where its
// exit code is the point.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { XMLParser } from 'fast-xml-parser';
import OpenAI from 'openai';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSettledConfig } from '../../src/config/load.js';
import { formatProblem } from '../../src/config/store.js';
import { runDrift } from '../../src/drift.js';
import { driftExitCode, driftReport, type DriftResult } from '../../src/drift-report.js';
import { startDriftingGateway, type DriftingGateway } from '../helpers/drifting-gateway.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { COMMAND, ensureBuilt } from '../helpers/built.js';

const SECRET = 'sk-upstream-secret-drift-5e1c';
const CLIENT_KEY = 'sk-client-key-drift-77aa';
const CLI = [...COMMAND, 'drift'];

const UPSTREAM_FIXTURES = `
chat:
  - name: capital
    match: { contains: "capital of Norway" }
    reply: { text: "The capital of Norway is Oslo." }
  - name: poem
    match: { contains: "short poem" }
    reply: { text: "Fjords and light, a northern night." }
`;

const HAND_WRITTEN = `
drift:
  - name: hand-written-question
    path: /v1/chat/completions
    request: { model: gpt-4o-mini, messages: [ { role: user, content: "What is the capital of Norway, by hand?" } ] }
`;

let upstream: TestServer;
let recorder: TestServer;
let drifting: DriftingGateway;
let recordDir: string;
let handDir: string;
let unreachableUrl: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a child process, without blocking this one (the mocks it asks live here). */
function driftCommand(url: string, ...args: string[]): Promise<Run> {
  return new Promise((done) => {
    const env = { ...process.env, UPSTREAM_API_KEY: SECRET };
    execFile(process.execPath, [...CLI, '--upstream', url, '--fixtures', recordDir, '--fixtures', handDir, ...args], { env, encoding: 'utf8' }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** The command's work in process: every recorded turn and drift: entry asked of `url` and of the mock. */
const drift = (url: string): Promise<DriftResult[]> => runDrift({ upstream: url, fixtures: [recordDir, handDir], key: SECRET });

beforeAll(ensureBuilt, 300_000);
beforeAll(async () => {
  upstream = await startTestServer({ fixtureFiles: { 'up.yaml': UPSTREAM_FIXTURES } });
  recordDir = mkdtempSync(join(tmpdir(), 'mgm-drift-recording-'));
  recorder = await startTestServer({ upstream: upstream.url, record: recordDir, upstreamKey: SECRET });
  handDir = mkdtempSync(join(tmpdir(), 'mgm-drift-hand-'));
  writeFileSync(join(handDir, 'hand.yaml'), HAND_WRITTEN);
  drifting = await startDriftingGateway(upstream.url);
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
  unreachableUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((done) => closed.close(() => done()));

  // Two turns recorded through real SDKs: a whole chat completion and a streamed message.
  const openai = new OpenAI({ baseURL: `${recorder.url}/v1`, apiKey: CLIENT_KEY, maxRetries: 0 });
  await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the capital of Norway?' }] });
  const anthropic = new Anthropic({ baseURL: recorder.url, apiKey: CLIENT_KEY, maxRetries: 0 });
  const stream = await anthropic.messages.create({ model: 'gpt-4o-mini', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'A short poem, please.' }] });
  for await (const _event of stream);
  // Recordings are written once each relayed answer ended: poll to a deadline.
  await vi.waitUntil(() => readdirSync(recordDir).filter((name) => name.endsWith('.yaml')).length === 2, { timeout: 10_000, interval: 10 });
}, 30_000);

afterAll(async () => {
  await recorder.close();
  await upstream.close();
  await drifting.close();
});

describe('recordings keep their request', () => {
  it('holds the path and body of each turn, and no key', () => {
    const texts = readdirSync(recordDir).map((name) => readFileSync(join(recordDir, name), 'utf8'));
    const requests = texts.map((text) => (parse(text) as { chat: Array<{ request: { path: string; body: { messages: unknown[] } } }> }).chat[0]!.request);
    expect(requests.map((request) => request.path).sort()).toEqual(['/v1/chat/completions', '/v1/messages']);
    for (const request of requests) expect(request.body.messages).toHaveLength(1);
    for (const text of texts) {
      expect(text).not.toContain(CLIENT_KEY);
      expect(text).not.toContain(SECRET);
    }
  });
});

describe('drift against a faithful upstream', () => {
  it('finds nothing, having asked every recorded turn and drift: entry', async () => {
    const results = await drift(upstream.url);
    expect(driftExitCode(results)).toBe(0);
    const report = JSON.parse(driftReport(results, 'json')) as { requests: number; findings: number; results: Array<{ case: { name: string } }> };
    expect(report.requests).toBe(3);
    expect(report.findings).toBe(0);
    expect(report.results.map((result) => result.case.name)).toContain('hand-written-question');
  });
});

describe('drift against a drifting upstream', () => {
  let results: DriftResult[];
  beforeAll(async () => {
    results = await drift(drifting.url);
  });

  it('names each drift in text', () => {
    expect(driftExitCode(results)).toBe(1);
    const text = driftReport(results, 'text');
    for (const name of ['hand-written-question', 'chat-completions-gpt-4o-mini-']) expect(text).toContain(`POST /v1/chat/completions chat-completions ${name}`);
    expect(text).toMatch(/POST \/v1\/messages messages messages-gpt-4o-mini-/);
    expect(text).toContain('metadata: upstream has, mock lacks (upstream: object; mock: -)');
    expect(text).toContain('choices[].finish_reason: new value (upstream: completed; mock: stop)');
    expect(text).toContain('system_fingerprint: type differs (upstream: null; mock: string)');
    expect(text).toContain('choices[].logprobs: mock has, upstream lacks (upstream: -; mock: null)');
    expect(text).toMatch(/events: event order differs \(upstream: message_start rate_limit_status content_block_start/);
    expect(text).toContain('event:rate_limit_status: upstream has, mock lacks');
    // Ids, times, texts, token counts and request ids changed on every answer: values never drift.
    expect(text).not.toMatch(/^\s+(id|created|usage\.|choices\[\]\.message\.content|header:|event:content_block_delta)/m);
    expect(text).toContain('3 requests asked; 10 findings in 3 of them; 0 could not be compared.');
  });

  it('gives the same findings as JSON, each with endpoint, style, path and kind', () => {
    const report = JSON.parse(driftReport(results, 'json')) as { results: Array<{ case: { endpoint: string; style: string; name: string }; findings: Array<{ path: string; kind: string; upstream: string; mock: string }> }> };
    const found = report.results.flatMap((result) => result.findings.map((finding) => `${result.case.endpoint} ${result.case.style} ${finding.path} ${finding.kind}`));
    expect(found).toEqual(
      expect.arrayContaining([
        'POST /v1/chat/completions chat-completions metadata upstream has, mock lacks',
        'POST /v1/chat/completions chat-completions choices[].finish_reason new value',
        'POST /v1/chat/completions chat-completions system_fingerprint type differs',
        'POST /v1/chat/completions chat-completions choices[].logprobs mock has, upstream lacks',
        'POST /v1/messages messages events event order differs',
        'POST /v1/messages messages event:rate_limit_status upstream has, mock lacks',
      ]),
    );
    expect(found.some((line) => /\s(id|created|usage\.\w+|header:[\w-]+) /.test(line))).toBe(false);
  });

  it('gives JUnit with one failing test case per drifted request', () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(driftReport(results, 'junit')) as {
      testsuites: { testsuite: { name: string; tests: string; failures: string; testcase: Array<{ classname: string; name: string; failure: { message?: string } | string }> } };
    };
    const suite = xml.testsuites.testsuite;
    expect(suite.name).toBe('drift');
    expect(suite.tests).toBe('3');
    expect(suite.failures).toBe('3');
    const messages = suite.testcase.find((testCase) => testCase.name.startsWith('POST /v1/messages'))!;
    expect(messages.classname).toBe('drift.messages');
    expect(JSON.stringify(messages.failure)).toContain('event:rate_limit_status: upstream has, mock lacks');
  });
});

describe('the drift command', () => {
  it('exits 1 against a drifting upstream, the JUnit report written to --out and nothing to standard output', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'mgm-drift-junit-')), 'drift.xml');
    const run = await driftCommand(drifting.url, '--format', 'junit', '--out', out);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(out, 'utf8')) as { testsuites: { testsuite: { tests: string; failures: string } } };
    expect(xml.testsuites.testsuite).toMatchObject({ tests: '3', failures: '3' });
  }, 30_000);

  it('exits 2 when the upstream cannot be asked', async () => {
    const run = await driftCommand(unreachableUrl);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${unreachableUrl} could not be asked`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);
});

describe('a request that one side refuses and the other answers', () => {
  it('is not compared but reported as such, with what the refusal said', async () => {
    // An upstream that has retired one model and answers everything else.
    const retiring = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const retired = body.includes('retired-model');
        response.writeHead(retired ? 404 : 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(retired ? { error: { message: 'The model retired-model does not exist.', type: 'invalid_request_error' } } : { id: 'chatcmpl-1', object: 'chat.completion', choices: [] }));
      });
    });
    await new Promise<void>((done) => retiring.listen(0, '127.0.0.1', done));
    const dir = mkdtempSync(join(tmpdir(), 'mgm-drift-refused-'));
    writeFileSync(
      join(dir, 'refused.yaml'),
      `drift:
  - name: retired-upstream
    path: /v1/chat/completions
    request: { model: gpt-4o-mini, messages: [ { role: user, content: "retired-model, are you there?" } ] }
  - name: refused-by-the-mock
    path: /v1/chat/completions
    request: { model: gpt-4o-mini, messages: "not a list" }
`,
    );
    try {
      const results = await runDrift({ upstream: `http://127.0.0.1:${(retiring.address() as AddressInfo).port}`, fixtures: [dir] });
      expect(driftExitCode(results)).toBe(1);
      expect(results.map((result) => result.findings)).toEqual([[], []]);
      const text = driftReport(results, 'text');
      expect(text).toContain('could not compare: the upstream answered 404: The model retired-model does not exist. where the other answered 200');
      expect(text).toMatch(/could not compare: the mock answered 400: .*messages.* where the other answered 200/);
      expect(text.trimEnd().split('\n').at(-1)).toBe('2 requests asked; 2 findings in 2 of them; 2 could not be compared.');
      expect(JSON.parse(driftReport(results.slice(0, 1), 'json'))).toMatchObject({ requests: 1, findings: 1, not_compared: 1 });
      expect(driftReport(results.slice(0, 1), 'text').trimEnd().split('\n').at(-1)).toBe('1 request asked; 1 finding in 1 of them; 1 could not be compared.');
    } finally {
      await new Promise<void>((done) => retiring.close(() => done()));
    }
  });
});

describe('a drift: entry that the schema refuses', () => {
  it('fails validation with the field named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgm-drift-bad-'));
    mkdirSync(join(dir, 'fixtures'));
    writeFileSync(join(dir, 'fixtures', 'bad.yaml'), 'drift:\n  - path: v1/chat/completions\n    request: {}\n');
    // What `validate` prints, one line per problem.
    const problems = loadSettledConfig({ fixturesDirs: [join(dir, 'fixtures')], scenariosDirs: [] }).problems.map(formatProblem);
    expect(problems).toEqual([expect.stringMatching(/bad\.yaml:2:\d+: drift\[0\]\.path: /)]);
  });
});
