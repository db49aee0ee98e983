// A client's schema that asks for more than the mock generates (a huge minLength, minItems or
// minProperties, a pattern whose shortest match is too long, nested minimums that multiply past
// 1 MB or 20,000 values) is refused with a 400 in the style's envelope naming the schema path and the limit, at
// once, while a health request sent alongside answers too. Inside the bounds the JSON validates.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../../src/conversation/generation-budget.js';
import { compileSchema } from '../conversation/schema-validation.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let openai: OpenAI;

beforeAll(async () => {
  server = await startTestServer();
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

/** Runs the attack with a health request alongside; both must settle, and health must be fine. */
async function withHealth<T>(attack: () => Promise<T>): Promise<unknown> {
  const started = performance.now();
  const [outcome, health] = await Promise.all([attack().then((value) => value, (error: unknown) => error), server.admin('/health')]);
  expect(health.status).toBe(200);
  // Generous: an unbounded attack held the server for minutes.
  expect(performance.now() - started).toBeLessThan(5000);
  return outcome;
}

const string = (extra: object) => ({ type: 'object', properties: { a: { type: 'string', ...extra } }, required: ['a'], additionalProperties: false });
const array = (minItems: number) => ({ type: 'object', properties: { xs: { type: 'array', minItems, items: { type: 'integer' } } }, required: ['xs'], additionalProperties: false });

const ATTACKS: Array<{ name: string; schema: object; path: string; limit: string }> = [
  { name: 'minLength 1,000,000', schema: string({ minLength: 1_000_000 }), path: 'properties.a.minLength', limit: '100000' },
  { name: 'minLength 1e9', schema: string({ minLength: 1e9 }), path: 'properties.a.minLength', limit: '100000' },
  { name: 'minItems 1e8', schema: array(1e8), path: 'properties.xs.minItems', limit: '10000' },
  { name: 'minItems 10,001', schema: array(10_001), path: 'properties.xs.minItems', limit: '10000' },
  { name: 'pattern a{100000000}', schema: string({ pattern: '^a{100000000}$' }), path: 'properties.a.pattern', limit: '100000' },
  { name: 'nested pattern repeats', schema: string({ pattern: '(ab{1000}){1000}' }), path: 'properties.a.pattern', limit: '100000' },
  { name: 'minProperties 1e7', schema: { type: 'object', minProperties: 1e7, additionalProperties: { type: 'string' } }, path: 'minProperties', limit: '10000' },
  {
    name: 'nested minimums multiplying past 1 MB',
    schema: { type: 'array', minItems: 2000, items: { type: 'array', minItems: 2000, items: { type: 'integer' } } },
    path: '',
    limit: '1000000',
  },
  {
    // Under 1 MB of JSON, but about a microsecond of work for each of the 360,000 integers.
    name: 'nested minimums multiplying past 20,000 values',
    schema: { type: 'array', minItems: 600, items: { type: 'array', minItems: 600, items: { type: 'integer', minimum: 0, maximum: 9 } } },
    path: '',
    limit: 'at most 20000',
  },
];

describe('a schema past the generation budget', () => {
  it.each(ATTACKS)('chat-completions response_format: $name', async ({ schema, path, limit }) => {
    const error = await withHealth(() =>
      openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
        response_format: { type: 'json_schema', json_schema: { name: 'out', schema: schema as Record<string, unknown> } },
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const { code, param, message } = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(code).toBe('generation_budget_exceeded');
    expect(param).toBe(['response_format.json_schema.schema', path].filter(Boolean).join('.'));
    expect(message).toContain(limit);
  });

  it('chat-completions: a required tool with minItems 1e8', async () => {
    const error = await withHealth(() =>
      openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: 'f', parameters: array(1e8) } }],
        tool_choice: 'required',
      }),
    );
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('tools[0].function.parameters.properties.xs.minItems');
  });

  it('chat-completions: the same tool, not required, is never generated from and answers 200', async () => {
    const reply = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: array(1e8) } }],
      tool_choice: 'none',
    });
    expect(reply.choices[0]!.message.content).toBeTruthy();
  });

  it('responses text.format and a named function tool', async () => {
    const format = await withHealth(() =>
      openai.responses.create({ model: 'gpt-4o-mini', input: 'hi', text: { format: { type: 'json_schema', name: 'out', schema: string({ minLength: 5e6 }) } } }),
    );
    expect((format as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('text.format.schema.properties.a.minLength');
    const tool = await withHealth(() =>
      openai.responses.create({
        model: 'gpt-4o-mini',
        input: 'hi',
        tools: [{ type: 'web_search' }, { type: 'function', name: 'f', parameters: array(5e7), strict: false }],
        tool_choice: { type: 'function', name: 'f' },
      }),
    );
    expect((tool as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('tools[1].parameters.properties.xs.minItems');
  });

  it('messages: output_config.format and tool_choice any, in the messages envelope', async () => {
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'sk-test', maxRetries: 0 });
    const error = await withHealth(() =>
      anthropic.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ name: 'f', input_schema: { type: 'object', properties: { s: { type: 'string', pattern: 'x{2000000}' } } } }],
        tool_choice: { type: 'any' },
      }),
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const body = (error as InstanceType<typeof Anthropic.BadRequestError>).error as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain("tools[0].input_schema.properties.s.pattern");
  });

  it('generate-content: responseSchema, in the Gemini envelope', async () => {
    const genai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url } });
    const error = await withHealth(() =>
      genai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: 'hi',
        config: { responseMimeType: 'application/json', responseSchema: { type: 'ARRAY', minItems: '100000000', items: { type: 'STRING' } } as never },
      }),
    );
    expect(String((error as Error).message)).toContain('generationConfig.responseSchema.minItems');
    expect((error as { status?: number }).status).toBe(400);
  });
});

