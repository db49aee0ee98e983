// Messages-style request body -> neutral ChatRequest: every field of the gateway description and
// of the vendor's API is accepted and type-checked; unknown fields pass, as SDKs add new ones.
import { checkGenerationBudget } from '../../conversation/generation-budget.js';
import * as z from 'zod';
import type { ChatRequest, ReasoningRequest, ResponseFormat, SystemAt, ToolChoice, ToolDef } from '../../conversation/types.js';
import { DecodedTools } from '../decoded-tools.js';
import { jsonObject } from '../json-object.js';
import type { StyleInput } from '../style.js';
import { parseBody } from '../validate.js';
import { blockSchemas } from './blocks.js';
import { toTurns } from './turns.js';
import { badField, messagesWording } from './wording.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';

/** The body's schemas, made at the first messages request: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const { contentBlock, textBlock } = blockSchemas();
  /**
   * Client tools carry a schema; server tools (`web_search_20250305`, `bash_20250124`...) a type and
   * name; toolsets (`computer_toolset_20260801`, `browser_toolset_20260801`, the beta `mcp_toolset`)
   * only a type.
   */
  const tool = z.looseObject({
    type: z.string().nullish(),
    name: z.string().min(1).nullish(),
    description: z.string().nullish(),
    input_schema: jsonObject().nullish(),
  });

  const parallel = { disable_parallel_tool_use: z.boolean().nullish() };

  /** `omitted`: the thinking blocks come back with empty text and their signature. */
  const display = z.enum(['summarized', 'omitted']).nullish();

  const body = z.looseObject({
    model: z.string().min(1),
    // 0 warms the prompt cache: usage, no content (`stop_reason: "max_tokens"`).
    max_tokens: z.number().int().min(0),
    messages: z
      .array(z.looseObject({ role: z.enum(['user', 'assistant', 'system']), content: z.union([z.string(), z.array(contentBlock)]) }))
      .min(1, 'at least one message is required'),
    system: z.union([z.string(), z.array(textBlock)]).nullish(),
    tools: z.array(tool).nullish(),
    tool_choice: z
      .discriminatedUnion('type', [
        z.looseObject({ type: z.literal('auto'), ...parallel }),
        z.looseObject({ type: z.literal('any'), ...parallel }),
        z.looseObject({ type: z.literal('tool'), name: z.string().min(1), ...parallel }),
        z.looseObject({ type: z.literal('none') }),
      ])
      .nullish(),
    thinking: z
      .discriminatedUnion('type', [
        z.looseObject({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024), display }),
        z.looseObject({ type: z.literal('adaptive'), display }),
        z.looseObject({ type: z.literal('between_tools') }),
        z.looseObject({ type: z.literal('disabled') }),
      ])
      .nullish(),
    output_config: z
      .looseObject({
        effort: z.string().nullish(),
        format: z.looseObject({ type: z.literal('json_schema'), schema: jsonObject() }).nullish(),
      })
      .nullish(),
    stop_sequences: z.array(z.string()).nullish(),
    temperature: z.number().min(0).max(1).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    top_k: z.number().int().min(0).nullish(),
    metadata: z.looseObject({ user_id: z.string().max(256).nullish() }).nullish(),
    stream: z.boolean().nullish(),
    service_tier: z.enum(['auto', 'standard_only']).nullish(),
  });

  /** `count_tokens` takes the same body without the output settings. */
  const countBody = body.extend({ max_tokens: z.number().int().min(0).nullish() });
  /** The body whose tools equal a list decoded lately: they are not checked again (`decodedTools`). */
  const bodyOfKnownTools = body.extend({ tools: z.unknown() });
  return { body, countBody, bodyOfKnownTools };
});

type Body = z.infer<ReturnType<typeof schemas>['countBody']>;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

function clientTools(tools: Body['tools']): ToolDef[] {
  const seen = new Set<string>();
  return (tools ?? []).flatMap((t, i): ToolDef[] => {
    const server = Boolean(t.type) && t.type !== 'custom';
    if (!t.name) {
      if (server) return [];
      throw badField(`tools[${i}].name`, 'Field required');
    }
    if (seen.has(t.name)) throw badField(`tools[${i}].name`, 'Tool names must be unique.');
    seen.add(t.name);
    if (server) return [];
    if (!TOOL_NAME.test(t.name)) throw badField(`tools[${i}].name`, `String should match pattern '${TOOL_NAME.source}'`);
    if (!t.input_schema) throw badField(`tools[${i}].input_schema`, 'Field required');
    return [{ name: t.name, description: t.description ?? undefined, parameters: t.input_schema }];
  });
}

