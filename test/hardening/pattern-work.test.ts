// A pattern's cost is its compiled size times the text's length (SPEC 11 "Time"): a program past
// the bound is a load error (a 400 at run time), a pattern sees only the first 10,000 characters,
// and the patterns tried for one request share one budget, so no fixture set and no message can
// hold the event loop. Each test asserts the bound itself; the time is measured by the bench.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { formatProblem } from '../../src/config/store.js';
import { PATTERN_LIMITS } from '../../src/conversation/pattern-work.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: { 'marks.yaml': 'chat:\n  - name: mark\n    match: { pattern: "MARK-(?<n>\\\\d+)" }\n    reply: { text: "mark {{n}}" }\n' },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const ask = async (content: string, session: string) => {
  const { data, response } = await client.chat.completions
    .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }, { headers: { 'x-mock-session': session } })
    .withResponse();
  return { text: data.choices[0]!.message.content, source: response.headers.get('x-mock-source'), id: response.headers.get('x-request-id') };
};

const addFixtures = (session: string, chat: unknown[]) =>
  server.admin(`/fixtures?session=${session}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat }) });

describe('pattern bounds', () => {
  it('a pattern whose program passes the bound is a load error at file:line:col naming it, and a 400 at run time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgm-pattern-size-'));
    writeFileSync(join(dir, 'big.yaml'), 'chat:\n  - name: big\n    match:\n      pattern: "[a-z]{1,1000}x"\n    reply: { text: x }\n');
    const output = loadConfig({ fixturesDirs: [dir], scenariosDirs: [] }).problems.map(formatProblem).join('\n');
    expect(output).toMatch(new RegExp(`big\\.yaml:4:16: chat\\[0\\]\\.match\\.pattern: .*2002 instructions, past the limit of ${PATTERN_LIMITS.programSize}`));

    const refused = await addFixtures('big', [{ match: { pattern: '(?:\\w+\\s+){1,500}z' }, reply: { text: 'x' } }]);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/chat\[0\]\.match\.pattern: .*past the limit of 400/);
    const glob = await addFixtures('big', [{ match: { model: `gpt-${'?'.repeat(500)}` }, reply: { text: 'x' } }]);
    expect(glob.status).toBe(400);
    expect(await glob.text()).toMatch(/chat\[0\]\.match\.model: .*past the limit of 400/);
  });

  it('a pattern sees the first 10,000 characters of the message', async () => {
    const pad = 'z'.repeat(PATTERN_LIMITS.textChars - 10);
    expect(await ask(`${pad} MARK-7`, 'cut')).toMatchObject({ text: 'mark 7', source: 'fixture:mark' });
    const late = await ask(`${pad}${'z'.repeat(20)} MARK-7`, 'cut');
    expect(late.source).toBe('generated');
  });

  it('the patterns tried for one request share one budget: past it a pattern is not run', async () => {
    // Each costs about 390 instructions a character: on 10,000 characters the first spends
    // nearly all of the request's budget, so the second is not run; on a short message both are.
    const added = await addFixtures('budget', [
      { name: 'never', priority: 2, match: { pattern: '(?:[a-z]|\\d){1,190}Q' }, reply: { text: 'never' } },
      { name: 'bang', priority: 1, match: { pattern: '(?<word>[a-z]{1,190})!' }, reply: { text: 'bang {{word}}' } },
    ]);
    expect(added.status).toBe(201);
    expect(await ask('hello!', 'budget')).toMatchObject({ text: 'bang hello', source: 'fixture:bang' });

    const long = await ask(`${'ab1c2d3 '.repeat(1240)}hello!`, 'budget');
    expect(long.source).toBe('generated');
    const journal = (await (await server.admin(`/requests?session=budget`)).json()) as { requests: Array<{ id: string; near_miss: unknown }> };
    expect(journal.requests.find((entry) => entry.id === long.id)?.near_miss).toMatchObject({ failed: ['pattern'] });
  });
});
