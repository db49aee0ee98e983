// Responses request body -> neutral ChatRequest. `instructions` and system/developer messages
// become the system text; `previous_response_id` puts the stored conversation before the input.
import { checkGenerationBudget } from '../../conversation/generation-budget.js';
import { failure, invalid } from '../../conversation/errors.js';
import type { ChatRequest, ReasoningRequest, ResponseFormat, ToolChoice, ToolDef, Turn } from '../../conversation/types.js';
import type { DecodeContext, StyleInput } from '../style.js';
import { parseBody } from '../validate.js';
import { inputTurns } from './input.js';
import { responsesBody, type FunctionTool, type ResponsesBody } from './schema.js';

export function functionTools(tools: ResponsesBody['tools']): FunctionTool[] {
  return (tools ?? []).filter((t): t is FunctionTool => t.type === 'function');
}

function toolDefs(tools: ResponsesBody['tools']): ToolDef[] {
  // Hosted tools (web search, file search, ...) are accepted; the mock never calls them.
  return functionTools(tools).map((t) => ({
    name: t.name,
    description: t.description ?? undefined,
    parameters: t.parameters ?? { type: 'object', properties: {} },
  }));
}

/** `allowed_tools` in `required` mode forces a call of one of its function tools. */
function allowedTools(choice: { mode?: string; tools?: unknown }): ToolChoice {
  if (choice.mode !== 'required') return { mode: 'auto' };
  const among = (Array.isArray(choice.tools) ? choice.tools : []).flatMap((tool: { type?: unknown; name?: unknown }) =>
    tool.type === 'function' && typeof tool.name === 'string' ? [tool.name] : [],
  );
  return among.length > 0 ? { mode: 'required', among } : { mode: 'required' };
}

function toolChoiceOf(choice: ResponsesBody['tool_choice'], toolNames: string[]): ToolChoice {
  if (!choice) return { mode: 'auto' };
  if (typeof choice === 'string') return { mode: choice as 'none' | 'auto' | 'required' };
  if (choice.type === 'allowed_tools') return allowedTools(choice);
  if (choice.type !== 'function') return { mode: 'auto' };
  const name = choice.name!;
  if (!toolNames.includes(name)) {
    throw invalid(`Invalid value for 'tool_choice': no function tool named '${name}' in 'tools'.`, 'tool_choice.name');
  }
  return { mode: 'tool', name };
}

function responseFormatOf(text: ResponsesBody['text']): ResponseFormat {
  const format = text?.format;
  if (!format || format.type === 'text') return { type: 'text' };
  if (format.type === 'json_object') return { type: 'json_object' };
  return { type: 'json_schema', name: format.name, schema: format.schema };
}

/**
 * Reasoning is asked for by an effort other than `none` or by a summary. The reasoning is
 * always counted; its text is only shown, as a summary, when a summary was asked for.
 */
function reasoningOf(reasoning: ResponsesBody['reasoning']): ReasoningRequest | undefined {
  const summary = reasoning?.summary ?? reasoning?.generate_summary;
  const effort = reasoning?.effort ?? undefined;
  if (effort === 'none' || (effort === undefined && !summary)) return undefined;
  return { ...(effort ? { effort } : {}), visible: summary != null };
}

function earlierTurns(id: string | null | undefined, context: DecodeContext): Turn[] {
  if (!id) return [];
  const turns = context.storedTurns(id);
  if (!turns) {
    throw failure('previous_response_not_found', `Previous response with id '${id}' not found.`, { param: 'previous_response_id' });
  }
  return turns;
}

export function decodeResponses(input: StyleInput, context: DecodeContext): ChatRequest {
  const data = parseBody(responsesBody, input.body);
  const earlier = earlierTurns(data.previous_response_id, context);
  const items = typeof data.input === 'string' ? [{ role: 'user' as const, content: data.input }] : (data.input ?? []);
  const decoded = inputTurns(items, context, earlier);
  const turns = [...earlier, ...decoded.turns];
  if (turns.length === 0) throw invalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  const tools = toolDefs(data.tools);
  const request: ChatRequest = {
    style: 'responses',
    model: data.model,
    system: [data.instructions ?? '', ...decoded.system].filter((s) => s !== '').join('\n'),
    turns,
    tools,
    toolChoice: toolChoiceOf(data.tool_choice, tools.map((t) => t.name)),
    maxOutputTokens: data.max_output_tokens ?? undefined,
    reasoning: reasoningOf(data.reasoning),
    responseFormat: responseFormatOf(data.text),
    choices: 1,
    stopSequences: [],
    stream: data.stream === true,
    temperature: data.temperature ?? undefined,
    headers: input.headers,
    body: data,
    carriedTurns: earlier.length,
  };
  const declared = data.tools ?? [];
  const functions = functionTools(data.tools);
  checkGenerationBudget(request, { format: 'text.format.schema', tool: (i) => `tools[${declared.indexOf(functions[i]!)}].parameters` });
  return request;
}
