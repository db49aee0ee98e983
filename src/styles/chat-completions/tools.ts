// Chat-completions tools and tool choice -> the neutral tools. Function tools, and custom tools
// (`ChatCompletionCustomTool`: freeform text input, optionally held to a grammar); `tool_choice`
// names either kind (`ChatCompletionNamedToolChoice`, `ChatCompletionNamedToolChoiceCustom`) or
// restricts the call to `allowed_tools` (`ChatCompletionAllowedToolChoice`).
import * as z from 'zod';
import { jsonObject } from '../json-object.js';
import { invalid } from '../../conversation/errors.js';
import type { ToolChoice, ToolDef } from '../../conversation/types.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';

/** The tools' schemas, made at the first chat-completions request with the body's. */
export const toolSchemas = madeAtFirstUse(() => {
  const functionTool = z.looseObject({
    type: z.literal('function'),
    function: z.looseObject({
      name: z.string().min(1),
      description: z.string().nullish(),
      parameters: jsonObject().nullish(),
    }),
  });

  const customFormat = z.union([
    z.looseObject({ type: z.literal('text') }),
    z.looseObject({
      type: z.literal('grammar'),
      grammar: z.looseObject({ definition: z.string(), syntax: z.enum(['lark', 'regex']) }),
    }),
  ]);

  const customTool = z.looseObject({
    type: z.literal('custom'),
    custom: z.looseObject({ name: z.string().min(1), description: z.string().nullish(), format: customFormat.nullish() }),
  });

  const tools = z.array(z.discriminatedUnion('type', [functionTool, customTool])).nullish();

  const toolChoice = z
    .union([
      z.enum(['none', 'auto', 'required']),
      z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
      z.looseObject({ type: z.literal('custom'), custom: z.looseObject({ name: z.string() }) }),
      z.looseObject({
        type: z.literal('allowed_tools'),
        allowed_tools: z.looseObject({ mode: z.enum(['auto', 'required']), tools: z.array(z.looseObject({})) }),
      }),
    ])
    .nullish();
  return { tools, toolChoice };
});

type ToolSchemas = ReturnType<typeof toolSchemas>;

/**
 * A request without tools gets this one array. A fresh `[].map(...)` was made with one map until
 * this function was optimized and with another after, and the decode, the budget check and the
 * served event, optimized for the first, were each deoptimized and compiled again. Frozen: a change
 * to it throws rather than reaching every request.
 */
const NO_TOOLS = Object.freeze([]) as unknown as ToolDef[];

export function toolDefs(declared: z.infer<ToolSchemas['tools']>): ToolDef[] {
  if (!declared) return NO_TOOLS;
  return declared.map((tool): ToolDef => {
    if (tool.type === 'function') {
      const fn = tool.function;
      return { name: fn.name, description: fn.description ?? undefined, parameters: fn.parameters ?? { type: 'object', properties: {} } };
    }
    const { name, description, format } = tool.custom;
    const grammar = format?.type === 'grammar' ? { grammar: format.grammar } : {};
    return { name, description: description ?? undefined, parameters: { type: 'string' }, freeform: grammar };
  });
}

/** The names an `allowed_tools` list gives, of either kind (`{ type, function: { name } }` or `{ type, custom: { name } }`). */
function allowedNames(listed: ReadonlyArray<Record<string, unknown>>): string[] {
  return listed.flatMap((tool) => {
    const holder = (tool.type === 'custom' ? tool.custom : tool.function) as { name?: unknown } | undefined;
    return typeof holder?.name === 'string' ? [holder.name] : [];
  });
}

export function toolChoiceOf(choice: z.infer<ToolSchemas['toolChoice']>, declared: readonly ToolDef[]): ToolChoice {
  if (!choice) return { mode: 'auto' };
  if (typeof choice === 'string') return { mode: choice };
  if (choice.type === 'allowed_tools') {
    if (choice.allowed_tools.mode !== 'required') return { mode: 'auto' };
    const among = allowedNames(choice.allowed_tools.tools);
    return among.length > 0 ? { mode: 'required', among } : { mode: 'required' };
  }
  const name = choice.type === 'custom' ? choice.custom.name : choice.function.name;
  const tool = declared.find((t) => t.name === name);
  if (!tool || (choice.type === 'custom') !== (tool.freeform !== undefined)) {
    throw invalid(`Invalid value for 'tool_choice': no ${choice.type} tool named '${name}' in 'tools'.`, 'tool_choice');
  }
  return { mode: 'tool', name };
}
