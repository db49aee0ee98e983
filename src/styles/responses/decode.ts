// Responses request body -> neutral ChatRequest. `instructions` and system/developer messages
// become the system text; `previous_response_id` puts the stored conversation before the input.
import { checkGenerationBudget } from '../../conversation/generation-budget.js';
import { failure, invalid } from '../../conversation/errors.js';
import type { ChatRequest, ReasoningRequest, ResponseFormat, Turn } from '../../conversation/types.js';
import type { DecodeContext, StyleInput } from '../style.js';
import { parseBody } from '../validate.js';
import { inputTurns } from './input.js';
import { responsesBody, type AdditionalToolsItem, type InputItem, type ResponsesBody } from './schema.js';
import { toolChoiceOf, toolDefs } from './tools.js';

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

/** The request's tools, then those its input items declare (`additional_tools`), each named where it sits. */
function declaredTools(tools: ResponsesBody['tools'], items: readonly InputItem[]): ReturnType<typeof toolDefs> {
  const lists = [toolDefs(tools)];
  items.forEach((item, index) => {
    if (item.type === 'additional_tools') lists.push(toolDefs((item as AdditionalToolsItem).tools, `input[${index}].tools`));
  });
  return { defs: lists.flatMap((list) => list.defs), fields: lists.flatMap((list) => list.fields) };
}

export function decodeResponses(input: StyleInput, context: DecodeContext): ChatRequest {
  const data = parseBody(responsesBody(), input.body);
  const earlier = earlierTurns(data.previous_response_id, context);
  const items = typeof data.input === 'string' ? [{ role: 'user' as const, content: data.input }] : (data.input ?? []);
  const decoded = inputTurns(items, context, earlier);
  const turns = [...earlier, ...decoded.turns];
  if (turns.length === 0) throw invalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  const { defs: tools, fields } = declaredTools(data.tools, items);
  const request: ChatRequest = {
    style: 'responses',
    model: data.model,
    system: [data.instructions ?? '', ...decoded.system].filter((s) => s !== '').join('\n'),
    turns,
    tools,
    toolChoice: toolChoiceOf(data.tool_choice, tools),
    maxOutputTokens: data.max_output_tokens ?? undefined,
    reasoning: reasoningOf(data.reasoning),
    logprobs: data.include?.includes('message.output_text.logprobs') ? { top: data.top_logprobs ?? 0 } : undefined,
    responseFormat: responseFormatOf(data.text),
    choices: 1,
    stopSequences: [],
    stream: data.stream === true,
    temperature: data.temperature ?? undefined,
    headers: input.headers,
    body: data,
    carriedTurns: earlier.length,
  };
  checkGenerationBudget(request, { format: 'text.format.schema', tool: (i) => fields[i]! });
  return request;
}
