// Every request shape the installed openai SDK's `responses.create` types allow, each with a
// minimal value, sent through the SDK whole and streamed: none is refused, and the table is held
// to the SDK's own type files, so a dependency bump that brings a new shape fails here first.
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { keysOf, missingFrom, tagsOf } from './sdk-shapes.js';

type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming;
type Item = OpenAI.Responses.ResponseInputItem;
type Tool = OpenAI.Responses.Tool;

const TYPES = 'openai/resources/responses/responses.d.ts';
const model = 'gpt-5.4';
const base: Params = { model, input: 'Say hello.' };
// Items and tools are written as the wire spells them; the SDK's types are checked by the table's
// keys, not by each minimal value.
const item = (value: object): Item => value as Item;
const tool = (value: object): Tool => value as Tool;
const fn = tool({ type: 'function', name: 'f', parameters: { type: 'object', properties: {} }, strict: false });

/** Top-level parameters: what the mock does with each. */
const PARAMS: Record<string, { value: Partial<Params>; does: string }> = {
  model: { value: { model }, does: 'picks the catalog entry' },
  input: { value: {}, does: 'the conversation' },
  stream: { value: {}, does: 'sent by the streamed pass of every row' },
  stream_options: { value: { stream_options: { include_obfuscation: false } }, does: 'accepted' },
  background: { value: { background: false }, does: 'a background task when true' },
  context_management: { value: { context_management: [{ type: 'compaction', compact_threshold: 1000 }] } as Partial<Params>, does: 'accepted, ignored' },
  conversation: { value: { conversation: 'conv_1' }, does: 'accepted, ignored' },
  include: { value: { include: ['message.output_text.logprobs'] }, does: 'logprobs when asked' },
  instructions: { value: { instructions: 'Be brief.' }, does: 'system text' },
  max_output_tokens: { value: { max_output_tokens: 16 }, does: 'bounds the reply' },
  metadata: { value: { metadata: { k: 'v' } }, does: 'accepted, echoed' },
  moderation: { value: { moderation: { model: 'omni-moderation-latest' } } as Partial<Params>, does: 'accepted, ignored' },
  parallel_tool_calls: { value: { parallel_tool_calls: false, tools: [fn] }, does: 'accepted' },
  previous_response_id: { value: {}, does: 'the stored response it continues (see openai-responses-stored tests)' },
  prompt: { value: { prompt: { id: 'pmpt_1' } }, does: 'accepted, no template' },
  prompt_cache_key: { value: { prompt_cache_key: 'k' }, does: 'accepted, no cache' },
  prompt_cache_options: { value: { prompt_cache_options: {} } as Partial<Params>, does: 'accepted, no cache' },
  prompt_cache_retention: { value: { prompt_cache_retention: '24h' }, does: 'accepted, no cache' },
  reasoning: { value: { reasoning: { effort: 'low', summary: 'auto' } }, does: 'a reasoning item' },
  safety_identifier: { value: { safety_identifier: 'u1' }, does: 'accepted, ignored' },
  service_tier: { value: { service_tier: 'priority' }, does: 'echoed' },
  store: { value: { store: false }, does: 'not stored when false' },
  temperature: { value: { temperature: 0.2 }, does: 'accepted, ignored' },
  text: { value: { text: { format: { type: 'json_object' }, verbosity: 'low' } }, does: 'answered with a fitting document' },
  tool_choice: { value: { tool_choice: 'auto', tools: [fn] }, does: 'section 5 rules' },
  tools: { value: { tools: [fn] }, does: 'tools the reply may call' },
  top_logprobs: { value: { top_logprobs: 2, include: ['message.output_text.logprobs'] }, does: 'alternatives per token' },
  top_p: { value: { top_p: 0.9 }, does: 'accepted, ignored' },
  truncation: { value: { truncation: 'auto' }, does: 'accepted' },
  user: { value: { user: 'u1' }, does: 'accepted, ignored' },
};

