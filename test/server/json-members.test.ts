// A large body's long members met lately (an agent's system prompt and tools, sent again with every
// turn) are taken as they were parsed then, shared and frozen; the body is still exactly what
// JSON.parse makes of its text, and every style answers it again through its SDK.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonText } from '../../src/server/json-body.js';
import { parsedByMembers } from '../../src/server/json-members.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const GUIDANCE = 'Read a file before you edit it; keep changes small and tested. ';
const prompt = (salt: string) => `${salt} ${GUIDANCE.repeat(1600)}`;
const tools = Array.from({ length: 25 }, (_, i) => ({
  name: `Tool${i}`,
  description: GUIDANCE.repeat(4),
  input_schema: { type: 'object', properties: { path: { type: 'string', description: `The path ${i}.` } }, required: ['path'] },
}));
const parsed = async (text: string) => (await parseJsonText(text)).body as Record<string, unknown>;

describe('a large body parsed a member at a time', () => {
  it('makes what JSON.parse makes, in any order, with duplicate keys and changed members', async () => {
    const system = prompt('members-1');
    const bodies = [
      { model: 'm', system, tools, messages: [{ role: 'user', content: 'one' }] },
      { messages: [{ role: 'user', content: 'two' }], tools, model: 'm', system },
      { model: 'm', system: `${system}!`, tools: tools.slice(1), messages: [] },
    ].map((body) => JSON.stringify(body));
    bodies.push(`{"system":${JSON.stringify(system)},"model":"a","system":"short","n":1e400,"s":"\\ud800"}`);
    for (const text of [...bodies, ...bodies]) expect(await parsed(text)).toEqual(JSON.parse(text));
  });

  it('takes a long member met lately as the very value, frozen, and nothing that merely starts like it', async () => {
    const digits = '7'.repeat(70_000);
    const first = await parsed(JSON.stringify({ model: 'm', tools, system: prompt('members-2'), n: 1 }).replace('"n":1', `"n":${digits}`));
    const second = await parsed(JSON.stringify({ tools, model: 'm', system: prompt('members-2'), n: 1 }).replace('"n":1', `"n":${digits}8`));
    expect(second.tools).toBe(first.tools);
    expect(second.system).toBe(first.system);
    expect(Object.isFrozen(second.tools) && Object.isFrozen((second.tools as object[])[3])).toBe(true);
    expect(second.n).toBe(Number(`${digits}8`));
  });

  it('refuses a __proto__ key, plain or escaped, beside members met lately, as bourne does', async () => {
    const system = prompt('members-3');
    await parsed(JSON.stringify({ system, tools }));
    for (const key of ['"__proto__"', '"\\u005f_proto__"']) {
      for (const text of [`{"system":${JSON.stringify(system)},${key}:{"polluted":true}}`, `{"system":${JSON.stringify(system)},"x":{${key}:1}}`]) {
        await expect(Promise.resolve().then(() => parseJsonText(text))).rejects.toThrow('Object contains forbidden prototype property');
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parses each run of short members between long ones in one call, however many keys it has', () => {
    const small = (from: number) => Array.from({ length: 3000 }, (_, i) => `"k${from + i}":[${i},"v${i}"]`).join(' , ');
    const system = JSON.stringify(prompt('members-5'));
    const texts = [`{${small(0)},"system":${system},${small(0)},"last":{"a":1}}`, `{ ${small(5000)} }`];
    for (const text of texts) {
      const parses: string[] = [];
      const body = parsedByMembers(text, (json) => (parses.push(json), JSON.parse(json)));
      expect(body).toEqual(JSON.parse(text));
      expect(Object.keys(body!)).toEqual(Object.keys(JSON.parse(text) as object));
      expect(parses.length).toBe(text.includes('"system"') ? 3 : 1);
    }
  });

  it('answers a malformed body with the error JSON.parse gives the whole text', async () => {
    const system = prompt('members-4');
    await parsed(JSON.stringify({ system, tools }));
    for (const text of [`{"system":${JSON.stringify(system)},"tools":[1,]}`, `{"system":${JSON.stringify(system)} "x":1}`, `{"system":${JSON.stringify(system)}} x`]) {
      let expected = '';
      try {
        JSON.parse(text);
      } catch (error) {
        expected = (error as Error).message;
      }
      await expect(Promise.resolve().then(() => parseJsonText(text))).rejects.toThrow(expected);
    }
  });
});

describe('the same long prompt and tools sent twice', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  const twice = async <T>(ask: () => Promise<T>): Promise<T[]> => [await ask(), await ask()];

  it('is answered alike by every style', async () => {
    const system = prompt('members-sdk');
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const functions = tools.map(({ name, description, input_schema }) => ({ type: 'function' as const, function: { name, description, parameters: input_schema } }));
    const chats = await twice(() => openai.chat.completions.create({ model: 'gpt-4o-mini', tools: functions, messages: [{ role: 'system', content: system }, { role: 'user', content: 'hello' }] }));
    expect(chats[1]!.choices[0]!.message.content).toBe(chats[0]!.choices[0]!.message.content);
    expect(chats[1]!.usage).toEqual(chats[0]!.usage);

    const responseTools = tools.map(({ name, description, input_schema }) => ({ type: 'function' as const, name, description, parameters: input_schema, strict: false }));
    const responses = await twice(() => openai.responses.create({ model: 'gpt-4o-mini', instructions: system, tools: responseTools, input: 'hello' }));
    expect(responses[1]!.output_text).toBe(responses[0]!.output_text);

    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'sk-test', maxRetries: 0 });
    const messages = await twice(() => anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, system, tools: tools as Anthropic.Tool[], messages: [{ role: 'user', content: 'hello' }] }));
    expect(messages[1]!.content).toEqual(messages[0]!.content);
    expect(messages[1]!.usage.input_tokens).toBe(messages[0]!.usage.input_tokens);

    const genai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url } });
    const declarations = tools.map(({ name, description }) => ({ name, description, parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } } }));
    const contents = await twice(() => genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello', config: { systemInstruction: system, tools: [{ functionDeclarations: declarations }] } }));
    expect(contents[1]!.text).toBe(contents[0]!.text);
    expect(contents[1]!.usageMetadata?.promptTokenCount).toBe(contents[0]!.usageMetadata?.promptTokenCount);
  });
});
