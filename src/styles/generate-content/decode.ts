// Generate-content request body -> neutral ChatRequest (WIRE.md section 5). The model and the
// action come from the path; `streamGenerateContent` is the stream flag. Unknown fields pass,
// as SDKs add new ones; known ones are type-checked and named when wrong.
import { checkGenerationBudget } from '../../conversation/generation-budget.js';
import * as z from 'zod';
import { jsonObject } from '../json-object.js';
import { invalid } from '../../conversation/errors.js';
import type { ChatRequest, ReasoningRequest, ResponseFormat, ToolChoice, ToolDef } from '../../conversation/types.js';
import type { StyleInput } from '../style.js';
import { parseBody } from '../validate.js';
import { camelKeys } from './casing.js';
import { contentsToTurns, partSchemas, systemText } from './parts.js';
import { toJsonSchema } from './schema.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';

// Letters, digits, underscores, dots, colons and dashes, up to 64, as the vendor documents.
const FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
const caseless = <T extends string>(values: readonly [T, ...T[]]) =>
  z.preprocess((value) => (typeof value === 'string' ? value.toUpperCase() : value), z.enum(values));

/** The body's schemas, made at the first generate-content request: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const { contentSchema, systemInstructionSchema } = partSchemas();
  const declaration = z.looseObject({
    name: z.string().regex(FUNCTION_NAME, 'a function name starts with a letter or underscore and holds up to 64 of A-Z a-z 0-9 _ . : -'),
    description: z.string().optional(),
    parameters: jsonObject().optional(),
    parametersJsonSchema: z.unknown().optional(),
  });

  const generationConfig = z.looseObject({
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().min(0).max(1).optional(),
    topK: z.number().int().positive().optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    candidateCount: z.number().int().min(1).max(8).optional(),
    stopSequences: z.array(z.string()).max(5).optional(),
    responseLogprobs: z.boolean().optional(),
    logprobs: z.number().int().min(0).max(20).optional(),
    seed: z.number().int().optional(),
    presencePenalty: z.number().optional(),
    frequencyPenalty: z.number().optional(),
    responseMimeType: z.enum(['text/plain', 'application/json', 'application/xml', 'application/yaml', 'text/x.enum']).optional(),
    responseSchema: jsonObject().optional(),
    responseJsonSchema: z.unknown().optional(),
    responseModalities: z.array(caseless(['TEXT', 'IMAGE', 'AUDIO', 'MODALITY_UNSPECIFIED'])).optional(),
    imageConfig: z.looseObject({ aspectRatio: z.string().optional(), imageSize: z.string().optional() }).optional(),
    thinkingConfig: z
      .looseObject({
        thinkingBudget: z.number().int().min(-1).optional(),
        includeThoughts: z.boolean().optional(),
        thinkingLevel: caseless(['MINIMAL', 'LOW', 'MEDIUM', 'HIGH', 'THINKING_LEVEL_UNSPECIFIED']).optional(),
      })
      .optional(),
  });

  const requestFields = {
    contents: z.array(contentSchema).min(1),
    systemInstruction: z.union([z.string(), systemInstructionSchema]).optional(),
    tools: z.array(z.looseObject({ functionDeclarations: z.array(declaration).optional() })).optional(),
    toolConfig: z
      .looseObject({
        functionCallingConfig: z
          .looseObject({
            mode: caseless(['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED']).optional(),
            allowedFunctionNames: z.array(z.string()).optional(),
          })
          .optional(),
      })
      .optional(),
    generationConfig: generationConfig.optional(),
    safetySettings: z.array(z.looseObject({ category: z.string(), threshold: z.string() })).optional(),
    cachedContent: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
  };

  const body = z.looseObject(requestFields);

  // countTokens takes the contents (with the tools and system instruction they are counted with),
  // or a whole generateContent request. Here the system instruction must be a Content object.
  const countBody = z.looseObject({
    contents: requestFields.contents.optional(),
    systemInstruction: systemInstructionSchema.optional(),
    tools: requestFields.tools,
    generateContentRequest: z.looseObject({ ...requestFields, model: z.string().optional() }).optional(),
  });
  return { body, countBody };
});

type Body = z.infer<ReturnType<typeof schemas>['body']>;
type Config = NonNullable<Body['generationConfig']>;

function toolsOf(data: Body): ToolDef[] {
  const tools: ToolDef[] = [];
  (data.tools ?? []).forEach((tool, t) =>
    (tool.functionDeclarations ?? []).forEach((fn, f) => {
      const field = `tools[${t}].functionDeclarations[${f}]`;
      if (tools.some((known) => known.name === fn.name)) throw invalid(`Duplicate function declaration found: '${fn.name}'.`, `${field}.name`);
      if (fn.parameters !== undefined && fn.parametersJsonSchema !== undefined) {
        throw invalid(`Invalid value at '${field}': set parameters or parametersJsonSchema, not both.`, field);
      }
      const parameters =
        fn.parameters !== undefined
          ? toJsonSchema(fn.parameters, `${field}.parameters`)
          : ((fn.parametersJsonSchema as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} });
      tools.push({ name: fn.name, description: fn.description, parameters });
    }),
  );
  return tools;
}

function toolChoiceOf(data: Body, tools: readonly ToolDef[]): ToolChoice {
  const config = data.toolConfig?.functionCallingConfig;
  const allowed = config?.allowedFunctionNames ?? [];
  allowed.forEach((name, i) => {
    if (!tools.some((t) => t.name === name)) {
      const field = `toolConfig.functionCallingConfig.allowedFunctionNames[${i}]`;
      throw invalid(`Invalid value at '${field}': no function named '${name}' is declared in 'tools'.`, field);
    }
  });
  if (config?.mode === 'NONE') return { mode: 'none' };
  if (config?.mode !== 'ANY') return { mode: 'auto' };
  if (allowed.length === 1) return { mode: 'tool', name: allowed[0]! };
  return allowed.length > 0 ? { mode: 'required', among: allowed } : { mode: 'required' };
}

/** `text/x.enum` answers one of the schema's `enum` values as plain text: a schema without one is refused. */
function enumFormat(config: Config, field: string | undefined): ResponseFormat {
  const schema = (config.responseSchema ?? config.responseJsonSchema) as { enum?: unknown } | undefined;
  const values = Array.isArray(schema?.enum) ? schema.enum.filter((v): v is string => typeof v === 'string') : [];
  if (values.length === 0) {
    const param = `generationConfig.${field ?? 'responseSchema'}`;
    throw invalid(`Invalid value at '${param}': responseMimeType "text/x.enum" needs a response schema with a string enum.`, param);
  }
  return { type: 'enum', values };
}

