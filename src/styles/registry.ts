// The chat styles, each listed once with what the rest of the house needs to know of it: its
// routes, its token counting, its framing, its vendor's model-list format, the headers a page sends
// it, how its key is presented (auth accepts every style's way), how a body written in it is
// recognised, the unknown paths whose 404 it answers and its spans' operation name. The route
// table, CORS, auth, tracing, the fingerprint command and pinning all read it; adding a style is
// its folder and one entry here.
import type { BatchVendor } from '../conversation/batch.js';
import type { Framing } from '../conversation/plan.js';
import type { StyleName } from '../conversation/types.js';
import { bedrock, bedrockParams } from './bedrock/index.js';
import { chatCompletions } from './chat-completions/index.js';
import { decodeCountTokens } from './generate-content/decode.js';
import { encodeCountTokens } from './generate-content/encode.js';
import { EMBED_ACTIONS, generateContent, parseTarget, streamFraming } from './generate-content/index.js';
import { messages, messagesTokenCounting } from './messages/index.js';
import { azureOpenai } from './azure-openai/index.js';
import { ollama } from './ollama/index.js';
import { openrouter } from './openrouter/index.js';
import { vertex, vertexFraming } from './vertex/index.js';
import { vertexTokenCounting } from './vertex/count-tokens.js';
import { VERTEX_PATHS, vertexModelParams, vertexParams } from './vertex/paths.js';
import type { ListFormat } from './model-lists.js';
import { pathParams } from './path-pattern.js';
import { responses, responsesTokenCounting } from './responses/index.js';
import type { ChatStyle, TokenCounting } from './style.js';

export interface StyleEntry {
  style: ChatStyle;
  /** The paths its chat requests are posted to (router syntax: `:name` is a parameter). */
  paths: readonly string[];
  /** Its token counting: at a path of its own, or an action of its chat paths (`params` says which). */
  tokens?: { path?: string; counting: TokenCounting };
  /**
   * The decoder's view of a chat path's parameters, and whether they ask for a token count
   * (generate-content's one segment holds `{model}:{action}`), or `other`: an action neither chat
   * nor counting answers (generate-content's embeddings). Throws a MockError for an unknown action.
   */
  params?(params: Record<string, string>): { params: Record<string, string>; counting: boolean; other?: string };
  /** A chat path's parameters for a model, for a style whose path names it (the fingerprint command). */
  modelParams?(model: string): Record<string, string>;
  /** How its streams are framed for a request (the writer's framers); SSE when it does not say. */
  framing?(request: { query: Record<string, unknown>; params: Record<string, string> }): Framing;
  /** The batches whose lines may name its chat paths (OpenAI's batch file, Anthropic's message batch). */
  batch?: BatchVendor;
  /**
   * How a client asks it for pictures, on the one style that is the gateway's own image form
   * (SPEC 3): keys of a group limited to it generate images only there, and an image model's
   * reply is the picture alone by default, or Markdown text (`chat_image_output`).
   */
  gatewayImages?: string;
  /** The model-list format its vendor's clients read (the format its own list paths are forced to). */
  listFormat: ListFormat;
  /** The headers its clients send that a browser's preflight must allow. */
  corsHeaders: readonly string[];
  /** Whether its clients send no key (a local server's): its routes are answered without one. */
  keyless?: boolean;
  /** The header its clients present their key in (`authorization` as a bearer token); every style's way is accepted on every route. */
  keyHeader: string;
  /** How its clients sign the `authorization` header, if not as a bearer token: the pattern's first group is the key. */
  keySignature?: RegExp;
  /** The query parameter its clients may present their key in instead. */
  keyQuery?: string;
  /** Headers a request must carry, checked after the key, as the vendor does. */
  requiredHeaders?: readonly string[];
  /** The GenAI operation its chat performs, as the semantic conventions name it (tracing). */
  genAiOperation: string;
  /** Whether a request body is written in this style, by the fields only it has (the fingerprint command). */
  recognises(body: Record<string, unknown>): boolean;
  /**
   * The unknown paths whose 404 speaks its envelope (SPEC 2), tried in the registry's order, so
   * that a client misconfigured by a prefix still reads its own vendor's error.
   */
  family?: RegExp;
}

