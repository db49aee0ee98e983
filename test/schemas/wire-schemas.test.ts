// Every response body and stream event of a broad set of requests, one or more per endpoint family,
// validated against the vendors' own schemas (test/data/schemas; deliberate differences in
// differences.ts). Raw fetch on purpose: the SDKs reshape what they read, the schemas describe the
// wire. To cover a new endpoint, add a case to its family below (or a new family).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPng } from '../../src/media/png.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sseEvents, type SseEvent } from '../helpers/sse.js';
import { DIFFERENCES } from './differences.js';
import { narrowed, problems, stalePatches, validatorFor, type SchemaName } from './validators.js';

const SCENARIOS = `
scenarios:
  - name: broken
    steps: [ { fault: stream_error, after_chunks: 2, error: server_error, message: "Broke mid-stream." } ]
`;

interface WireCase {
  name: string;
  method?: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  status?: number;
  /** The body's schema, or for a stream each event's (chosen per event when a function). */
  schema: SchemaName | ((event: SseEvent) => SchemaName);
  stream?: 'sse' | 'json-array';
}

const OPENAI = { authorization: 'Bearer sk-test' };
const ANTHROPIC = { 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' };
const GOOGLE = { 'x-goog-api-key': 'sk-test' };
const BROKEN = { 'x-mock-scenario': 'broken' };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { 'broken.yaml': SCENARIOS } });
});
afterAll(() => server.close());

async function send(wire: WireCase): Promise<Response> {
  const form = wire.body instanceof FormData;
  return fetch(`${server.url}${wire.path}`, {
    method: wire.method ?? (wire.body === undefined ? 'GET' : 'POST'),
    headers: { ...(wire.body === undefined || form ? {} : { 'content-type': 'application/json' }), ...wire.headers },
    body: wire.body === undefined ? undefined : form ? (wire.body as FormData) : JSON.stringify(wire.body),
  });
}

function eventsOf(text: string, framing: 'sse' | 'json-array'): SseEvent[] {
  if (framing === 'json-array') return (JSON.parse(text) as unknown[]).map((data) => ({ data }));
  return sseEvents(text).filter((event) => typeof event.data !== 'string'); // `[DONE]`
}

/** Sends every case and returns what failed: a wrong status or a body or event off its schema. */
async function check(cases: WireCase[]): Promise<Array<Record<string, unknown>>> {
  const failures: Array<Record<string, unknown>> = [];
  for (const wire of cases) {
    const response = await send(wire);
    const text = await response.text();
    if (response.status !== (wire.status ?? 200)) {
      failures.push({ case: wire.name, status: response.status, body: text.slice(0, 300) });
      continue;
    }
    const items = wire.stream ? eventsOf(text, wire.stream) : [{ data: JSON.parse(text) as unknown }];
    if (wire.stream && items.length === 0) failures.push({ case: wire.name, problem: 'no events' });
    items.forEach((item, index) => {
      const name = narrowed(typeof wire.schema === 'function' ? wire.schema(item) : wire.schema, item.data);
      const validate = validatorFor(name);
      if (!validate(item.data)) failures.push({ case: wire.name, event: wire.stream ? index : undefined, schema: name, problems: problems(validate) });
    });
  }
  return failures;
}

const chat = (extra: Record<string, unknown> = {}) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me a story.' }], ...extra });
const weather = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const message = (extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 200,
  messages: [{ role: 'user', content: 'Tell me a story.' }],
  ...extra,
});
const contents = { contents: [{ role: 'user', parts: [{ text: 'Tell me a story.' }] }] };
const ANTHROPIC_EVENTS: Record<string, SchemaName> = { error: 'anthropic:ErrorResponse', ping: 'documented:AnthropicPing' };
const anthropicEvent = (event: SseEvent): SchemaName => ANTHROPIC_EVENTS[event.event ?? ''] ?? 'anthropic:RawMessageStreamEvent';
const chatChunk = (event: SseEvent): SchemaName => ((event.data as { error?: unknown }).error ? 'openai:ErrorResponse' : 'openai:CreateChatCompletionStreamResponse');

