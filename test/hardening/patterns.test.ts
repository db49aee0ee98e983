// A fixture's `pattern` runs in time linear in the text (RE2), so a pattern that backtracks
// catastrophically in JavaScript (`^(a+)+$`) cannot hold the event loop, from a file or from
// POST /__admin/fixtures; patterns RE2 cannot run are refused at load at their file:line:col.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { formatProblem } from '../../src/config/store.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: {
      'evil.yaml': 'chat:\n  - name: evil\n    match: { pattern: "^(a+)+$" }\n    reply: { text: "all a" }\n  - name: city\n    match: { pattern: "weather in (?<city>[A-Za-z]+)" }\n    reply: { text: "Sunny in {{city}}." }\n',
    },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const ask = (content: string, session = 'default') =>
  client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }, { headers: { 'x-mock-session': session } });

// 40 characters take JavaScript's backtracking engine days; this test would not end without RE2.
const NASTY = `${'a'.repeat(40)}!`;

describe('catastrophic patterns', () => {
  it('a file fixture with ^(a+)+$ answers a nasty text and still matches what it should', async () => {
    const missed = await ask(NASTY);
    expect(missed.choices[0]!.message.content).not.toBe('all a');
    const hit = await ask('a'.repeat(40));
    expect(hit.choices[0]!.message.content).toBe('all a');
  });

  it('named groups still feed templates', async () => {
    const reply = await ask('What is the weather in Lisbon?');
    expect(reply.choices[0]!.message.content).toBe('Sunny in Lisbon.');
  });

  it('a run-time fixture of one session cannot hold a client of another', async () => {
    const added = await server.admin('/fixtures?session=evil', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat: [{ name: 'evil-runtime', match: { pattern: '^(\\w+\\s?)*$' }, reply: { text: 'held' } }] }),
    });
    expect(added.status).toBe(201);
    const [evil, other] = await Promise.all([ask(`${'word '.repeat(30)}!`, 'evil'), ask('hello', 'other')]);
    expect(evil.choices[0]!.message.content).not.toBe('held');
    expect(other.choices[0]!.message.content).toBeTruthy();
  });

  it('a pattern RE2 cannot run is refused at load with file:line:col, and by the admin API', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgm-pattern-'));
    writeFileSync(join(dir, 'back.yaml'), 'chat:\n  - name: back\n    match:\n      pattern: "(a)\\\\1"\n    reply: { text: x }\n');
    const output = loadConfig({ fixturesDirs: [dir], scenariosDirs: [] }).problems.map(formatProblem).join('\n');
    expect(output).toMatch(/back\.yaml:4:16: chat\[0\]\.match\.pattern: .*bounded time/);
    const refused = await server.admin('/fixtures', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat: [{ match: { pattern: '(?=a)b' }, reply: { text: 'x' } }] }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('chat[0].match.pattern');
  });
});
