// Hot reload: a change is served on the next request; a bad file keeps the last good config and
// is reported with file, line and column; fixing it serves again. Waits on the reload counter.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

const fixture = (text: string) => `chat:\n  - name: reloadable\n    match: { contains: "reload" }\n    reply: { text: "${text}" }\n`;

async function ask(): Promise<string | null> {
  const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'reload?' }] });
  return completion.choices[0]!.message.content;
}

interface Health {
  status: string;
  reloads: number;
  loaded_at: string;
  files: string[];
  errors: Array<{ file: string; line: number; col: number; message: string }>;
}

async function health(): Promise<Health> {
  return (await (await server.admin('/health')).json()) as Health;
}

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': fixture('first') } });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

describe('hot reload', () => {
  it('serves a changed fixture on the next request', async () => {
    expect(await ask()).toBe('first');
    await server.writeFixture('chat.yaml', fixture('second'));
    expect(await ask()).toBe('second');
    const report = await health();
    expect(report.status).toBe('ok');
    expect(report.errors).toEqual([]);
    expect(report.files.some((f) => f.endsWith('chat.yaml'))).toBe(true);
  });

  it('keeps the last good config when a file breaks, and reports where', async () => {
    const before = (await health()).reloads;
    await server.writeFixture('chat.yaml', 'chat:\n  - name: broken\n    reply: { text: [unclosed\n');
    const report = await health();
    expect(report.reloads).toBeGreaterThan(before);
    expect(report.status).toBe('degraded');
    expect(report.errors.length).toBeGreaterThan(0);
    expect(report.errors[0]!.file).toMatch(/chat\.yaml$/);
    expect(report.errors[0]!.line).toBeGreaterThanOrEqual(3);
    expect(await ask()).toBe('second');
  });

  it('reports a schema error at the line and column of the bad value', async () => {
    await server.writeFixture('chat.yaml', 'chat:\n  - name: typed\n    match:\n      turn: "three"\n    reply: { text: x }\n');
    const [error] = (await health()).errors;
    expect(error).toMatchObject({ line: 4, col: 13 });
    expect(error!.message).toContain('chat[0].match.turn');
    expect(await ask()).toBe('second');
  });

  it('reports an unknown template name at its line', async () => {
    await server.writeFixture('chat.yaml', 'chat:\n  - match: { contains: reload }\n    reply:\n      text: "Hi {{nobody}}"\n');
    const [error] = (await health()).errors;
    expect(error).toMatchObject({ line: 4 });
    expect(error!.message).toContain('{{nobody}}');
  });

  it('serves again once the file is fixed', async () => {
    await server.writeFixture('chat.yaml', fixture('third'));
    expect((await health()).errors).toEqual([]);
    expect((await health()).status).toBe('ok');
    expect(await ask()).toBe('third');
  });

  it('reports every problem of every file in one reload, whatever stage finds it, naming the allowed values', async () => {
    await server.writeFixture('chat.yaml', 'chat:\n  - match: { contians: reload }\n    reply: { text: x }\n');
    await server.writeFixture('more.yaml', 'chat:\n  - reply:\n      text: "Hi {{nobody}}"\nimages:\n  - reply: { file: ../outside.png }\n');
    await server.writeScenario('steps.yaml', 'scenarios:\n  - name: s\n    steps: [ { error: rate_limt }, { error: rate_limit, times: two } ]\n');
    const report = await health();
    expect(report.status).toBe('degraded');
    const shown = report.errors.map((e) => `${e.file.split('/').at(-1)}:${e.line}: ${e.message}`);
    expect(shown).toEqual([
      expect.stringMatching(/^chat\.yaml:2: chat\[0\]\.match: unknown key "contians"; allowed keys: style, model, contains, /),
      expect.stringMatching(/^more\.yaml:3: .*\{\{nobody\}\}/),
      expect.stringMatching(/^more\.yaml:5: images\[0\]\.reply\.file: "\.\.\/outside\.png" is outside the fixtures directory$/),
      expect.stringMatching(/^steps\.yaml:3: scenarios\[0\]\.steps\[0\]\.error: expected one of "invalid_request", .*"timeout", got string "rate_limt"$/),
      expect.stringMatching(/^steps\.yaml:3: scenarios\[0\]\.steps\[1\]\.times: expected an integer, got string "two"$/),
    ]);
    await server.writeScenario('steps.yaml', 'scenarios: []\n');
    await server.removeFixture('more.yaml');
    await server.writeFixture('chat.yaml', fixture('third'));
    expect((await health()).status).toBe('ok');
  });

  it('picks up a new file and forgets a removed one', async () => {
    await server.writeFixture('extra.yaml', 'chat:\n  - match: { contains: extra }\n    reply: { text: "from extra" }\n');
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'extra' }] });
    expect(completion.choices[0]!.message.content).toBe('from extra');
    expect((await health()).files.some((f) => f.endsWith('extra.yaml'))).toBe(true);
    await server.removeFixture('extra.yaml');
    const after = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'extra' }] });
    expect(after.choices[0]!.message.content).not.toBe('from extra');
    expect((await health()).files.some((f) => f.endsWith('extra.yaml'))).toBe(false);
  });
});
