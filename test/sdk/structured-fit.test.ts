// Structured output is always a fitting document (SPEC 20): a text fixture whose reply is no such
// document does not answer a request that asks for one (near miss `format`); the generator does.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { shippedFixtureFiles } from '../helpers/shipped.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const OWN = `
chat:
  - name: json-answer
    match: { model: gpt-4.1, contains: "city facts" }
    reply: { text: '{"city":"Oslo","population":700000}' }
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'shipped/chat.yaml': shippedFixtureFiles()['shipped/chat.yaml']!, 'own.yaml': OWN } });
});
afterAll(() => server.close());

async function lastEntry(session: string): Promise<{ fixture: string | null; near_miss?: { fixture: string; failed: string[] } }> {
  const { requests } = (await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Array<{ fixture: string | null; near_miss?: { fixture: string; failed: string[] } }> };
  return requests.at(-1)!;
}

const City = z.object({ city: z.string(), population: z.number() });

describe('structured output', () => {
  it('lets chat.completions.parse() read the repo\'s greeting example: the greeting text does not answer, the generator does', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', defaultHeaders: { 'x-mock-session': 'parse' } });
    const completion = await client.chat.completions.parse({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
      response_format: zodResponseFormat(City, 'city'),
    });
    expect(City.safeParse(completion.choices[0]!.message.parsed).success).toBe(true);
    expect(await lastEntry('parse')).toMatchObject({ fixture: null, near_miss: { fixture: 'greeting', failed: ['format'] } });
  });

  it('answers json_object with the generator rather than plain text, and a fitting fixture as written', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k' });
    const plain = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], response_format: { type: 'json_object' } });
    expect(JSON.parse(plain.choices[0]!.message.content!)).toBeTypeOf('object');
    const fitting = await client.chat.completions.parse({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'city facts' }], response_format: zodResponseFormat(City, 'city') });
    expect(fitting.choices[0]!.message.parsed).toEqual({ city: 'Oslo', population: 700000 });
  });

  it('does the same for output_config.format in the messages style, whole and streamed', async () => {
    const client = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    const body = { model: 'claude-sonnet-4-6', max_tokens: 200, messages: [{ role: 'user' as const, content: 'hello' }], output_config: { format: { type: 'json_schema' as const, schema } } };
    const whole = await client.messages.create(body);
    const streamed = await client.messages.stream(body).finalMessage();
    for (const message of [whole, streamed]) {
      const block = message.content[0] as Anthropic.TextBlock;
      expect(JSON.parse(block.text)).toHaveProperty('answer');
    }
  });
});