function responseFormatOf(config: Config | undefined): ResponseFormat {
  const mime = config?.responseMimeType;
  if (config?.responseSchema !== undefined && config.responseJsonSchema !== undefined) {
    throw invalid(`Invalid value at 'generationConfig': set responseSchema or responseJsonSchema, not both.`, 'generationConfig.responseJsonSchema');
  }
  const schemaField = config?.responseSchema !== undefined ? 'responseSchema' : config?.responseJsonSchema !== undefined ? 'responseJsonSchema' : undefined;
  if (schemaField && mime !== 'application/json' && mime !== 'text/x.enum') {
    throw invalid(`Invalid value at 'generationConfig.${schemaField}': a response schema needs responseMimeType "application/json".`, `generationConfig.${schemaField}`);
  }
  if (mime === 'text/x.enum') return enumFormat(config!, schemaField);
  if (mime !== 'application/json') return { type: 'text' };
  if (config?.responseSchema !== undefined) return { type: 'json_schema', schema: toJsonSchema(config.responseSchema, 'generationConfig.responseSchema') };
  if (config?.responseJsonSchema !== undefined) return { type: 'json_schema', schema: config.responseJsonSchema as Record<string, unknown> };
  return { type: 'json_object' };
}

/**
 * A thinking budget of 0 turns thinking off; any other thinkingConfig turns it on. The thoughts are
 * only shown with includeThoughts, but they are counted (thoughtsTokenCount) either way, as the
 * vendor bills hidden thinking too.
 */
function reasoningOf(config: Config | undefined): ReasoningRequest | undefined {
  const thinking = config?.thinkingConfig;
  if (!thinking || thinking.thinkingBudget === 0) return undefined;
  const level = thinking.thinkingLevel;
  return {
    effort: level && level !== 'THINKING_LEVEL_UNSPECIFIED' ? level.toLowerCase() : undefined,
    budgetTokens: thinking.thinkingBudget !== undefined && thinking.thinkingBudget > 0 ? thinking.thinkingBudget : undefined,
    visible: thinking.includeThoughts === true,
  };
}

function imageOutputOf(config: Config | undefined): ChatRequest['imageOutput'] {
  const modalities = config?.responseModalities ?? [];
  if (!modalities.includes('IMAGE')) return undefined;
  return {
    aspectRatio: config?.imageConfig?.aspectRatio,
    imageSize: config?.imageConfig?.imageSize,
    withText: modalities.includes('TEXT'),
    fields: { aspectRatio: 'generationConfig.imageConfig.aspectRatio', imageSize: 'generationConfig.imageConfig.imageSize' },
  };
}

function toRequest(data: Body, model: string, stream: boolean, input: StyleInput): ChatRequest {
  const config = data.generationConfig;
  const tools = toolsOf(data);
  return {
    style: 'generate-content',
    model,
    system: systemText(data.systemInstruction),
    turns: contentsToTurns(data.contents),
    tools,
    toolChoice: toolChoiceOf(data, tools),
    maxOutputTokens: config?.maxOutputTokens,
    reasoning: reasoningOf(config),
    responseFormat: responseFormatOf(config),
    choices: config?.candidateCount ?? 1,
    stopSequences: config?.stopSequences ?? [],
    logprobs: config?.responseLogprobs ? { top: config.logprobs ?? 0 } : undefined,
    stream,
    temperature: config?.temperature,
    seed: config?.seed,
    imageOutput: imageOutputOf(config),
    headers: input.headers,
    body: data,
  };
}

export function decodeGenerateContent(input: StyleInput): ChatRequest {
  const data = parseBody(schemas().body, camelKeys(input.body));
  const request = toRequest(data, input.params.model ?? '', input.params.action === 'streamGenerateContent', input);
  const format = data.generationConfig?.responseSchema !== undefined ? 'responseSchema' : 'responseJsonSchema';
  const toolFields = (data.tools ?? []).flatMap((tool, t) =>
    (tool.functionDeclarations ?? []).map((fn, f) => `tools[${t}].functionDeclarations[${f}].${fn.parameters !== undefined ? 'parameters' : 'parametersJsonSchema'}`),
  );
  checkGenerationBudget(request, { format: `generationConfig.${format}`, tool: (i) => toolFields[i]! });
  return request;
}

export function decodeCountTokens(input: StyleInput): ChatRequest {
  const data = parseBody(schemas().countBody, camelKeys(input.body));
  const model = input.params.model ?? '';
  if (data.generateContentRequest) return toRequest(data.generateContentRequest, model, false, input);
  if (!data.contents) throw invalid(`Missing required parameter: 'contents' (or 'generateContentRequest').`, 'contents', 'missing_required_parameter');
  return toRequest({ contents: data.contents, systemInstruction: data.systemInstruction, tools: data.tools }, model, false, input);
}
