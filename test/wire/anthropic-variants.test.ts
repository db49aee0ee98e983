// Every request shape the installed @anthropic-ai/sdk's `messages.create` types allow, each with a
// minimal value, sent through the SDK whole and streamed: none is refused, and the table is held
// to the SDK's own type files, so a dependency bump that brings a new shape fails here first.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { keysOf, missingFrom, tagsOf } from './sdk-shapes.js';

type Params = Anthropic.MessageCreateParamsNonStreaming;
type Block = Anthropic.ContentBlockParam;
type Tool = Anthropic.ToolUnion;

const TYPES = '@anthropic-ai/sdk/resources/messages/messages.d.ts';
const model = 'claude-sonnet-4-6';
const base: Params = { model, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello.' }] };
const text = (value: string): Anthropic.TextBlockParam => ({ type: 'text', text: value });

/** Top-level parameters: what the mock does with each. */
const PARAMS: Record<string, { value: Partial<Params>; does: string }> = {
  model: { value: { model }, does: 'picks the catalog entry' },
  max_tokens: { value: { max_tokens: 16 }, does: 'bounds the generated reply' },
  messages: { value: {}, does: 'the conversation' },
  stream: { value: {}, does: 'sent by the streamed pass of every row' },
  cache_control: { value: { cache_control: { type: 'ephemeral' } }, does: 'accepted, no cache' },
  container: { value: { container: 'container_1' }, does: 'accepted, no container' },
  diagnostics: { value: { diagnostics: { previous_message_id: 'msg_1' } }, does: 'accepted, ignored' },
  inference_geo: { value: { inference_geo: 'us' }, does: 'accepted, ignored' },
  metadata: { value: { metadata: { user_id: 'user-1' } }, does: 'accepted, ignored' },
  output_config: { value: { output_config: { effort: 'low' } }, does: 'effort accepted; format answered with a fitting document' },
  service_tier: { value: { service_tier: 'standard_only' }, does: 'accepted, answered standard' },
  speed: { value: { speed: 'fast' }, does: 'accepted, ignored' },
  stop_sequences: { value: { stop_sequences: ['STOP'] }, does: 'cuts the reply at a sequence' },
  system: { value: { system: [text('Be brief.')] }, does: 'system text the fixture key `system` reads' },
  thinking: { value: { thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 2048 }, does: 'a thinking block' },
  tool_choice: { value: { tool_choice: { type: 'auto' }, tools: [{ name: 'f', input_schema: { type: 'object' } }] }, does: 'section 5 rules' },
  tools: { value: { tools: [{ name: 'f', input_schema: { type: 'object' } }] }, does: 'tools the reply may call' },
  user_profile_id: { value: { user_profile_id: 'profile_1' }, does: 'accepted, ignored' },
  workspace_id: { value: { workspace_id: 'wrkspc_1' }, does: 'accepted, ignored' },
};

const ROLES: Record<string, Anthropic.MessageParam[]> = {
  user: [{ role: 'user', content: 'Hi.' }],
  assistant: [{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: 'Hello.' }, { role: 'user', content: 'Again.' }],
  system: [{ role: 'user', content: 'Hi.' }, { role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Again.' }],
};

/** Where a block goes: a user turn, or an assistant turn (answered by a user turn after it). */
function inUser(block: Block): Anthropic.MessageParam[] {
  return [{ role: 'user', content: [block, text('Go on.')] }];
}
function inAssistant(...blocks: Block[]): Anthropic.MessageParam[] {
  return [{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: blocks }, { role: 'user', content: 'Go on.' }];
}
const serverUse = (name: Anthropic.ServerToolUseBlockParam['name']): Anthropic.ServerToolUseBlockParam => ({ type: 'server_tool_use', id: 'srvtoolu_1', name, input: {} });

const BLOCKS: Record<string, Anthropic.MessageParam[]> = {
  text: inUser(text('Hi.')),
  image: inUser({ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }),
  document: inUser({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'A note.' } }),
  search_result: inUser({ type: 'search_result', source: 'https://example.com', title: 'T', content: [text('Found.')] }),
  container_upload: inUser({ type: 'container_upload', file_id: 'file_1' }),
  thinking: inAssistant({ type: 'thinking', thinking: 'Hmm.', signature: 'sig' }, text('Hello.')),
  redacted_thinking: inAssistant({ type: 'redacted_thinking', data: 'opaque' }, text('Hello.')),
  tool_use: [
    { role: 'user', content: 'Hi.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] },
  ],
  tool_result: [
    { role: 'user', content: 'Hi.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [text('done')] }] },
  ],
  server_tool_use: inAssistant(serverUse('web_search'), text('Searched.')),
  web_search_tool_result: inAssistant(serverUse('web_search'), { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://example.com', title: 'T', encrypted_content: 'x' }] }),
  web_fetch_tool_result: inAssistant(serverUse('web_fetch'), { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' } }),
  code_execution_tool_result: inAssistant(serverUse('code_execution'), { type: 'code_execution_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'code_execution_result', stdout: '1', stderr: '', return_code: 0, content: [] } }),
  bash_code_execution_tool_result: inAssistant(serverUse('bash_code_execution'), { type: 'bash_code_execution_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'bash_code_execution_result', stdout: '1', stderr: '', return_code: 0, content: [] } }),
  text_editor_code_execution_tool_result: inAssistant(serverUse('text_editor_code_execution'), { type: 'text_editor_code_execution_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'text_editor_code_execution_create_result', is_file_update: false } }),
  tool_search_tool_result: inAssistant(serverUse('tool_search_tool_regex'), { type: 'tool_search_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'f' }] } }),
};

const resultIn = (content: Anthropic.ToolResultBlockParam['content']): Anthropic.MessageParam[] => [
  { role: 'user', content: 'Hi.' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }] },
];
const RESULT_CONTENT: Record<string, Anthropic.MessageParam[]> = {
  text: resultIn([text('done')]),
  image: resultIn([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }]),
  document: resultIn([{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'A note.' } }]),
  search_result: resultIn([{ type: 'search_result', source: 'https://example.com', title: 'T', content: [text('Found.')] }]),
  tool_reference: resultIn([{ type: 'tool_reference', tool_name: 'f' }]),
  browser_state: resultIn([{ type: 'browser_state', tabs: [] } as never]),
};

const named = (type: string, name: string) => ({ type, name }) as unknown as Tool;
const TOOLS: Record<string, Tool> = {
  custom: { type: 'custom', name: 'f', input_schema: { type: 'object' } },
  bash_20250124: named('bash_20250124', 'bash'),
  code_execution_20250522: named('code_execution_20250522', 'code_execution'),
  code_execution_20250825: named('code_execution_20250825', 'code_execution'),
  code_execution_20260120: named('code_execution_20260120', 'code_execution'),
  code_execution_20260521: named('code_execution_20260521', 'code_execution'),
  browser_toolset_20260801: { type: 'browser_toolset_20260801' },
  computer_toolset_20260801: { type: 'computer_toolset_20260801' },
  memory_20250818: named('memory_20250818', 'memory'),
  text_editor_20250124: named('text_editor_20250124', 'str_replace_editor'),
  text_editor_20250429: named('text_editor_20250429', 'str_replace_based_edit_tool'),
  text_editor_20250728: named('text_editor_20250728', 'str_replace_based_edit_tool'),
  web_search_20250305: named('web_search_20250305', 'web_search'),
  web_search_20260209: named('web_search_20260209', 'web_search'),
  web_search_20260318: named('web_search_20260318', 'web_search'),
  web_fetch_20250910: named('web_fetch_20250910', 'web_fetch'),
  web_fetch_20260209: named('web_fetch_20260209', 'web_fetch'),
  web_fetch_20260309: named('web_fetch_20260309', 'web_fetch'),
  web_fetch_20260318: named('web_fetch_20260318', 'web_fetch'),
  tool_search_tool_bm25: named('tool_search_tool_bm25', 'tool_search_tool_bm25'),
  tool_search_tool_bm25_20251119: named('tool_search_tool_bm25_20251119', 'tool_search_tool_bm25'),
  tool_search_tool_regex: named('tool_search_tool_regex', 'tool_search_tool_regex'),
  tool_search_tool_regex_20251119: named('tool_search_tool_regex_20251119', 'tool_search_tool_regex'),
};

const THINKING: Record<string, Anthropic.ThinkingConfigParam> = {
  enabled: { type: 'enabled', budget_tokens: 1024 },
  disabled: { type: 'disabled' },
  adaptive: { type: 'adaptive' },
  between_tools: { type: 'between_tools' } as Anthropic.ThinkingConfigParam,
};
const fTool: Anthropic.Tool = { name: 'f', input_schema: { type: 'object' } };
const CHOICES: Record<string, Partial<Params>> = {
  auto: { tool_choice: { type: 'auto' }, tools: [fTool] },
  any: { tool_choice: { type: 'any' }, tools: [fTool] },
  tool: { tool_choice: { type: 'tool', name: 'f' }, tools: [fTool] },
  none: { tool_choice: { type: 'none' }, tools: [fTool] },
};

const ROWS: [string, Partial<Params>][] = [
  ...Object.entries(PARAMS).map(([k, v]): [string, Partial<Params>] => [`param ${k}`, v.value]),
  ...Object.entries(ROLES).map(([k, messages]): [string, Partial<Params>] => [`role ${k}`, { messages }]),
  ...Object.entries(BLOCKS).map(([k, messages]): [string, Partial<Params>] => [`block ${k}`, { messages }]),
  ...Object.entries(RESULT_CONTENT).map(([k, messages]): [string, Partial<Params>] => [`tool_result content ${k}`, { messages }]),
  ...Object.entries(TOOLS).map(([k, tool]): [string, Partial<Params>] => [`tool ${k}`, { tools: [tool] }]),
  ...Object.entries(THINKING).map(([k, thinking]): [string, Partial<Params>] => [`thinking ${k}`, { thinking, max_tokens: 2048 }]),
  ...Object.entries(CHOICES).map(([k, v]): [string, Partial<Params>] => [`tool_choice ${k}`, v]),
];

describe('the table holds every shape the installed SDK types declare', () => {
  it.each([
    ['parameters', keysOf(TYPES, 'MessageCreateParamsBase'), PARAMS],
    ['roles', tagsOf(TYPES, 'MessageParam', 'role'), ROLES],
    ['content blocks', tagsOf(TYPES, 'ContentBlockParam', 'type'), BLOCKS],
    ['tool_result content', tagsOf(TYPES, 'ToolResultBlockParam', 'type', 'content'), RESULT_CONTENT],
    ['tool kinds', tagsOf(TYPES, 'ToolUnion', 'type'), TOOLS],
    ['thinking types', tagsOf(TYPES, 'ThinkingConfigParam', 'type'), THINKING],
    ['tool choices', tagsOf(TYPES, 'ToolChoice', 'type'), CHOICES],
  ] as const)('%s', (_what, declared, table) => {
    expect(missingFrom(declared, table), 'declared by the SDK, missing from the table').toEqual([]);
  });
});

let server: TestServer;
let client: Anthropic;
beforeAll(async () => {
  server = await startTestServer();
  client = new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-variants', maxRetries: 0 });
});
afterAll(() => server.close());

describe('every variant is answered, whole and streamed', () => {
  it.each(ROWS)('%s', async (_name, patch) => {
    const params: Params = { ...base, ...patch };
    const whole = await client.messages.create(params);
    expect(whole.type).toBe('message');
    const streamed = await client.messages.stream(params).finalMessage();
    expect(streamed.type).toBe('message');
  });
});
