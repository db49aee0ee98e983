// A large JSON body is parsed a span at a time (SPEC 11, "Time"): other work runs between the
// spans, and the value, or the error a client is told, is the one JSON.parse gives the whole text.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finished } from '../../src/conversation/steps.js';
import { parseJsonText } from '../../src/server/json-body.js';
import { jsonSteps } from '../../src/server/json-slices.js';
import { turnsWhile } from '../helpers/turns.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const MB = 1024 * 1024;

/** What the sliced walk makes of `text`, run at once. */
const walked = (text: string): unknown => finished(jsonSteps(text, 128));

/** Strings whose escapes, surrogate pairs and backslash runs fall at every offset of a cut. */
function awkwardString(length: number, salt: number): string {
  const parts = ['\\', '"', '\n', '\u00e9', '\u{1F4E6}', '\\\\', '\u0001', 'plain text ', '\ud83d'];
  let text = '';
  for (let i = 0; text.length < length; i++) text += parts[(i * 7 + salt) % parts.length]!.repeat(1 + ((i + salt) % 5));
  return text;
}

describe('a large body parsed a span at a time', () => {
  it('makes what JSON.parse makes of the whole text', () => {
    const bodies = [
      { model: 'omni-moderation-latest', input: Array.from({ length: 120_000 }, (_, i) => `hi ${i}`) },
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: awkwardString(3 * MB, 1) }] },
      { a: awkwardString(200_000, 2), 7: [1.5e300, -0, true, null, false, {}, [], ''], nested: { deep: [[[{ x: awkwardString(100_000, 3) }]]] }, 3: 'int key' },
      Array.from({ length: 40 }, (_, i) => ({ [`k${i}`]: awkwardString(30_000 + i * 977, i), n: i, list: Array.from({ length: 500 }, (_, k) => k * 0.25) })),
    ];
    for (const body of bodies) {
      const text = JSON.stringify(body, null, bodies.indexOf(body) === 2 ? 2 : undefined);
      const value = walked(text);
      expect(value).toEqual(JSON.parse(text));
      expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
    }
  });

  it('keeps the last of duplicate keys where the first stood, across spans', () => {
    const text = `{"a":"${'x'.repeat(40_000)}","b":1,"a":"${'y'.repeat(40_000)}","c":"${'z'.repeat(40_000)}","b":2}`;
    const value = walked(text);
    expect(Object.keys(value as object)).toEqual(['a', 'b', 'c']);
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('lets other work run while a large body is parsed', async () => {
    const text = JSON.stringify({ model: 'omni-moderation-latest', input: Array.from({ length: 200_000 }, (_, i) => `hi ${i}`) });
    const parsed = parseJsonText(text);
    expect(await turnsWhile(parsed)).toBeGreaterThan(0);
    expect((await parsed).body).toEqual(JSON.parse(text));
  });

  it('refuses a __proto__ key, spelled plainly or with escapes, deep or not', async () => {
    const filler = 'x'.repeat(MB);
    for (const key of ['"__proto__"', '"\\u005f\\u005fproto\\u005F\\u005F"']) {
      for (const text of [`{"a":"${filler}",${key}:{"polluted":true}}`, `{"a":[{"b":"${filler}"},{${key}:1}]}`, `{${key}:"${filler}"}`]) {
        await expect(Promise.resolve().then(() => parseJsonText(text))).rejects.toThrow('Object contains forbidden prototype property');
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers a malformed large body with the error JSON.parse gives the whole text', async () => {
    const filler = 'x'.repeat(MB);
    const texts = [`{"a":"${filler}",}`, `{"a":"${filler}" "b":1}`, `[1,2,"${filler}",tru]`, `{"a":"${filler}\\q"}`, `{"a":"${filler}`, `[${'1,'.repeat(400_000)}]`, `{"a":"${filler}"} x`];
    for (const text of texts) {
      let expected = '';
      try {
        JSON.parse(text);
      } catch (error) {
        expected = (error as Error).message;
      }
      expect(expected).not.toBe('');
      await expect(Promise.resolve().then(() => parseJsonText(text))).rejects.toThrow(expected);
    }
  });
});

describe('a large body through the SDK', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ fixtureFiles: { 'chat.yaml': 'chat:\n  - name: large\n    match: { contains: "the large question" }\n    reply: { text: "A large answer." }\n' } });
  });
  afterAll(() => server.close());

  it('matches a fixture in a message of several megabytes', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' });
    const content = `${awkwardString(3 * MB, 4)} THE LARGE QUESTION`;
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });
    expect(completion.choices[0]!.message.content).toBe('A large answer.');
  });

  it('refuses a __proto__ key in a large body with the small body\'s 400', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const large = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'x'.repeat(MB) }], metadata: JSON.parse('{"__proto__":{"admin":true}}') };
    const error = await client.chat.completions.create(large).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('Object contains forbidden prototype property');
  });
});
