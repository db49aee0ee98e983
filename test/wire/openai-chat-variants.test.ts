// Every request shape the installed openai SDK's `chat.completions.create` types allow, each with
// a minimal value, sent through the SDK whole and streamed: none is refused, and the table is held
// to the SDK's own type files, so a dependency bump that brings a new shape fails here first.
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { keysOf, missingFrom, tagsOf } from './sdk-shapes.js';

type Params = OpenAI.ChatCompletionCreateParamsNonStreaming;
type Message = OpenAI.ChatCompletionMessageParam;

const TYPES = 'openai/resources/chat/completions/completions.d.ts';
const model = 'gpt-4o-mini';
const base: Params = { model, messages: [{ role: 'user', content: 'Say hello.' }] };
const fn: OpenAI.ChatCompletionTool = { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } };
const custom: OpenAI.ChatCompletionTool = { type: 'custom', custom: { name: 'c' } };

/** Top-level parameters: what the mock does with each. */
const PARAMS: Record<string, { value: Partial<Params>; does: string }> = {
  model: { value: { model }, does: 'picks the catalog entry' },
  messages: { value: {}, does: 'the conversation' },
  stream: { value: {}, does: 'sent by the streamed pass of every row' },
  stream_options: { value: { stream_options: { include_usage: true } }, does: 'usage in the last chunk' },
  audio: { value: { model: 'gpt-audio', modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }, does: 'message.audio, speech of the reply' },
  modalities: { value: { modalities: ['text'] }, does: 'audio when asked' },
  frequency_penalty: { value: { frequency_penalty: 0.5 }, does: 'accepted, ignored' },
  presence_penalty: { value: { presence_penalty: 0.5 }, does: 'accepted, ignored' },
  function_call: { value: { function_call: 'auto', functions: [{ name: 'f', parameters: { type: 'object' } }] }, does: 'the legacy function form' },
  functions: { value: { functions: [{ name: 'f', parameters: { type: 'object' } }] }, does: 'the legacy function form' },
  logit_bias: { value: { logit_bias: { '50256': -100 } }, does: 'accepted, ignored' },
  logprobs: { value: { logprobs: true, top_logprobs: 2 }, does: 'seeded logprobs consistent with the text' },
  top_logprobs: { value: { logprobs: true, top_logprobs: 1 }, does: 'alternatives per token' },
  max_completion_tokens: { value: { max_completion_tokens: 16 }, does: 'bounds the reply' },
  max_tokens: { value: { max_tokens: 16 }, does: 'bounds the reply' },
  metadata: { value: { metadata: { k: 'v' } }, does: 'accepted, ignored' },
  moderation: { value: { moderation: { model: 'omni-moderation-latest' } }, does: 'accepted; no moderation results in the answer' },
  n: { value: { n: 2 }, does: 'that many choices' },
  parallel_tool_calls: { value: { parallel_tool_calls: false, tools: [fn] }, does: 'accepted' },
  prediction: { value: { prediction: { type: 'content', content: 'Hello.' } }, does: 'accepted, ignored' },
  prompt_cache_key: { value: { prompt_cache_key: 'k' }, does: 'accepted, no cache' },
  prompt_cache_options: { value: { prompt_cache_options: {} } as Partial<Params>, does: 'accepted, no cache' },
  prompt_cache_retention: { value: { prompt_cache_retention: '24h' }, does: 'accepted, no cache' },
  reasoning_effort: { value: { reasoning_effort: 'low' }, does: 'accepted, ignored' },
  response_format: { value: { response_format: { type: 'json_object' } }, does: 'answered with a fitting document' },
  safety_identifier: { value: { safety_identifier: 'u1' }, does: 'accepted, ignored' },
  seed: { value: { seed: 7 }, does: 'seeds generation' },
  service_tier: { value: { service_tier: 'flex' }, does: 'echoed' },
  stop: { value: { stop: ['STOP'] }, does: 'cuts the reply at a sequence' },
  store: { value: { store: false }, does: 'accepted' },
  temperature: { value: { temperature: 0.2 }, does: 'accepted, ignored' },
  top_p: { value: { top_p: 0.9 }, does: 'accepted, ignored' },
  tool_choice: { value: { tool_choice: 'auto', tools: [fn] }, does: 'section 5 rules' },
  tools: { value: { tools: [fn] }, does: 'tools the reply may call' },
  user: { value: { user: 'u1' }, does: 'accepted, ignored' },
  verbosity: { value: { verbosity: 'low' }, does: 'accepted, ignored' },
  web_search_options: { value: { web_search_options: {} }, does: 'accepted, no search' },
};

