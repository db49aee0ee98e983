// The legacy `POST /v1/completions` through the openai SDK, whole and streamed: the prompt is
// matched by chat fixtures as the last user message, `max_tokens` defaults to 16, `echo`, `n`,
// `stop` and `stream_options.include_usage` behave as the vendor's, and a chat model is its 404.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - name: story
    match: { contains: "once upon" }
    reply: { text: "a time there was a mock that answered every door." }
  - name: sea
    match: { contains: "the sea" }
    reply: { text: "The sea covers most of the planet, holds most of its life, moves heat from the equator to the poles and has shaped every coast, trade route and story people tell." }
`;

let server: TestServer;
let client: OpenAI;
const model = 'gpt-3.5-turbo-instruct';

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'story.yaml': FIXTURES } });
  client = openaiFor(server.url, 'completions');
});
afterAll(() => server.close());

describe('POST /v1/completions', () => {
  it('answers a prompt from a chat fixture, echoing it when asked', async () => {
    const answer = await client.completions.create({ model, prompt: 'Once upon', echo: true, max_tokens: 100 }).withResponse();
    const completion = answer.data;
    expect(completion.id).toMatch(/^cmpl-/);
    expect(completion.object).toBe('text_completion');
    expect(completion.model).toBe(model);
    expect(completion.choices).toEqual([{ text: 'Once upona time there was a mock that answered every door.', index: 0, logprobs: null, finish_reason: 'stop' }]);
    expect(completion.usage).toEqual({ prompt_tokens: 2, completion_tokens: 11, total_tokens: 13 });
    expect(answer.response.headers.get('x-mock-source')).toBe('fixture:story');
  });

  it('stops at 16 tokens by default, and at a stop sequence', async () => {
    const long = await client.completions.create({ model, prompt: 'Tell me about the sea in great detail.' });
    expect(long.choices[0]!.finish_reason).toBe('length');
    expect(long.usage!.completion_tokens).toBe(16);
    const stopped = await client.completions.create({ model, prompt: 'Once upon', stop: ' mock' });
    expect(stopped.choices[0]!.text).toBe('a time there was a');
    expect(stopped.choices[0]!.finish_reason).toBe('stop');
  });

  it('streams text_completion chunks that join into the whole answer, with usage last when asked', async () => {
    const whole = await client.completions.create({ model, prompt: ['Once upon', 'Say something'], n: 2, max_tokens: 20, seed: 1 });
    const stream = await client.completions.create({ model, prompt: ['Once upon', 'Say something'], n: 2, max_tokens: 20, seed: 1, stream: true, stream_options: { include_usage: true } });
    const texts = ['', '', '', ''];
    const finish: Array<string | null> = [null, null, null, null];
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('text_completion');
      for (const choice of chunk.choices) {
        texts[choice.index] += choice.text;
        finish[choice.index] ??= choice.finish_reason;
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect(whole.choices.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(texts).toEqual(whole.choices.map((c) => c.text));
    expect(finish).toEqual(whole.choices.map((c) => c.finish_reason));
    expect(texts[0]).toBe('a time there was a mock that answered every door.');
    expect(usage).toEqual(whole.usage);
  });

  it('answers a chat model with the vendor 404, and other mistakes with a 400 naming the field', async () => {
    const chat = (await client.completions.create({ model: 'gpt-4o-mini', prompt: 'x' }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(chat).toBeInstanceOf(OpenAI.NotFoundError);
    expect(chat.message).toContain('This is a chat model and thus not supported in the v1/completions endpoint');
    const cases: Array<[unknown, string]> = [
      [{ model, prompt: 'x', max_tokens: -1 }, 'max_tokens'],
      [{ model, prompt: 'x', n: 0 }, 'n'],
      [{ model, prompt: 'x', stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
      [{ model: 'text-embedding-3-small', prompt: 'x' }, 'model'],
      [{ model, prompt: [[1, 99999999]] }, 'prompt[0][1]'],
    ];
    for (const [body, param] of cases) {
      const error = (await client.completions.create(body as never).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect([error.status, error.param]).toEqual([400, param]);
    }
  });

  it('bounds the choices a request asks for, and refuses best_of below n as the vendor does', async () => {
    const refusal = async (body: OpenAI.CompletionCreateParamsNonStreaming) => {
      const error = (await client.completions.create(body).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      return [error.status, error.param, error.message];
    };
    const prompts = Array.from({ length: 2048 }, (_, i) => `prompt ${i}`);
    const [status, param, message] = await refusal({ model, prompt: prompts, n: 128 });
    expect([status, param]).toEqual([400, 'n']);
    expect(message).toContain('at most 2048');
    const echoed = await refusal({ model, prompt: 'word '.repeat(20_000), n: 128, echo: true });
    expect(echoed.slice(0, 2)).toEqual([400, 'echo']);
    expect(await refusal({ model, prompt: 'x', n: 3, best_of: 2 })).toEqual([400, 'best_of', '400 best_of must be greater than or equal to n']);
    const widest = await client.completions.create({ model, prompt: prompts.slice(0, 16), n: 128 });
    expect(widest.choices).toHaveLength(2048);
  });
});
