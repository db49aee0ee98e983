// schema_violation on structured output in every style that asks for it (text.format,
// output_config.format, responseSchema, response_format), each `violation:` choice through the
// style's SDK: the text parses and breaks the request's schema exactly the chosen way.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, Type } from '@google/genai';
import { Ajv, type ErrorObject } from 'ajv';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let sessions = 0;
const headers = (scenario: string) => ({ 'x-mock-scenario': scenario, 'x-mock-session': `structured-faults-${sessions++}` });

const VIOLATIONS = { missing_required: 'required', wrong_type: 'type', enum: 'enum', extra_property: 'additionalProperties' } as const;
type Violation = keyof typeof VIOLATIONS;

const SCENARIOS = `scenarios:\n${Object.keys(VIOLATIONS)
  .map((v) => `  - name: ${v}\n    steps: [ { fault: schema_violation, violation: ${v} } ]\n`)
  .join('')}  - name: any_violation\n    steps: [ { fault: schema_violation } ]\n`;

const weather = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] }, days: { type: 'integer' } },
  required: ['city', 'unit', 'days'],
  additionalProperties: false,
};
const geminiWeather = {
  type: Type.OBJECT,
  properties: { city: { type: Type.STRING }, unit: { type: Type.STRING, enum: ['c', 'f'] }, days: { type: Type.INTEGER } },
  required: ['city', 'unit', 'days'],
};
const question = 'What is the weather in Paris?';

/** Each style asked for `weather` as its structured output, under a scenario; the output's text. */
const STYLES: Record<string, (scenario: string) => Promise<string>> = {
  'chat-completions': async (scenario) => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: headers(scenario) });
    const answer = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: question }],
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema: weather, strict: true } },
    });
    return answer.choices[0]!.message.content!;
  },
  responses: async (scenario) => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: headers(scenario) });
    const answer = await openai.responses.create({
      model: 'gpt-4o-mini',
      input: question,
      text: { format: { type: 'json_schema', name: 'weather', schema: weather, strict: true } },
    });
    return answer.output_text;
  },
  messages: async (scenario) => {
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'sk-ant', maxRetries: 0, defaultHeaders: headers(scenario) });
    const answer = await anthropic.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages: [{ role: 'user', content: question }],
      output_config: { format: { type: 'json_schema', schema: weather } },
    });
    return answer.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  },
  'generate-content': async (scenario) => {
    const genai = new GoogleGenAI({ apiKey: 'key', httpOptions: { baseUrl: server.url, headers: headers(scenario) } });
    const answer = await genai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: question,
      config: { responseMimeType: 'application/json', responseSchema: geminiWeather },
    });
    return answer.text!;
  },
};

const ajv = new Ajv({ allErrors: true, strict: false });
function errorsOf(schema: object, text: string): ErrorObject[] {
  const validate = ajv.compile(schema);
  validate(JSON.parse(text));
  return validate.errors ?? [];
}

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { 'violations.yaml': SCENARIOS } });
});
afterAll(() => server.close());

describe('schema_violation on structured output', () => {
  for (const [style, ask] of Object.entries(STYLES)) {
    it(`${style}: each violation parses and breaks the schema exactly the chosen way`, async () => {
      for (const violation of Object.keys(VIOLATIONS) as Violation[]) {
        const errors = errorsOf(weather, await ask(violation));
        expect(errors.map((e) => e.keyword), `${style} ${violation}`).toEqual([VIOLATIONS[violation]]);
      }
    });
  }
});

describe('schema_violation on a nested schema', () => {
  const report = {
    type: 'object',
    properties: {
      report: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
        required: ['city', 'unit'],
        additionalProperties: false,
      },
    },
    required: ['report'],
    additionalProperties: false,
  };
  async function ask(scenario: string, content: string): Promise<string> {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: headers(scenario) });
    const answer = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content }],
      response_format: { type: 'json_schema', json_schema: { name: 'report', schema: report, strict: true } },
    });
    return answer.choices[0]!.message.content!;
  }

  it('breaks an enum or a type that only a nested object holds', async () => {
    expect(errorsOf(report, await ask('enum', question)).map((e) => [e.keyword, e.instancePath])).toEqual([['enum', '/report/unit']]);
    const wrong = errorsOf(report, await ask('wrong_type', question));
    expect(wrong.map((e) => e.keyword)).toEqual(['type']);
  });

  it('drops a required property at a depth chosen from the seed, the same for the same request', async () => {
    const places = new Set<string>();
    for (const city of ['Paris', 'Oslo', 'Lima', 'Rome', 'Cairo', 'Quito', 'Hanoi', 'Dakar']) {
      const text = await ask('any_violation', `Weather report for ${city}?`);
      expect(await ask('any_violation', `Weather report for ${city}?`)).toBe(text);
      const errors = errorsOf(report, text);
      expect(errors.map((e) => e.keyword)).toEqual(['required']);
      places.add(`${errors[0]!.instancePath}/${(errors[0]!.params as { missingProperty: string }).missingProperty}`);
    }
    expect([...places].some((place) => place.startsWith('/report/'))).toBe(true);
  });
});