describe('inside the budget', () => {
  it('generates JSON that still validates, near each bound', async () => {
    const schema = {
      type: 'object',
      properties: {
        long: { type: 'string', minLength: 90_000 },
        coded: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
        many: { type: 'array', minItems: 5000, items: { type: 'integer', minimum: 0, maximum: 9 } },
      },
      required: ['long', 'coded', 'many'],
      additionalProperties: false,
    };
    const reply = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      max_completion_tokens: 100_000,
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema } },
    });
    const value = JSON.parse(reply.choices[0]!.message.content!) as { long: string; many: number[] };
    const validate = compileSchema(schema, '2020-12');
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    expect(value.long.length).toBeGreaterThanOrEqual(90_000);
    expect(value.many.length).toBeGreaterThanOrEqual(5000);
  });

  it('adds to the minimums only up to the values bound: arrays without maxItems nested deep stay within it', async () => {
    // Each level holds two or three arrays: 16,383 values at least, about 250,000 if every level took its pick.
    let schema: Record<string, unknown> = { type: 'integer', minimum: 0, maximum: 9 };
    for (let level = 0; level < 13; level++) schema = { type: 'array', minItems: 2, items: schema };
    const reply = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      max_completion_tokens: 200_000,
      messages: [{ role: 'user', content: 'a deep tree' }],
      response_format: { type: 'json_schema', json_schema: { name: 'tree', schema } },
    });
    expect(reply.choices[0]!.finish_reason).toBe('stop');
    const value: unknown = JSON.parse(reply.choices[0]!.message.content!);
    const validate = compileSchema(schema, '2020-12');
    expect(validate(value), JSON.stringify(validate.errors).slice(0, 500)).toBe(true);
    const values = (node: unknown): number => (Array.isArray(node) ? 1 + node.reduce((sum: number, item) => sum + values(item), 0) : 1);
    expect(values(value)).toBeGreaterThan(16_383);
    // Items past the minimums start only below the bound; past it, what is left is at most the
    // minimums of the items started (the whole schema's, and one extra subtree's).
    expect(values(value)).toBeLessThanOrEqual(20_000 + 2 * 16_383);
  });

  it('answers a pattern built to make a backtracking engine hang, at once, with health alongside', async () => {
    const reply = await withHealth(() =>
      openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
        response_format: { type: 'json_schema', json_schema: { name: 'out', schema: string({ pattern: '^(((a+)+)+)+\\bc$' }) } },
      }),
    );
    expect((reply as OpenAI.ChatCompletion).choices[0]!.message.content).toMatch(/^\{"a":/);
  });

  it('judges enums and alternations longer than a call takes arguments without a 500', () => {
    expect(() => checkSchema({ type: 'string', enum: Array.from({ length: 300_000 }, (_, i) => `v${i}`) }, 'schema')).not.toThrow();
    expect(() => checkSchema({ type: 'string', pattern: Array.from({ length: 300_000 }, (_, i) => `a${i}`).join('|') }, 'schema')).not.toThrow();
    expect(() => checkSchema({ anyOf: Array.from({ length: 200_000 }, () => ({ type: 'integer' })) }, 'schema')).toThrow(/too complex/);
  });

  it('refuses a $ref graph that doubles at every level, by its size, not by generating it', () => {
    const defs = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`d${i}`, { type: 'object', properties: { a: { $ref: `#/$defs/d${i + 1}` }, b: { $ref: `#/$defs/d${i + 1}` } }, required: ['a', 'b'] }]),
    );
    expect(() => checkSchema({ $defs: defs, $ref: '#/$defs/d0' }, 'schema')).toThrow(/schema/);
  });
});
