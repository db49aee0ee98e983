// Scenario steps are checked as strictly as requests: a step that `validate` accepts can always be
// answered (valid header names and values, a status with a body, a wait a timer can hold). A
// fixture's error answer carries headers too, checked by the same rules.
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ensureBuilt } from '../helpers/built.js';
import { startTestServer } from '../helpers/server.js';
import { tempDir, validate } from './cli-run.js';

const BAD = `scenarios:
  - name: bad_header_name
    steps:
      - { error: rate_limit, headers: { "bad header": "1" } }
  - name: bad_header_value
    steps:
      - { error: server_error, headers: { x-why: "line\\nbreak" } }
  - name: informational
    steps:
      - { error: server_error, status: 101 }
  - name: no_content
    steps:
      - { fault: delay, error: server_error, status: 204 }
  - name: not_modified
    steps:
      - { error: invalid_request, status: 304 }
  - name: too_long
    steps:
      - { error: timeout, delay_ms: 3000000000 }
`;

beforeAll(ensureBuilt, 300_000);

describe('scenario steps that cannot be answered', () => {
  it('fail validate, each at file:line:col naming the allowed values, all in one pass', () => {
    const result = validate(tempDir(), tempDir({ 'bad.yaml': BAD }));
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/bad\.yaml:4:\d+: scenarios\[0\]\.steps\[0\]\.headers\.bad header: .*valid HTTP token/);
    expect(lines[1]).toMatch(/bad\.yaml:7:\d+: .*headers\.x-why: .*no line breaks/);
    for (const [i, line] of [10, 13, 16].entries()) {
      expect(lines[2 + i]).toMatch(new RegExp(`bad\\.yaml:${line}:\\d+: scenarios\\[${2 + i}\\]\\.steps\\[0\\]\\.status: .*from 200 to 599, not 204 or 304`));
    }
    expect(lines[5]).toMatch(/bad\.yaml:19:\d+: .*delay_ms: .*from 0 to 2147483647/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('accepts the bounds themselves', () => {
    const dir = tempDir({
      'ok.yaml': 'scenarios:\n  - name: edges\n    steps:\n      - { error: server_error, status: 599, headers: { x-ok: "a b\\tc" } }\n      - { error: rate_limit, status: 200 }\n      - { fault: delay, delay_ms: 2147483647 }\n',
    });
    expect(loadConfig({ fixturesDirs: [tempDir()], scenariosDirs: [dir] }).problems).toEqual([]);
  });
});

const BAD_FIXTURE_ERRORS = `chat:
  - match: { contains: name }
    reply: { error: { kind: rate_limit, headers: { "retry after": "1" } } }
  - match: { contains: value }
    reply:
      error:
        kind: server_error
        headers: { x-why: "bell\\u0007" }
`;

describe('fixture errors whose headers cannot be sent', () => {
  it('fail validate at file:line:col, as a scenario step\'s do', () => {
    const result = validate(tempDir({ 'bad.yaml': BAD_FIXTURE_ERRORS }));
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/bad\.yaml:3:\d+: chat\[0\]\.reply\.error\.headers\.retry after: .*valid HTTP token/);
    expect(lines[1]).toMatch(/bad\.yaml:8:\d+: chat\[1\]\.reply\.error\.headers\.x-why: .*no line breaks or control characters/);
  });

  it('are sent as written when valid', async () => {
    const server = await startTestServer({
      fixtureFiles: { 'ok.yaml': 'chat:\n  - match: { contains: slow }\n    reply: { error: { kind: rate_limit, headers: { retry-after: "7", x-why: "a b\\tc" } } }\n' },
    });
    try {
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
      const refused = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'slow down' }] }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
      const { headers } = refused as InstanceType<typeof OpenAI.RateLimitError>;
      expect([headers.get('retry-after'), headers.get('x-why')]).toEqual(['7', 'a b\tc']);
    } finally {
      await server.close();
    }
  });
});