const hi: Message = { role: 'user', content: 'Hi.' };
const ROLES: Record<string, Message[]> = {
  user: [hi],
  system: [{ role: 'system', content: 'Be brief.' }, hi],
  developer: [{ role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] }, hi],
  assistant: [hi, { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }, { type: 'refusal', refusal: 'No.' }] }, hi],
  tool: [hi, { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'call_1', content: 'done' }],
  function: [hi, { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } }, { role: 'function', name: 'f', content: 'done' }],
};

const PARTS: Record<string, OpenAI.ChatCompletionContentPart> = {
  text: { type: 'text', text: 'Hi.' },
  image_url: { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
  input_audio: { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
  file: { type: 'file', file: { file_id: 'file-1' } },
};
const ASSISTANT_PARTS: Record<string, Message[]> = {
  text: [hi, { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] }, hi],
  refusal: [hi, { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] }, hi],
};

const TOOLS: Record<string, OpenAI.ChatCompletionTool> = { function: fn, custom };
const CHOICES: Record<string, Partial<Params>> = {
  none: { tool_choice: 'none', tools: [fn] },
  auto: { tool_choice: 'auto', tools: [fn] },
  required: { tool_choice: 'required', tools: [fn] },
  function: { tool_choice: { type: 'function', function: { name: 'f' } }, tools: [fn] },
  custom: { tool_choice: { type: 'custom', custom: { name: 'c' } }, tools: [custom] },
  allowed_tools: { tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'f' } }] } }, tools: [fn] },
};
const CALLS: Record<string, Message[]> = {
  function: ROLES.tool!,
  custom: [hi, { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'custom', custom: { name: 'c', input: 'raw' } }] }, { role: 'tool', tool_call_id: 'call_1', content: 'done' }],
};

const ROWS: [string, Partial<Params>][] = [
  ...Object.entries(PARAMS).map(([k, v]): [string, Partial<Params>] => [`param ${k}`, v.value]),
  ...Object.entries(ROLES).map(([k, messages]): [string, Partial<Params>] => [`role ${k}`, { messages }]),
  ...Object.entries(PARTS).map(([k, part]): [string, Partial<Params>] => [`user part ${k}`, { messages: [{ role: 'user', content: [part] }] }]),
  ...Object.entries(ASSISTANT_PARTS).map(([k, messages]): [string, Partial<Params>] => [`assistant part ${k}`, { messages }]),
  ...Object.entries(TOOLS).map(([k, tool]): [string, Partial<Params>] => [`tool ${k}`, { tools: [tool] }]),
  ...Object.entries(CHOICES).map(([k, v]): [string, Partial<Params>] => [`tool_choice ${k}`, v]),
  ...Object.entries(CALLS).map(([k, messages]): [string, Partial<Params>] => [`tool call ${k} in the history`, { messages }]),
];

describe('the table holds every shape the installed SDK types declare', () => {
  it.each([
    ['parameters', keysOf(TYPES, 'ChatCompletionCreateParamsBase'), PARAMS],
    ['roles', tagsOf(TYPES, 'ChatCompletionMessageParam', 'role'), ROLES],
    ['user content parts', tagsOf(TYPES, 'ChatCompletionContentPart', 'type'), PARTS],
    ['assistant content parts', tagsOf(TYPES, 'ChatCompletionAssistantMessageParam', 'type', 'content'), ASSISTANT_PARTS],
    ['tool kinds', tagsOf(TYPES, 'ChatCompletionTool', 'type'), TOOLS],
    ['tool choices', tagsOf(TYPES, 'ChatCompletionToolChoiceOption', 'type'), CHOICES],
    ['tool calls', tagsOf(TYPES, 'ChatCompletionMessageToolCall', 'type'), CALLS],
  ] as const)('%s', (_what, declared, table) => {
    expect(missingFrom(declared, table), 'declared by the SDK, missing from the table').toEqual([]);
  });
});

let server: TestServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startTestServer();
  client = openaiFor(server.url, 'chat-variants');
});
afterAll(() => server.close());

describe('every variant is answered, whole and streamed', () => {
  it.each(ROWS)('%s', async (_name, patch) => {
    const params: Params = { ...base, ...patch };
    const whole = await client.chat.completions.create(params);
    expect(whole.object).toBe('chat.completion');
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of await client.chat.completions.create({ ...params, stream: true })) chunks.push(chunk);
    expect(chunks.at(-1)?.choices.at(-1)?.finish_reason ?? chunks.at(-2)?.choices.at(-1)?.finish_reason).toBeTruthy();
  });
});
