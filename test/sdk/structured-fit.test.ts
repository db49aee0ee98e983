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
  - name: order-bad-sku
    match: { contains: "order with a bad sku" }
    reply: { text: '{"items":[{"sku":"abc","size":"M"},{"sku":"XY-12","size":"L"}]}' }
  - name: order-one-item
    match: { contains: "order with one item" }
    reply: { text: '{"items":[{"sku":"XY-12","size":"M"}]}' }
  - name: order-bad-size
    match: { contains: "order with a bad size" }
    reply: { text: '{"items":[{"sku":"XY-12","size":"M"},{"sku":"ZZ-01","size":"XXL"}]}' }
  - name: order-good
    match: { contains: "order that fits" }
    reply: { text: '{"items":[{"sku":"XY-12","size":"M"},{"sku":"ZZ-01","size":"S"}]}' }
`;

/** An order's schema whose constraints sit below its top level: in each array item, and on the array. */
const ORDER = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      minItems: 2,
      items: {
        type: 'object',
        properties: { sku: { type: 'string', pattern: '^[A-Z]{2}-\\d{2}$' }, size: { type: 'string', enum: ['S', 'M', 'L'] } },
        required: ['sku', 'size'],
        additionalProperties: false,
      },
    },
  },
  required: ['items'],
  additionalProperties: false,
};

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

  it.each([
    ['a pattern', 'order with a bad sku', 'order-bad-sku'],
    ['minItems', 'order with one item', 'order-one-item'],
    ['an enum inside an array item', 'order with a bad size', 'order-bad-size'],
  ])('judges the whole schema: a reply breaking %s deep inside does not answer, the generator does', async (_constraint, ask, fixture) => {
    const session = `deep-${fixture}`;
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', defaultHeaders: { 'x-mock-session': session } });
    const completion = await client.chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: ask }],
      response_format: { type: 'json_schema', json_schema: { name: 'order', schema: ORDER, strict: true } },
    });
    expect(await lastEntry(session)).toMatchObject({ fixture: null, near_miss: { fixture, failed: ['format'] } });
    const order = JSON.parse(completion.choices[0]!.message.content!) as { items: Array<{ sku: string; size: string }> };
    expect(order.items.length).toBeGreaterThanOrEqual(2);
    for (const item of order.items) {
      expect(item.sku).toMatch(/^[A-Z]{2}-\d{2}$/);
      expect(['S', 'M', 'L']).toContain(item.size);
    }
  });

  it('answers from a fixture whose reply fits the whole schema, through the responses style too', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', defaultHeaders: { 'x-mock-session': 'deep-fits' } });
    const response = await client.responses.create({ model: 'gpt-4.1', input: 'An order that fits, please.', text: { format: { type: 'json_schema', name: 'order', schema: ORDER, strict: true } } });
    expect(JSON.parse(response.output_text)).toEqual({ items: [{ sku: 'XY-12', size: 'M' }, { sku: 'ZZ-01', size: 'S' }] });
    expect(await lastEntry('deep-fits')).toMatchObject({ fixture: 'order-good' });
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