function toolChoiceOf(choice: Body['tool_choice'], tools: readonly ToolDef[]): ToolChoice {
  if (!choice || choice.type === 'auto') return { mode: 'auto' };
  if (choice.type === 'none') return { mode: 'none' };
  if (choice.type === 'any') return { mode: 'required' };
  if (!tools.some((t) => t.name === choice.name)) throw badField('tool_choice.name', `Tool '${choice.name}' not found in 'tools'.`);
  return { mode: 'tool', name: choice.name };
}

function reasoningOf(data: Body, toolChoice: ToolChoice): ReasoningRequest | undefined {
  const thinking = data.thinking;
  if (!thinking || thinking.type === 'disabled') return undefined;
  if (toolChoice.mode === 'required' || toolChoice.mode === 'tool') {
    throw badField('tool_choice', 'Thinking may not be enabled when tool_choice forces tool use.');
  }
  const effort = data.output_config?.effort ?? undefined;
  if (thinking.type === 'between_tools') return { effort, visible: true };
  if (thinking.type === 'adaptive') return { effort, visible: thinking.display !== 'omitted' };
  if (typeof data.max_tokens === 'number' && data.max_tokens <= thinking.budget_tokens) {
    throw badField('max_tokens', '`max_tokens` must be greater than `thinking.budget_tokens`.');
  }
  return { effort, budgetTokens: thinking.budget_tokens, visible: thinking.display !== 'omitted' };
}

function responseFormatOf(data: Body): ResponseFormat {
  const format = data.output_config?.format;
  return format ? { type: 'json_schema', schema: format.schema } : { type: 'text' };
}

/**
 * The system text: the `system` field's, then the system turns' at the start, then those after,
 * the empty ones left out. Pushed, not spread from mapped arrays: a `map` of a request's empty
 * lists made its array with one map until V8 compiled it and with another after, and `toRequest`,
 * compiled for the first, was deoptimized twice in a fresh server's bursts.
 */
function systemText(system: Body['system'], opening: readonly string[], systemAt: readonly SystemAt[]): string {
  const texts: string[] = [];
  if (typeof system === 'string') texts.push(system);
  else if (system) for (const block of system) texts.push(block.text);
  for (const text of opening) texts.push(text);
  for (const at of systemAt) texts.push(at.text);
  return texts.filter((text) => text !== '').join('\n');
}

function toRequest(data: Body, input: StyleInput, tools = clientTools(data.tools)): ChatRequest {
  const { turns, system: opening, systemAt } = toTurns(data.messages);
  const toolChoice = toolChoiceOf(data.tool_choice, tools);
  return {
    style: 'messages',
    model: data.model,
    system: systemText(data.system, opening, systemAt),
    // Undefined, not left out by a spread: a literal with a spread is built a key at a time, on every request.
    systemAt: systemAt.length > 0 ? systemAt : undefined,
    turns,
    tools,
    toolChoice,
    maxOutputTokens: data.max_tokens ?? undefined,
    reasoning: reasoningOf(data, toolChoice),
    responseFormat: responseFormatOf(data),
    choices: 1,
    stopSequences: data.stop_sequences ?? [],
    stream: data.stream === true,
    temperature: data.temperature ?? undefined,
    headers: input.headers,
    body: data,
  };
}

/** The tools as sent, as zod gave them back, and the client tools made of them. */
const decodedTools = new DecodedTools<{ listed: Body['tools']; clientTools: ToolDef[] }>();

export function decodeMessages(input: StyleInput): ChatRequest {
  const sent = (input.body as { tools?: unknown } | null | undefined)?.tools;
  const known = decodedTools.get(sent);
  const data: Body = known ? { ...parseBody(schemas().bodyOfKnownTools, input.body, messagesWording), tools: known.listed } : parseBody(schemas().body, input.body, messagesWording);
  const request = toRequest(data, input, known?.clientTools);
  const declared = data.tools ?? [];
  const field = (i: number) => `tools[${declared.findIndex((t) => t.name === request.tools[i]!.name)}].input_schema`;
  checkGenerationBudget(request, { format: 'output_config.format.schema', tool: field });
  if (!known) decodedTools.set(sent, { listed: data.tools, clientTools: request.tools });
  return request;
}

/** The body of `POST /v1/messages/count_tokens`: `max_tokens` and `stream` play no part there. */
export function decodeCountTokens(input: StyleInput): ChatRequest {
  return { ...toRequest(parseBody(schemas().countBody, input.body, messagesWording), input), stream: false };
}