describe('every answer matches the vendor schema', () => {
  it('has no stale entry in the list of differences', () => {
    expect(DIFFERENCES.length).toBeGreaterThan(0);
    expect(stalePatches).toEqual([]);
  });

  it('chat-completions: whole, with tools, streamed with usage, broken mid-stream, and errors', async () => {
    const path = '/v1/chat/completions';
    expect(
      await check([
        { name: 'whole', path, headers: OPENAI, body: chat({ n: 2 }), schema: 'openai:CreateChatCompletionResponse' },
        { name: 'tools', path, headers: OPENAI, body: chat({ tools: [weather], tool_choice: 'required' }), schema: 'openai:CreateChatCompletionResponse' },
        { name: 'stream', path, headers: OPENAI, body: chat({ stream: true, stream_options: { include_usage: true } }), schema: chatChunk, stream: 'sse' },
        { name: 'stream tools', path, headers: OPENAI, body: chat({ stream: true, tools: [weather], tool_choice: 'required' }), schema: chatChunk, stream: 'sse' },
        { name: 'stream error', path, headers: { ...OPENAI, ...BROKEN }, body: chat({ stream: true }), schema: chatChunk, stream: 'sse' },
        { name: 'bad field', path, headers: OPENAI, body: chat({ temperature: 'hot' }), status: 400, schema: 'openai:ErrorResponse' },
        { name: 'unknown model', path, headers: OPENAI, body: chat({ model: 'nope' }), status: 404, schema: 'openai:ErrorResponse' },
        { name: 'unknown path', path: '/v1/nothing', headers: OPENAI, status: 404, schema: 'openai:ErrorResponse' },
      ]),
    ).toEqual([]);
  });

  it('responses: whole, with tools and reasoning, streamed, broken mid-stream, retrieved, and errors', async () => {
    const path = '/v1/responses';
    const tool = { type: 'function', name: 'get_weather', parameters: weather.function.parameters };
    const created = (await (await send({ name: 'store', path, headers: OPENAI, body: { model: 'gpt-4o-mini', input: 'hi' }, schema: 'openai:Response' })).json()) as { id: string };
    expect(
      await check([
        { name: 'whole', path, headers: OPENAI, body: { model: 'gpt-4o-mini', input: 'Tell me a story.', instructions: 'Be brief.' }, schema: 'openai:Response' },
        { name: 'tools', path, headers: OPENAI, body: { model: 'gpt-4o-mini', input: 'Weather?', tools: [tool], tool_choice: 'required' }, schema: 'openai:Response' },
        { name: 'reasoning', path, headers: OPENAI, body: { model: 'o4-mini', input: 'Think.', reasoning: { effort: 'low', summary: 'auto' } }, schema: 'openai:Response' },
        { name: 'stream', path, headers: OPENAI, body: { model: 'gpt-4o-mini', input: 'Tell me a story.', stream: true }, schema: 'openai:ResponseStreamEvent', stream: 'sse' },
        { name: 'stream tools', path, headers: OPENAI, body: { model: 'gpt-4o-mini', input: 'Weather?', tools: [tool], tool_choice: 'required', stream: true }, schema: 'openai:ResponseStreamEvent', stream: 'sse' },
        { name: 'stream error', path, headers: { ...OPENAI, ...BROKEN }, body: { model: 'gpt-4o-mini', input: 'Tell me a story.', stream: true }, schema: 'openai:ResponseStreamEvent', stream: 'sse' },
        { name: 'retrieve', path: `${path}/${created.id}`, headers: OPENAI, schema: 'openai:Response' },
        { name: 'replay', path: `${path}/${created.id}?stream=true`, headers: OPENAI, schema: 'openai:ResponseStreamEvent', stream: 'sse' },
        { name: 'unknown id', path: `${path}/resp_nope`, headers: OPENAI, status: 404, schema: 'openai:ErrorResponse' },
        { name: 'bad field', path, headers: OPENAI, body: { model: 'gpt-4o-mini', input: 7 }, status: 400, schema: 'openai:ErrorResponse' },
      ]),
    ).toEqual([]);
  });

  it('messages: whole, with tools and thinking, streamed, broken mid-stream, count_tokens, and errors', async () => {
    const path = '/v1/messages';
    const tool = { name: 'get_weather', input_schema: weather.function.parameters };
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    expect(
      await check([
        { name: 'whole', path, headers: ANTHROPIC, body: message({ system: 'Be brief.' }), schema: 'anthropic:Message' },
        { name: 'tools', path, headers: ANTHROPIC, body: message({ tools: [tool], tool_choice: { type: 'any' } }), schema: 'anthropic:Message' },
        { name: 'thinking', path, headers: ANTHROPIC, body: message({ max_tokens: 2000, thinking }), schema: 'anthropic:Message' },
        { name: 'stream', path, headers: ANTHROPIC, body: message({ stream: true, max_tokens: 2000, thinking }), schema: anthropicEvent, stream: 'sse' },
        { name: 'stream tools', path, headers: ANTHROPIC, body: message({ stream: true, tools: [tool], tool_choice: { type: 'any' } }), schema: anthropicEvent, stream: 'sse' },
        { name: 'stream error', path, headers: { ...ANTHROPIC, ...BROKEN }, body: message({ stream: true }), schema: anthropicEvent, stream: 'sse' },
        { name: 'count_tokens', path: `${path}/count_tokens`, headers: ANTHROPIC, body: message(), schema: 'anthropic:MessageTokensCount' },
        { name: 'bad field', path, headers: ANTHROPIC, body: message({ max_tokens: -1 }), status: 400, schema: 'anthropic:ErrorResponse' },
        { name: 'no key', path, headers: { 'anthropic-version': '2023-06-01' }, body: message(), status: 401, schema: 'anthropic:ErrorResponse' },
        { name: 'unknown model', path, headers: ANTHROPIC, body: message({ model: 'claude-nope' }), status: 404, schema: 'anthropic:ErrorResponse' },
      ]),
    ).toEqual([]);
  });

  it('generate-content: whole, with tools, streamed both ways, broken mid-stream, countTokens, and errors', async () => {
    const at = (action: string) => `/v1beta/models/gemini-2.5-flash:${action}`;
    const tools = [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } }] }];
    const forced = { ...contents, tools, toolConfig: { functionCallingConfig: { mode: 'ANY' } } };
    const thinking = { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 512 } } };
    const eventSchema = (event: SseEvent): SchemaName =>
      (event.data as { error?: unknown }).error ? 'google-wire:Status' : 'google-genai:GenerateContentResponse';
    expect(
      await check([
        { name: 'whole', path: at('generateContent'), headers: GOOGLE, body: { ...contents, ...thinking }, schema: 'google-genai:GenerateContentResponse' },
        { name: 'tools', path: at('generateContent'), headers: GOOGLE, body: forced, schema: 'google-genai:GenerateContentResponse' },
        { name: 'sse', path: `${at('streamGenerateContent')}?alt=sse`, headers: GOOGLE, body: contents, schema: eventSchema, stream: 'sse' },
        { name: 'json array', path: at('streamGenerateContent'), headers: GOOGLE, body: forced, schema: eventSchema, stream: 'json-array' },
        { name: 'stream error', path: `${at('streamGenerateContent')}?alt=sse`, headers: { ...GOOGLE, ...BROKEN }, body: contents, schema: eventSchema, stream: 'sse' },
        { name: 'countTokens', path: at('countTokens'), headers: GOOGLE, body: contents, schema: 'google-wire:CountTokensResponse' },
        { name: 'bad field', path: at('generateContent'), headers: GOOGLE, body: { contents: [] }, status: 400, schema: 'google-wire:Status' },
        { name: 'no key', path: at('generateContent'), body: contents, status: 401, schema: 'google-wire:Status' },
      ]),
    ).toEqual([]);
  });

  it('model lists in the three formats, one model each, and an unknown model', async () => {
    expect(
      await check([
        { name: 'openai list', path: '/v1/models', headers: OPENAI, schema: 'openai:ListModelsResponse' },
        { name: 'openai model', path: '/v1/models/gpt-4o-mini', headers: OPENAI, schema: 'openai:Model' },
        { name: 'anthropic model', path: '/v1/models/claude-sonnet-4-5', headers: ANTHROPIC, schema: 'anthropic:ModelInfo' },
        { name: 'anthropic unknown', path: '/v1/models/claude-nope', headers: ANTHROPIC, status: 404, schema: 'anthropic:ErrorResponse' },
        { name: 'gemini list', path: '/v1beta/models?pageSize=3', headers: GOOGLE, schema: 'google-wire:ListModelsResponse' },
        { name: 'gemini model', path: '/v1beta/models/gemini-2.5-flash', headers: GOOGLE, schema: 'google-wire:Model' },
        { name: 'gemini unknown', path: '/v1beta/models/nope', headers: GOOGLE, status: 404, schema: 'google-wire:Status' },
      ]),
    ).toEqual([]);
    // The Anthropic page wrapper is the SDK's Page<ModelInfo>, not a named type: its items are checked one by one.
    const page = (await (await send({ name: 'page', path: '/v1/models?limit=3', headers: ANTHROPIC, schema: 'anthropic:ModelInfo' })).json()) as {
      data: unknown[];
    };
    const validate = validatorFor('anthropic:ModelInfo');
    expect(page.data.map((model) => (validate(model) ? [] : problems(validate))).flat()).toEqual([]);
  });

  it('images: generations as b64 and url, an edit, and errors', async () => {
    const edit = new FormData();
    edit.append('model', 'gpt-image-1');
    edit.append('prompt', 'Add a hat.');
    edit.append('image', new Blob([renderPng(32, 32, 'upload')], { type: 'image/png' }), 'in.png');
    const path = '/v1/images/generations';
    expect(
      await check([
        { name: 'b64', path, headers: OPENAI, body: { model: 'gpt-image-1', prompt: 'A fox.', size: '1024x1024', quality: 'low' }, schema: 'openai:ImagesResponse' },
        { name: 'url', path, headers: OPENAI, body: { model: 'gpt-image-1', prompt: 'A fox.', response_format: 'url' }, schema: 'openai:ImagesResponse' },
        { name: 'edit', path: '/v1/images/edits', headers: OPENAI, body: edit, schema: 'openai:ImagesResponse' },
        { name: 'no prompt', path, headers: OPENAI, body: { model: 'gpt-image-1' }, status: 400, schema: 'openai:ErrorResponse' },
      ]),
    ).toEqual([]);
  });

  it('videos in both forms: create, list, retrieve as it progresses, delete, and errors', async () => {
    const create = { model: 'sora-2', prompt: 'A sunrise.', seconds: '4' };
    const video = (await (await send({ name: 'create', path: '/v1/videos', headers: OPENAI, body: create, schema: 'openai:VideoResource' })).json()) as { id: string };
    const task = (await (await send({ name: 'task', path: '/v1/video/generations', headers: OPENAI, body: create, schema: 'openai:VideoResource' })).json()) as {
      task_id: string;
    };
    const early = await check([
      { name: 'create', path: '/v1/videos', headers: OPENAI, body: create, schema: 'openai:VideoResource' },
      { name: 'create task', path: '/v1/video/generations', headers: OPENAI, body: create, schema: 'openai:VideoResource' },
      { name: 'queued', path: `/v1/videos/${video.id}`, headers: OPENAI, schema: 'openai:VideoResource' },
      { name: 'task queued', path: `/v1/video/generations/${task.task_id}`, headers: OPENAI, schema: 'gateway:Task' },
    ]);
    await server.advanceClock(600_000);
    expect([
      ...early,
      ...(await check([
        { name: 'completed', path: `/v1/videos/${video.id}`, headers: OPENAI, schema: 'openai:VideoResource' },
        { name: 'task completed', path: `/v1/video/generations/${task.task_id}`, headers: OPENAI, schema: 'gateway:Task' },
        { name: 'list', path: '/v1/videos?limit=2', headers: OPENAI, schema: 'openai:VideoListResource' },
        { name: 'delete', method: 'DELETE', path: `/v1/videos/${video.id}`, headers: OPENAI, schema: 'openai:DeletedVideoResource' },
        { name: 'unknown', path: '/v1/videos/video_nope', headers: OPENAI, status: 404, schema: 'openai:ErrorResponse' },
        { name: 'task unknown', path: '/v1/video/generations/task_nope', headers: OPENAI, status: 400, schema: 'gateway:TaskError' },
        { name: 'no prompt', path: '/v1/videos', headers: OPENAI, body: { model: 'sora-2' }, status: 400, schema: 'openai:ErrorResponse' },
      ])),
    ]).toEqual([]);
  });
});
