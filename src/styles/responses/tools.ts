// Responses tools and tool choice -> the neutral tools. Functions (also inside a `NamespaceTool`),
// custom tools (`CustomTool`, freeform input), and the tools the client runs itself that the
// service calls with items of their own: `FunctionShellTool` (`shell_call`) and `ApplyPatchTool`
// (`apply_patch_call`). Hosted tools (web search, file search, ...) are accepted; the mock never
// calls them.
import { invalid } from '../../conversation/errors.js';
import type { JsonSchema, ToolChoice, ToolDef } from '../../conversation/types.js';
import type { CustomTool, FunctionTool, NamespaceTool, ResponsesBody } from './schema.js';

export function functionTools(tools: ResponsesBody['tools']): FunctionTool[] {
  return (tools ?? []).filter((t): t is FunctionTool => t.type === 'function');
}

// What a generated call of a client-run tool carries: a harmless command, a small new file. The
// client runs them, so a fixture says anything more.
const SHELL_ACTION: JsonSchema = {
  type: 'object',
  properties: { commands: { type: 'array', items: { type: 'string', enum: ['pwd', 'ls'] }, minItems: 1, maxItems: 1 } },
  required: ['commands'],
};
const PATCH_OPERATION: JsonSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['create_file'] },
    path: { type: 'string', enum: ['notes.txt'] },
    diff: { type: 'string', enum: ['+Notes\n'] },
  },
  required: ['type', 'path', 'diff'],
};

/** The builtin tools, by their `type`: their neutral name is the type. */
const BUILTINS: Record<string, { builtin: 'shell' | 'apply_patch'; parameters: JsonSchema }> = {
  shell: { builtin: 'shell', parameters: SHELL_ACTION },
  apply_patch: { builtin: 'apply_patch', parameters: PATCH_OPERATION },
};

function declared(tool: FunctionTool | CustomTool, namespace?: string): ToolDef {
  const where = namespace ? { namespace } : {};
  if (tool.type === 'function') {
    return { name: tool.name, description: tool.description ?? undefined, parameters: tool.parameters ?? { type: 'object', properties: {} }, ...where };
  }
  const grammar = tool.format?.type === 'grammar' ? { grammar: { syntax: tool.format.syntax, definition: tool.format.definition } } : {};
  return { name: tool.name, description: tool.description ?? undefined, parameters: { type: 'string' }, freeform: grammar, ...where };
}

/**
 * The tools a reply may call, and where each one's schema sits in the body (for the budget's 400);
 * `at` is where the list sits (`tools`, or `input[2].tools` for an `additional_tools` item).
 */
export function toolDefs(tools: ResponsesBody['tools'], at = 'tools'): { defs: ToolDef[]; fields: string[] } {
  const defs: ToolDef[] = [];
  const fields: string[] = [];
  (tools ?? []).forEach((tool, index) => {
    if (tool.type === 'function' || tool.type === 'custom') {
      defs.push(declared(tool as FunctionTool | CustomTool));
      fields.push(`${at}[${index}].parameters`);
    } else if (tool.type === 'namespace') {
      (tool as NamespaceTool).tools.forEach((inner, place) => {
        defs.push(declared(inner, (tool as NamespaceTool).name));
        fields.push(`${at}[${index}].tools[${place}].parameters`);
      });
    } else if (Object.hasOwn(BUILTINS, tool.type)) {
      defs.push({ name: tool.type, ...BUILTINS[tool.type]! });
      fields.push(`${at}[${index}]`);
    }
  });
  return { defs, fields };
}

/** The neutral name of a tool an `allowed_tools` entry or a `tool_choice` object names. */
function named(tool: { type?: unknown; name?: unknown }): string | undefined {
  if ((tool.type === 'function' || tool.type === 'custom') && typeof tool.name === 'string') return tool.name;
  return typeof tool.type === 'string' && Object.hasOwn(BUILTINS, tool.type) ? tool.type : undefined;
}

/** `allowed_tools` in `required` mode forces a call of one of its tools. */
function allowedTools(choice: { mode?: string; tools?: unknown }): ToolChoice {
  if (choice.mode !== 'required') return { mode: 'auto' };
  const among = (Array.isArray(choice.tools) ? choice.tools : []).flatMap((tool: { type?: unknown; name?: unknown }) => named(tool) ?? []);
  return among.length > 0 ? { mode: 'required', among } : { mode: 'required' };
}

export function toolChoiceOf(choice: ResponsesBody['tool_choice'], defs: readonly ToolDef[]): ToolChoice {
  if (!choice) return { mode: 'auto' };
  if (typeof choice === 'string') return { mode: choice as 'none' | 'auto' | 'required' };
  if (choice.type === 'allowed_tools') return allowedTools(choice);
  const name = named(choice);
  // Hosted tools (`ToolChoiceTypes`, MCP) are the service's own to call: the mock answers as for auto.
  if (name === undefined) return { mode: 'auto' };
  const tool = defs.find((t) => t.name === name);
  const fits = tool && (choice.type === 'custom' ? tool.freeform !== undefined : choice.type !== 'function' || (!tool.freeform && !tool.builtin));
  if (!fits) {
    const param = choice.type === 'function' || choice.type === 'custom' ? 'tool_choice.name' : 'tool_choice.type';
    throw invalid(`Invalid value for 'tool_choice': no ${choice.type} tool named '${name}' in 'tools'.`, param);
  }
  return { mode: 'tool', name };
}