const user = item({ role: 'user', content: 'Go on.' });
const after = (...items: object[]): Item[] => [item({ role: 'user', content: 'Hi.' }), ...items.map(item), user];
const done = { status: 'completed' };
const ITEMS: Record<string, Item[]> = {
  message: [item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi.' }] })],
  additional_tools: after({ type: 'additional_tools', role: 'developer', tools: [fn] }),
  reasoning: after({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Thought.' }] }),
  compaction: after({ type: 'compaction', encrypted_content: 'opaque' }),
  compaction_trigger: after({ type: 'compaction_trigger' }),
  function_call: after({ type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'call_1', output: 'done' }),
  function_call_output: after({ type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: 'done' }] }),
  custom_tool_call: after({ type: 'custom_tool_call', call_id: 'call_1', name: 'c', input: 'raw' }, { type: 'custom_tool_call_output', call_id: 'call_1', output: 'done' }),
  custom_tool_call_output: after({ type: 'custom_tool_call', call_id: 'call_1', name: 'c', input: 'raw' }, { type: 'custom_tool_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: 'done' }] }),
  computer_call: after({ type: 'computer_call', id: 'cu_1', call_id: 'call_1', action: { type: 'screenshot' }, pending_safety_checks: [], ...done }, { type: 'computer_call_output', call_id: 'call_1', output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,iVBORw0KGgo=' } }),
  computer_call_output: after({ type: 'computer_call', id: 'cu_1', call_id: 'call_1', action: { type: 'screenshot' }, pending_safety_checks: [], ...done }, { type: 'computer_call_output', call_id: 'call_1', output: { type: 'computer_screenshot', file_id: 'file-1' } }),
  file_search_call: after({ type: 'file_search_call', id: 'fs_1', queries: ['q'], ...done }),
  web_search_call: after({ type: 'web_search_call', id: 'ws_1', action: { type: 'search', query: 'q' }, ...done }),
  image_generation_call: after({ type: 'image_generation_call', id: 'ig_1', result: null, ...done }),
  code_interpreter_call: after({ type: 'code_interpreter_call', id: 'ci_1', code: 'print(1)', container_id: 'cntr_1', outputs: null, ...done }),
  local_shell_call: after({ type: 'local_shell_call', id: 'ls_1', call_id: 'call_1', action: { type: 'exec', command: ['ls'], env: {} }, ...done }, { type: 'local_shell_call_output', id: 'call_1', output: 'a.txt' }),
  local_shell_call_output: after({ type: 'local_shell_call', id: 'ls_1', call_id: 'call_1', action: { type: 'exec', command: ['ls'], env: {} }, ...done }, { type: 'local_shell_call_output', id: 'call_1', output: 'a.txt' }),
  shell_call: after({ type: 'shell_call', call_id: 'call_1', action: { commands: ['ls'] } }, { type: 'shell_call_output', call_id: 'call_1', output: [{ stdout: 'a.txt', stderr: '', outcome: { type: 'exit', exit_code: 0 } }] }),
  shell_call_output: after({ type: 'shell_call', call_id: 'call_1', action: { commands: ['ls'] } }, { type: 'shell_call_output', call_id: 'call_1', output: [{ stdout: '', stderr: '', outcome: { type: 'timeout' } }] }),
  apply_patch_call: after({ type: 'apply_patch_call', call_id: 'call_1', operation: { type: 'delete_file', path: 'a.txt' }, ...done }, { type: 'apply_patch_call_output', call_id: 'call_1', ...done }),
  apply_patch_call_output: after({ type: 'apply_patch_call', call_id: 'call_1', operation: { type: 'create_file', path: 'a.txt', diff: '+a' }, ...done }, { type: 'apply_patch_call_output', call_id: 'call_1', status: 'failed', output: 'no' }),
  mcp_list_tools: after({ type: 'mcp_list_tools', id: 'mcpl_1', server_label: 's', tools: [] }),
  mcp_approval_request: after({ type: 'mcp_approval_request', id: 'mcpr_1', server_label: 's', name: 't', arguments: '{}' }),
  mcp_approval_response: after({ type: 'mcp_approval_request', id: 'mcpr_1', server_label: 's', name: 't', arguments: '{}' }, { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true }),
  mcp_call: after({ type: 'mcp_call', id: 'mcp_1', server_label: 's', name: 't', arguments: '{}', output: 'done' }),
  tool_search_call: after({ type: 'tool_search_call', arguments: { query: 'q' } }, { type: 'tool_search_output', tools: [fn] }),
  tool_search_output: after({ type: 'tool_search_output', tools: [fn], execution: 'client' }),
  program: after({ type: 'program', id: 'prg_1', call_id: 'call_1', code: 'x', fingerprint: 'fp' }, { type: 'program_output', id: 'prgo_1', call_id: 'call_1', result: 'done', status: 'completed' }),
  program_output: after({ type: 'program', id: 'prg_1', call_id: 'call_1', code: 'x', fingerprint: 'fp' }, { type: 'program_output', id: 'prgo_1', call_id: 'call_1', result: 'done', status: 'incomplete' }),
  // Refers to an item of a response stored before the table runs (an unknown id is the
  // service's 404, as here).
  item_reference: [],
};

const CONTENT: Record<string, object> = {
  input_text: { type: 'input_text', text: 'Hi.' },
  input_image: { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
  input_file: { type: 'input_file', file_id: 'file-1' },
};

const TOOLS: Record<string, Tool> = {
  function: fn,
  custom: tool({ type: 'custom', name: 'c' }),
  namespace: tool({ type: 'namespace', name: 'ns', description: 'grouped', tools: [{ type: 'function', name: 'g', parameters: { type: 'object' } }] }),
  file_search: tool({ type: 'file_search', vector_store_ids: ['vs_1'] }),
  computer: tool({ type: 'computer' }),
  computer_use_preview: tool({ type: 'computer_use_preview', display_width: 800, display_height: 600, environment: 'browser' }),
  web_search: tool({ type: 'web_search' }),
  web_search_2025_08_26: tool({ type: 'web_search_2025_08_26' }),
  web_search_preview: tool({ type: 'web_search_preview' }),
  web_search_preview_2025_03_11: tool({ type: 'web_search_preview_2025_03_11' }),
  mcp: tool({ type: 'mcp', server_label: 's', server_url: 'https://example.com/mcp' }),
  code_interpreter: tool({ type: 'code_interpreter', container: { type: 'auto' } }),
  programmatic_tool_calling: tool({ type: 'programmatic_tool_calling' }),
  image_generation: tool({ type: 'image_generation' }),
  local_shell: tool({ type: 'local_shell' }),
  shell: tool({ type: 'shell' }),
  tool_search: tool({ type: 'tool_search' }),
  apply_patch: tool({ type: 'apply_patch' }),
};

/** A hosted tool chosen by its type, with the tool in the request. */
const hosted = (type: string, declared: Tool = tool({ type })): Partial<Params> => ({ tool_choice: { type } as Params['tool_choice'], tools: [declared] });
const CHOICES: Record<string, Partial<Params>> = {
  none: { tool_choice: 'none', tools: [fn] },
  auto: { tool_choice: 'auto', tools: [fn] },
  required: { tool_choice: 'required', tools: [fn] },
  function: { tool_choice: { type: 'function', name: 'f' }, tools: [fn] },
  custom: { tool_choice: { type: 'custom', name: 'c' }, tools: [TOOLS.custom!] },
  allowed_tools: { tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'f' }] }, tools: [fn] },
  mcp: { tool_choice: { type: 'mcp', server_label: 's' }, tools: [TOOLS.mcp!] },
  apply_patch: hosted('apply_patch'),
  shell: hosted('shell'),
  file_search: hosted('file_search', TOOLS.file_search),
  web_search_preview: hosted('web_search_preview'),
  web_search_preview_2025_03_11: hosted('web_search_preview_2025_03_11'),
  computer: hosted('computer'),
  computer_use: hosted('computer_use', TOOLS.computer),
  computer_use_preview: hosted('computer_use_preview', TOOLS.computer_use_preview),
  image_generation: hosted('image_generation'),
  code_interpreter: hosted('code_interpreter', TOOLS.code_interpreter),
  programmatic_tool_calling: hosted('programmatic_tool_calling'),
};

const ROWS: [string, Partial<Params>][] = [
  ...Object.entries(PARAMS).map(([k, v]): [string, Partial<Params>] => [`param ${k}`, v.value]),
  ...Object.keys(ITEMS).map((k): [string, Partial<Params>] => [`input item ${k}`, { input: ITEMS[k] }]),
  ...Object.entries(CONTENT).map(([k, part]): [string, Partial<Params>] => [`content ${k}`, { input: [item({ role: 'user', content: [part, CONTENT.input_text] })] }]),
  ...Object.entries(TOOLS).map(([k, t]): [string, Partial<Params>] => [`tool ${k}`, { tools: [t] }]),
  ...Object.entries(CHOICES).map(([k, v]): [string, Partial<Params>] => [`tool_choice ${k}`, v]),
];

describe('the table holds every shape the installed SDK types declare', () => {
  it.each([
    ['parameters', keysOf(TYPES, 'ResponseCreateParamsBase'), PARAMS],
    ['input items', tagsOf(TYPES, 'ResponseInputItem', 'type'), ITEMS],
    ['input content', tagsOf(TYPES, 'ResponseInputContent', 'type'), CONTENT],
    ['tool kinds', tagsOf(TYPES, 'Tool', 'type'), TOOLS],
    ['tool choices', tagsOf(TYPES, 'ResponseCreateParamsBase', 'type', 'tool_choice'), CHOICES],
  ] as const)('%s', (_what, declared, table) => {
    expect(missingFrom(declared, table), 'declared by the SDK, missing from the table').toEqual([]);
  });
});

let server: TestServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startTestServer();
  client = openaiFor(server.url, 'responses-variants');
  const stored = await client.responses.create({ ...base, store: true });
  ITEMS.item_reference!.push(...after({ type: 'item_reference', id: stored.output[0]!.id }));
});
afterAll(() => server.close());

describe('every variant is answered, whole and streamed', () => {
  it.each(ROWS)('%s', async (_name, patch) => {
    const params: Params = { ...base, ...patch };
    const whole = await client.responses.create(params);
    expect(whole.object).toBe('response');
    const streamed = await client.responses.stream({ ...params, stream: true }).finalResponse();
    expect(streamed.object).toBe('response');
  });
});
