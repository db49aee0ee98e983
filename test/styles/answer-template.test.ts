// A fixture's whole answer is written from a template of its JSON with holes (styles/answer-template.ts).
// Its bytes must be the encoder's: each request below is answered by a mock that has the fixture's
// template already (made for another request, in another session, with other ids and usage), and
// by another mock of the same seed and fixed clock with no template at all (the process's caches
// emptied just before), whose answer is then the encoder's own JSON.
// Same session, same counter: the two answers must be the same bytes, the same journal entry and
// the same object through the official SDK, for every style, on the plain path and through Koa.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caches } from '../../src/conversation/caches.js';
import type { ChatRequest, Reply } from '../../src/conversation/types.js';
import { templatedAnswer, type AnswerShape } from '../../src/styles/answer-template.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - match: { contains: "parcel" }
    reply: { text: "Your parcel left the depot this morning; it arrives tomorrow." }
  - match: { contains: "escapes" }
    reply: { text: "Quotes \\" and a backslash \\\\, a tab\\t, a line\\nbreak, </script>, é, 日本, 🎉 and \\u0000hole:id\\u0000." }
  - match: { contains: "filtered" }
    reply: { text: "I can't help with that.", finish_reason: content_filter }
  - match: { contains: "the forecast" }
    reply:
      tool_calls:
        - { name: get_weather, arguments: { city: Lyon } }
`;

const CLOCK = '2026-03-01T09:30:00.000Z';
/** The mock that has made its templates, and the one that answers without them. */
let warm: TestServer;
let fresh: TestServer;

beforeAll(async () => {
  const setup = { fixtureFiles: { 'chat.yaml': FIXTURES }, clock: CLOCK, seed: 7 };
  [warm, fresh] = await Promise.all([startTestServer(setup), startTestServer(setup)]);
});
afterAll(async () => {
  await Promise.all([warm.close(), fresh.close()]);
});

interface Ask {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const OPENAI = { authorization: 'Bearer sk-test' };
const ANTHROPIC = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' };
const GOOGLE = { 'x-goog-api-key': 'google-test' };

/** Each style's request saying `text`, with `extra` settings. */
const STYLES = {
  'chat-completions': (text: string, extra: Record<string, unknown> = {}): Ask => ({
    path: '/v1/chat/completions',
    headers: OPENAI,
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }], ...extra },
  }),
  responses: (text: string, extra: Record<string, unknown> = {}): Ask => ({ path: '/v1/responses', headers: OPENAI, body: { model: 'gpt-4.1', input: text, ...extra } }),
  messages: (text: string, extra: Record<string, unknown> = {}): Ask => ({
    path: '/v1/messages',
    headers: ANTHROPIC,
    body: { model: 'claude-haiku-4-5', max_tokens: 256, messages: [{ role: 'user', content: text }], ...extra },
  }),
  'generate-content': (text: string, extra: Record<string, unknown> = {}): Ask => ({
    path: '/v1beta/models/gemini-2.5-flash:generateContent',
    headers: GOOGLE,
    body: { contents: [{ role: 'user', parts: [{ text }] }], ...extra },
  }),
};

/** Settings each style's answer depends on besides the reply: each is asked after the plain request made the template. */
const SETTINGS: Record<keyof typeof STYLES, Record<string, unknown>[]> = {
  'chat-completions': [{}, { model: 'gpt-4.1' }, { service_tier: 'flex' }, { n: 2 }, { max_tokens: 4 }, { stop: ['depot'] }, { model: 'o4-mini', reasoning_effort: 'low' }, { logprobs: true, top_logprobs: 2 }],
  responses: [
    {},
    { model: 'gpt-4o-mini' },
    { instructions: 'Answer in one line.', metadata: { ticket: '42' }, temperature: 0.25, user: 'u-1', store: false },
    { max_output_tokens: 16, text: { format: { type: 'text' }, verbosity: 'low' }, tool_choice: 'none' },
    { tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } }], service_tier: 'priority' },
  ],
  messages: [{}, { model: 'claude-sonnet-4-5' }, { max_tokens: 3 }, { stop_sequences: ['depot'] }, { system: 'Be brief.' }],
  'generate-content': [{}, { generationConfig: { maxOutputTokens: 3 } }, { generationConfig: { stopSequences: ['depot'], candidateCount: 2 } }],
};

/** What the user says: a word that picks the fixture, in a prompt longer than the one the template was made for. */
const SAID = ['parcel', 'escapes', 'filtered', 'the forecast'].map((needle) => `Please, about ${needle}: where does it stand now, and what happens next?`);

async function send(server: TestServer, ask: Ask, session: string, koa: boolean): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}${ask.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mock-session': session, ...ask.headers, ...(koa ? { 'content-encoding': 'identity' } : {}) },
    body: JSON.stringify(ask.body),
  });
  return { status: response.status, text: await response.text() };
}

/** `ask`'s answer made by its encoder: the process's caches (the templates among them) emptied first. */
function withoutTemplates<T>(ask: () => Promise<T>): Promise<T> {
  caches.fitIn(0);
  return ask();
}

async function journaled(server: TestServer, session: string): Promise<unknown> {
  // The request id and the fixture's file differ between the two mocks; the answer may not.
  const { requests } = (await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Array<{ response: { status: number; body: unknown } }> };
  return requests.map(({ response }) => ({ status: response.status, body: response.body }));
}

async function answersCached(server: TestServer): Promise<number> {
  return ((await (await server.admin('/health')).json()) as { memory: { cached: Record<string, number> } }).memory.cached.answers!;
}

describe.each(Object.keys(STYLES) as Array<keyof typeof STYLES>)('%s: a whole answer from a template', (style) => {
  it.each([false, true])('is the encoder answer byte for byte, every fixture and setting (through Koa: %s)', async (koa) => {
    let asked = 0;
    for (const [fixture, said] of SAID.entries()) {
      for (const [at, extra] of SETTINGS[style].entries()) {
        // The template is made for the plain request with a short prompt, at its second answer alike, in sessions of their own.
        const plain = STYLES[style](said.split(':')[0]!);
        await withoutTemplates(() => send(warm, plain, `noted-${style}-${fixture}-${at}-${koa}`, koa));
        const made = await send(warm, plain, `made-${style}-${fixture}-${at}-${koa}`, koa);
        expect(made.status).toBe(200);
        // Its template is counted among the caches; a reply of calls is left to its encoder.
        expect(await answersCached(warm) > 0, said).toBe(!said.includes('forecast'));
        const session = `ask-${style}-${fixture}-${at}-${koa}`;
        const ask = STYLES[style](said, extra);
        const templated = await send(warm, ask, session, koa);
        const encoded = await withoutTemplates(() => send(fresh, ask, session, koa));
        expect(templated.status, `${said} ${JSON.stringify(extra)}`).toBe(encoded.status);
        expect(templated.text, `${said} ${JSON.stringify(extra)}`).toBe(encoded.text);
        expect(await journaled(warm, session)).toEqual(await journaled(fresh, session));
        asked++;
      }
    }
    expect(asked).toBe(SAID.length * SETTINGS[style].length);
  });
});

describe('through the official SDKs', () => {
  const openai = (server: TestServer, session: string) =>
    new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
  const anthropic = (server: TestServer, session: string) =>
    new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });

  it('gives the same objects from the template as from the encoder', async () => {
    const both = async <T>(ask: (server: TestServer, session: string) => Promise<T>, session: string): Promise<[T, T]> => {
      await ask(warm, `${session}-noted`);
      await ask(warm, `${session}-made`);
      const templated = await ask(warm, session);
      return [templated, await withoutTemplates(() => ask(fresh, session))];
    };
    const content = 'Please, about the parcel: is it late, and by how much?';
    const [chatA, chatB] = await both((s, id) => openai(s, id).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }), 'sdk-chat');
    expect(chatA).toEqual(chatB);
    expect(chatA.choices[0]!.message.content).toBe('Your parcel left the depot this morning; it arrives tomorrow.');
    const [respA, respB] = await both((s, id) => openai(s, id).responses.create({ model: 'gpt-4.1', input: content, instructions: 'Be kind.' }), 'sdk-responses');
    expect(respA).toEqual(respB);
    expect(respA.instructions).toBe('Be kind.');
    const [msgA, msgB] = await both((s, id) => anthropic(s, id).messages.create({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content }] }), 'sdk-messages');
    expect(msgA).toEqual(msgB);
    expect(msgA.usage.input_tokens).toBeGreaterThan(0);
  });
});

describe("the answers' memo", () => {
  // A shape of one hole, its reply's values the fixture's name: each fixture has a template of its own.
  const shape: AnswerShape<{ id: string }> = {
    holes: () => ({ id: 'chatcmpl-1' }),
    whole: (reply, _request, holes) => ({ id: holes.id, text: reply.fixture }),
    same: (reply) => [reply.fixture],
  };
  const answer = (fixture: number) => templatedAnswer('chat-completions', shape, { fixture: `ticket-${fixture}` } as Reply, {} as ChatRequest);

  it('keeps a template for each of 2,000 fixtures answered in turn', () => {
    caches.fitIn(0);
    // The first answer of each notes its values, the second makes its template, the third fills it.
    for (let round = 0; round < 2; round++) for (let fixture = 0; fixture < 2000; fixture++) answer(fixture);
    let templated = 0;
    for (let fixture = 0; fixture < 2000; fixture++) if (answer(fixture) === `{"id":"chatcmpl-1","text":"ticket-${fixture}"}`) templated++;
    expect(templated).toBe(2000);
  });

  it('keeps the templates of the fixtures met lately when new ones come past the 16,384 it holds', () => {
    caches.fitIn(0);
    const held = 16_384;
    // Two rounds give each of 16,384 fixtures its template, and the memo is full.
    for (let round = 0; round < 2; round++) for (let fixture = 0; fixture < held; fixture++) answer(fixture);
    for (let fixture = held; fixture < held + 100; fixture++) answer(fixture);
    let templated = 0;
    for (let fixture = held - 2000; fixture < held; fixture++) if (answer(fixture) === `{"id":"chatcmpl-1","text":"ticket-${fixture}"}`) templated++;
    expect(templated).toBe(2000);
  });
});
