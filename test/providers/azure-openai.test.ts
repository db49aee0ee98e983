// The openai SDK's AzureOpenAI client pointed at the mock: deployments, api-version, the
// content-filter verdicts, Azure's errors, and the journal under `azure-openai`.
import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { houseChecks, TIDES } from './house.js';

const FIXTURES = TIDES;

const SCENARIOS = `
scenarios:
  - name: limited
    steps: [ { error: rate_limit, headers: { retry-after: "3" } } ]
`;

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] } },
};

let server: TestServer;
const azure = (deployment: string, headers: Record<string, string> = {}) =>
  new AzureOpenAI({ endpoint: server.url, apiKey: 'azure-key', apiVersion: '2024-10-21', deployment, maxRetries: 0, defaultHeaders: headers });
const tides = [{ role: 'user' as const, content: 'Tell me about tides.' }];

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'az.yaml': FIXTURES }, scenarioFiles: { 'az.yaml': SCENARIOS } });
});
afterAll(() => server.close());

describe('AzureOpenAI against the mock', () => {
  it('answers a deployment whole and streamed alike, with the content-filter verdicts', async () => {
    const whole = await azure('gpt-4o-mini').chat.completions.create({ model: '', messages: tides });
    expect(whole.choices[0]!.message.content).toBe('Tides follow the moon, twice a day, along every coast.');
    const annotated = whole as unknown as { prompt_filter_results: Array<{ prompt_index: number }>; choices: Array<{ content_filter_results: { hate: { filtered: boolean } } }> };
    expect(annotated.prompt_filter_results[0]!.prompt_index).toBe(0);
    expect(annotated.choices[0]!.content_filter_results.hate.filtered).toBe(false);
    expect(whole.usage!.completion_tokens).toBeGreaterThan(0);

    const chunks = [];
    for await (const chunk of await azure('gpt-4o-mini').chat.completions.create({ model: '', messages: tides, stream: true })) chunks.push(chunk);
    expect(chunks[0]!.choices).toEqual([]);
    expect((chunks[0] as unknown as { prompt_filter_results: unknown[] }).prompt_filter_results).toHaveLength(1);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(whole.choices[0]!.message.content);
  });

  it('calls a forced tool with arguments true to its schema', async () => {
    const answer = await azure('gpt-4o-mini').chat.completions.create({ model: '', messages: [{ role: 'user', content: 'Weather?' }], tools: [weatherTool], tool_choice: 'required' });
    const call = answer.choices[0]!.message.tool_calls![0]! as { function: { name: string; arguments: string } };
    const args = JSON.parse(call.function.arguments) as { city: unknown; days: unknown };
    expect(call.function.name).toBe('get_weather');
    expect(typeof args.city).toBe('string');
    expect(Number.isInteger(args.days)).toBe(true);
  });

  it('answers embeddings under the deployment, and the v1 surface with the openai client', async () => {
    const vectors = await azure('text-embedding-3-small').embeddings.create({ model: 'text-embedding-3-small', input: ['one', 'two'] });
    expect(vectors.data).toHaveLength(2);
    const v1 = new OpenAI({ baseURL: `${server.url}/openai/v1`, apiKey: 'azure-key', maxRetries: 0 });
    const answer = await v1.chat.completions.create({ model: 'gpt-4o-mini', messages: tides });
    expect(answer.choices[0]!.message.content).toBe('Tides follow the moon, twice a day, along every coast.');
  });

  it("gives Azure's errors: DeploymentNotFound, a 404 without api-version, RateLimitError", async () => {
    const missing = await azure('my-gpt').chat.completions.create({ model: '', messages: tides }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('DeploymentNotFound');

    const bare = await fetch(`${server.url}/openai/deployments/gpt-4o-mini/chat/completions`, {
      method: 'POST',
      headers: { 'api-key': 'azure-key', 'content-type': 'application/json' },
      body: JSON.stringify({ messages: tides }),
    });
    expect(bare.status).toBe(404);
    expect(await bare.json()).toEqual({ error: { code: '404', message: 'Resource not found' } });

    const limited = await azure('gpt-4o-mini', { 'x-mock-scenario': 'limited' }).chat.completions.create({ model: '', messages: tides }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('3');
  });

  houseChecks({
    style: 'azure-openai',
    ask: async (url, headers, stream) => {
      const client = new AzureOpenAI({ endpoint: url, apiKey: 'azure-key', apiVersion: '2024-10-21', deployment: 'gpt-4o-mini', maxRetries: 0, defaultHeaders: headers });
      const messages = [{ role: 'user' as const, content: 'What is the capital of Norway?' }];
      if (!stream) return (await client.chat.completions.create({ model: '', messages })).choices[0]!.message.content ?? '';
      let text = '';
      for await (const chunk of await client.chat.completions.create({ model: '', messages, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    },
  });
});
