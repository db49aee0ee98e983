// A Converse request body (`POST /model/{modelId}/converse` and `/converse-stream`) -> the neutral
// ChatRequest. The model is the path's, reduced to the catalog's id; the fields are those of the
// AWS SDK's ConverseCommandInput; unknown ones pass, as AWS adds them.
import * as z from 'zod';
import { jsonObject } from '../json-object.js';
import { invalid } from '../../conversation/errors.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { checkGenerationBudget } from '../../conversation/generation-budget.js';
import type { ChatRequest, Part, ReasoningRequest, ToolChoice, ToolDef, Turn } from '../../conversation/types.js';
import type { StyleInput } from '../style.js';
import { parseBody, type IssueWording } from '../validate.js';

/** The body's schemas, made at the first Converse request: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const media = z.looseObject({ format: z.string(), source: z.looseObject({ bytes: z.string().nullish() }) });

  const toolResultContent = z.looseObject({ text: z.string().nullish(), json: z.unknown().optional() });

  const block = z.looseObject({
    text: z.string().nullish(),
    image: media.nullish(),
    document: media.extend({ name: z.string().nullish() }).nullish(),
    toolUse: z.looseObject({ toolUseId: z.string().min(1), name: z.string().min(1), input: z.unknown() }).nullish(),
    toolResult: z.looseObject({ toolUseId: z.string().min(1), content: z.array(toolResultContent), status: z.enum(['success', 'error']).nullish() }).nullish(),
    reasoningContent: z.looseObject({ reasoningText: z.looseObject({ text: z.string() }).nullish() }).nullish(),
  });

  const body = z.looseObject({
    messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content: z.array(block) })).min(1),
    system: z.array(z.looseObject({ text: z.string().nullish() })).nullish(),
    inferenceConfig: z
      .looseObject({
        maxTokens: z.number().int().min(1).nullish(),
        temperature: z.number().min(0).max(1).nullish(),
        topP: z.number().min(0).max(1).nullish(),
        stopSequences: z.array(z.string()).max(4).nullish(),
      })
      .nullish(),
    toolConfig: z
      .looseObject({
        tools: z.array(z.looseObject({ toolSpec: z.looseObject({ name: z.string().min(1), description: z.string().nullish(), inputSchema: z.looseObject({ json: jsonObject() }) }).nullish() })).min(1),
        toolChoice: z.looseObject({ auto: z.object({}).nullish(), any: z.object({}).nullish(), tool: z.looseObject({ name: z.string() }).nullish() }).nullish(),
      })
      .nullish(),
    additionalModelRequestFields: jsonObject().nullish(),
  });
  return { body, block, toolResultContent };
});

type Schemas = ReturnType<typeof schemas>;
type Body = z.infer<Schemas['body']>;
type Block = z.infer<Schemas['block']>;

/** AWS words a schema problem as "1 validation error detected: Value at 'field' failed to satisfy constraint". */
export const bedrockWording: IssueWording = ({ field, missing, detail }) =>
  `1 validation error detected: Value ${missing ? 'null ' : ''}at '${field || 'body'}' failed to satisfy constraint: ${missing ? 'Member must not be null' : detail}`;

function toolResultText(content: ReadonlyArray<z.infer<Schemas['toolResultContent']>>): string {
  return content.map((item) => item.text ?? JSON.stringify(item.json ?? null)).join('\n');
}

function partsOf(item: Block): Part[] {
  if (typeof item.text === 'string') return [{ kind: 'text', text: item.text }];
  const bytes = item.image ?? item.document;
  if (bytes?.source.bytes) return [{ kind: 'media', mimeType: `${item.image ? 'image' : 'application'}/${bytes.format}`, data: bytes.source.bytes }];
  if (item.toolUse) return [{ kind: 'tool_call', id: item.toolUse.toolUseId, name: item.toolUse.name, arguments: item.toolUse.input ?? {} }];
  if (item.reasoningContent?.reasoningText) return [{ kind: 'reasoning', text: item.reasoningContent.reasoningText.text }];
  return [];
}

/** A user message's tool results are tool turns of their own, as every style's are. */
function toTurns(messages: Body['messages']): Turn[] {
  return messages.flatMap((message): Turn[] => {
    const results = message.content.flatMap((item) => (item.toolResult ? [item.toolResult] : []));
    const tools = results.map((result): Turn => ({ role: 'tool', parts: [{ kind: 'tool_result', callId: result.toolUseId, content: toolResultText(result.content) }] }));
    const parts = message.content.flatMap(partsOf);
    return parts.length > 0 ? [...tools, { role: message.role, parts }] : tools;
  });
}

function toolsOf(config: Body['toolConfig']): ToolDef[] {
  return (config?.tools ?? []).flatMap((tool) => (tool.toolSpec ? [{ name: tool.toolSpec.name, description: tool.toolSpec.description ?? undefined, parameters: tool.toolSpec.inputSchema.json }] : []));
}

function toolChoiceOf(config: Body['toolConfig'], tools: readonly ToolDef[]): ToolChoice {
  const choice = config?.toolChoice;
  if (choice?.any) return { mode: 'required' };
  if (!choice?.tool) return { mode: 'auto' };
  if (!tools.some((tool) => tool.name === choice.tool!.name)) throw invalid(`The tool ${choice.tool.name} is not in toolConfig.tools.`, 'toolConfig.toolChoice.tool.name');
  return { mode: 'tool', name: choice.tool.name };
}

/** Claude's thinking rides in `additionalModelRequestFields`, as the messages body spells it. */
function reasoningOf(fields: Body['additionalModelRequestFields']): ReasoningRequest | undefined {
  const thinking = fields?.thinking as { type?: unknown; budget_tokens?: unknown } | undefined;
  if (thinking?.type !== 'enabled' && thinking?.type !== 'adaptive') return undefined;
  return { visible: true, ...(typeof thinking.budget_tokens === 'number' && { budgetTokens: thinking.budget_tokens }) };
}

export function decodeConverse(input: StyleInput, model: string, stream: boolean): ChatRequest {
  const data = parseBody(schemas().body, input.body, bedrockWording);
  const tools = toolsOf(data.toolConfig);
  const inference = data.inferenceConfig;
  const request: ChatRequest = {
    style: 'bedrock',
    model,
    system: (data.system ?? []).flatMap((item) => (item.text ? [item.text] : [])).join('\n'),
    turns: toTurns(data.messages),
    tools,
    toolChoice: toolChoiceOf(data.toolConfig, tools),
    maxOutputTokens: inference?.maxTokens ?? undefined,
    reasoning: reasoningOf(data.additionalModelRequestFields),
    responseFormat: { type: 'text' },
    choices: 1,
    stopSequences: inference?.stopSequences ?? [],
    stream,
    temperature: inference?.temperature ?? undefined,
    headers: input.headers,
    body: data,
  };
  checkGenerationBudget(request, { format: 'additionalModelRequestFields', tool: (i) => `toolConfig.tools[${i}].toolSpec.inputSchema.json` });
  return request;
}
