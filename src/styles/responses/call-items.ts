// A reply's tool call as the output item the called tool's kind takes (WIRE.md section 2): a
// `function_call` (with its `namespace` when declared in one), a freeform tool's
// `custom_tool_call` (`ResponseCustomToolCall`), or a client-run tool's `shell_call`
// (`ResponseFunctionShellToolCall`) or `apply_patch_call` (`ResponseApplyPatchToolCall`).
import { argumentsText } from '../../conversation/call-arguments.js';
import type { ChatRequest, Reply, ToolCall } from '../../conversation/types.js';
import { toolCallId } from '../chat-completions/encode.js';
import { functionCallItemId } from './ids.js';

export type CallItem =
  | { id: string; type: 'function_call'; status: 'completed'; arguments: string; call_id: string; name: string; namespace?: string }
  | { id: string; type: 'custom_tool_call'; call_id: string; name: string; input: string; namespace?: string }
  | { id: string; type: 'shell_call'; status: 'completed'; call_id: string; action: Record<string, unknown>; environment: null }
  | { id: string; type: 'apply_patch_call'; status: 'completed'; call_id: string; operation: Record<string, unknown> };

export function callItem(reply: Reply, request: ChatRequest, call: ToolCall, index: number): CallItem {
  const tool = request.tools.find((t) => t.name === call.name);
  const where = { id: functionCallItemId(reply, index), call_id: toolCallId(call) };
  const namespace = tool?.namespace ? { namespace: tool.namespace } : {};
  if (call.input !== undefined) return { ...where, type: 'custom_tool_call', name: call.name, input: call.input, ...namespace };
  if (tool?.builtin === 'shell') {
    const { commands, max_output_length, timeout_ms } = call.arguments;
    const action = { commands: Array.isArray(commands) ? commands : [], max_output_length: max_output_length ?? null, timeout_ms: timeout_ms ?? null };
    return { ...where, type: 'shell_call', status: 'completed', action, environment: null };
  }
  if (tool?.builtin === 'apply_patch') return { ...where, type: 'apply_patch_call', status: 'completed', operation: call.arguments };
  // In the vendor's order of fields, as the whole answer and its stream have always sent it.
  return { id: where.id, type: 'function_call', status: 'completed', arguments: argumentsText(call), call_id: where.call_id, name: call.name, ...namespace };
}