function targetParams(params: Record<string, string>): { params: Record<string, string>; counting: boolean; other?: string } {
  const { model, action } = parseTarget(params.target ?? '');
  const other = (EMBED_ACTIONS as readonly string[]).includes(action) ? action : undefined;
  return { params: { ...params, model, action }, counting: action === 'countTokens', ...(other && { other }) };
}

function anthropicShaped(body: Record<string, unknown>): boolean {
  if (!('max_tokens' in body && 'messages' in body) || 'max_completion_tokens' in body) return false;
  const messagesJson = JSON.stringify(body.messages);
  return typeof body.system === 'string' || Array.isArray(body.system) || messagesJson.includes('"type":"tool_use"') || messagesJson.includes('"type":"tool_result"');
}

/** Converse's content blocks are keyed by kind (`{ text }`, `{ toolUse }`), with no `type`. */
function converseShaped(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  const content = (messages[0] as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) && content.length > 0 && content.every((block) => block !== null && typeof block === 'object' && !('type' in block));
}

/** In the order bodies are recognised: chat-completions, which has no field of its own, comes last. */
export const STYLES: Readonly<Record<StyleName, StyleEntry>> = {
  // First: its bodies are generate-content's or messages' (as InvokeModel's) with Vertex's own marks.
  vertex: {
    style: vertex,
    paths: VERTEX_PATHS,
    tokens: { counting: vertexTokenCounting },
    params: vertexParams,
    framing: vertexFraming,
    modelParams: vertexModelParams,
    listFormat: 'gemini',
    corsHeaders: ['authorization', 'x-goog-user-project', 'x-goog-api-client', 'x-goog-api-key'],
    keyHeader: 'authorization',
    genAiOperation: 'generate_content',
    // Request labels are Vertex's alone; rawPredict's version names the cloud (`vertex-2023-10-16`).
    recognises: (body) => ('contents' in body && 'labels' in body) || (typeof body.anthropic_version === 'string' && body.anthropic_version.startsWith('vertex-')),
    family: /^\/v1(beta1)?\/projects\//,
  },
  'generate-content': {
    style: generateContent,
    // `/v1/` is Gemini's v1 API, which `@google/genai` calls with `apiVersion: 'v1'`.
    paths: ['/v1beta/models/:target', '/v1/models/:target'],
    tokens: { counting: { decode: decodeCountTokens, encode: encodeCountTokens } },
    params: targetParams,
    framing: streamFraming,
    modelParams: (model) => targetParams({ target: `${model}:generateContent` }).params,
    listFormat: 'gemini',
    corsHeaders: ['x-goog-api-key', 'x-goog-api-client'],
    keyHeader: 'x-goog-api-key',
    keyQuery: 'key',
    genAiOperation: 'generate_content',
    recognises: (body) => 'contents' in body,
    // A Gemini path, or a `{model}:{action}` segment with its prefix missing or wrong.
    family: /^\/v1beta\/|\/models\/[^/]+:[^/]+\/?$/,
  },
  responses: {
    style: responses,
    paths: ['/v1/responses'],
    tokens: { path: '/v1/responses/input_tokens', counting: responsesTokenCounting },
    batch: 'openai',
    listFormat: 'openai',
    corsHeaders: ['authorization', 'openai-organization', 'openai-project', 'x-stainless-*'],
    keyHeader: 'authorization',
    genAiOperation: 'chat',
    recognises: (body) => 'input' in body,
  },
  // Before messages: InvokeModel's body is a messages body with `anthropic_version`.
  bedrock: {
    style: bedrock,
    paths: ['/model/:modelId/:operation'],
    params: bedrockParams,
    framing: () => 'aws-event-stream',
    modelParams: (model) => ({ modelId: model, operation: 'converse' }),
    // Bedrock lists its models on another service; the runtime has no list path of its own.
    listFormat: 'openai',
    corsHeaders: ['authorization', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256', 'x-amz-user-agent', 'amz-sdk-invocation-id', 'amz-sdk-request'],
    keyHeader: 'authorization',
    // SigV4: any signature is accepted, the access key id standing for the key.
    keySignature: /^AWS4-HMAC-SHA256\s+Credential=([^/,\s]+)/i,
    genAiOperation: 'chat',
    recognises: (body) => 'anthropic_version' in body || 'inferenceConfig' in body || 'toolConfig' in body || converseShaped(body.messages),
    family: /^\/model\//,
  },
  messages: {
    style: messages,
    paths: ['/v1/messages'],
    tokens: { path: '/v1/messages/count_tokens', counting: messagesTokenCounting },
    batch: 'anthropic',
    listFormat: 'anthropic',
    corsHeaders: ['x-api-key', 'anthropic-version', 'anthropic-beta', 'anthropic-dangerous-direct-browser-access', 'x-stainless-*'],
    keyHeader: 'x-api-key',
    requiredHeaders: ['anthropic-version'],
    genAiOperation: 'chat',
    recognises: anthropicShaped,
    family: /(^|\/)messages(\/|$)/,
  },
  'azure-openai': {
    style: azureOpenai,
    paths: ['/openai/deployments/:deployment/chat/completions', '/openai/v1/chat/completions'],
    listFormat: 'openai',
    corsHeaders: ['api-key', 'authorization', 'x-stainless-*'],
    keyHeader: 'api-key',
    genAiOperation: 'chat',
    // Its bodies are OpenAI's but for the data sources of "on your data".
    recognises: (body) => 'data_sources' in body,
    family: /^\/openai\//,
  },
  ollama: {
    style: ollama,
    paths: ['/api/chat', '/api/generate'],
    framing: () => 'ndjson',
    listFormat: 'openai',
    corsHeaders: ['authorization'],
    keyless: true,
    keyHeader: 'authorization',
    genAiOperation: 'chat',
    // Its sampling settings sit under `options`; no other chat body has them or `keep_alive`.
    recognises: (body) => (typeof body.options === 'object' && body.options !== null) || 'keep_alive' in body,
    // Every path under /api/ but OpenRouter's /api/v1/ is Ollama's.
    family: /^\/api\/(?!v1\/)/,
  },
  openrouter: {
    style: openrouter,
    paths: ['/api/v1/chat/completions'],
    framing: () => 'sse-processing',
    listFormat: 'openai',
    corsHeaders: ['authorization', 'http-referer', 'x-title', 'x-stainless-*'],
    keyHeader: 'authorization',
    genAiOperation: 'chat',
    // Its routing fields: fallback models, provider preferences, transforms, the usage it reports.
    recognises: (body) => 'provider' in body || 'models' in body || 'transforms' in body || (typeof body.usage === 'object' && body.usage !== null),
    family: /^\/api\/v1\//,
  },
  'chat-completions': {
    style: chatCompletions,
    paths: ['/v1/chat/completions'],
    batch: 'openai',
    gatewayImages: 'POST /v1/chat/completions with extra_body.google.image_config',
    listFormat: 'openai',
    corsHeaders: ['authorization', 'openai-organization', 'openai-project', 'x-stainless-*'],
    keyHeader: 'authorization',
    genAiOperation: 'chat',
    recognises: () => true,
    // Every other path: most clients speak the OpenAI form.
    family: /^/,
  },
};

export const STYLE_ENTRIES: readonly StyleEntry[] = Object.values(STYLES);

/** The style of the gateway's own image form and how it is asked (SPEC 3). */
export const GATEWAY_IMAGES = STYLE_ENTRIES.flatMap((entry) => (entry.gatewayImages ? [{ style: entry.style.name, asked: entry.gatewayImages }] : []))[0]!;

export function styleEntry(name: string): StyleEntry | undefined {
  return (STYLES as Record<string, StyleEntry>)[name];
}

/** The style a request body is written in, by the fields only it has. */
export function recognisedStyle(body: Record<string, unknown>): StyleEntry {
  return STYLE_ENTRIES.find((entry) => entry.recognises(body))!;
}

/** Every header a page may send to the model API: the styles' own and the mock's. */
export function corsRequestHeaders(own: readonly string[]): string {
  return [...new Set(['content-type', ...STYLE_ENTRIES.flatMap((entry) => entry.corsHeaders), ...own])].join(', ');
}

/**
 * The decoder's parameters for a request a style answered at `path`, if that was a chat request
 * (not a token count): pinning a journal entry decodes its body again with them.
 */
export function chatParams(entry: StyleEntry, path: string): Record<string, string> | undefined {
  for (const pattern of entry.paths) {
    const params = pathParams(pattern, path);
    if (!params) continue;
    if (!entry.params) return params;
    try {
      const read = entry.params(params);
      return read.counting || read.other ? undefined : read.params;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
