// The model catalog in the three formats clients read: OpenAI, Anthropic and Gemini, with each
// vendor's paging (Anthropic `after_id`/`before_id`, Gemini `pageToken`, none on its last page).
import { failure, invalid } from '../conversation/errors.js';
import type { ModelEntry } from '../config/types.js';
import { unknownModelMessage } from '../config/model-entry.js';
import { capabilitiesOf } from './model-capabilities.js';

export type ListFormat = 'openai' | 'anthropic' | 'gemini';

/**
 * The description's endpoint 11: the headers a request carries choose the format. The version
 * header alone marks the messages style, because the vendor SDK (1.x) sends its key as a bearer
 * token rather than `x-api-key`, and no other client sends `anthropic-version`.
 */
export function listFormatOf(headers: Record<string, string | string[] | undefined>, query: Record<string, unknown>): ListFormat {
  if (headers['anthropic-version']) return 'anthropic';
  if (headers['x-goog-api-key'] || query.key !== undefined) return 'gemini';
  return 'openai';
}

export function openaiModel(model: ModelEntry) {
  return { id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy };
}

export function anthropicModel(model: ModelEntry) {
  return {
    type: 'model',
    id: model.id,
    display_name: model.displayName,
    created_at: new Date(model.created * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    lifecycle: model.lifecycle,
    deprecated_at: model.deprecatedAt ?? null,
    retires_at: model.retiresAt ?? null,
    max_input_tokens: model.inputTokenLimit,
    max_tokens: model.outputTokenLimit,
    capabilities: capabilitiesOf(model),
  };
}

const METHODS: Record<ModelEntry['kind'], string[]> = {
  chat: ['generateContent', 'streamGenerateContent', 'countTokens'],
  image: ['generateContent', 'countTokens'],
  video: ['predictLongRunning'],
  embedding: ['embedContent', 'batchEmbedContents'],
  rerank: [],
  moderation: [],
  completion: [],
  // The audio endpoints are the OpenAI form's: no generate-content method takes these models.
  speech: [],
  transcription: [],
  // Gemini Live's models are opened by BidiGenerateContent, which its model list names.
  realtime: ['bidiGenerateContent'],
};

export function geminiModel(model: ModelEntry) {
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName: model.displayName,
    description: model.description,
    inputTokenLimit: model.inputTokenLimit,
    outputTokenLimit: model.outputTokenLimit,
    supportedGenerationMethods: METHODS[model.kind],
    temperature: 1,
    topP: 0.95,
    topK: 64,
    maxTemperature: 2,
    thinking: model.reasoning,
  };
}

export function openaiList(models: readonly ModelEntry[]) {
  return { object: 'list', data: models.map(openaiModel) };
}

function pageSize(raw: unknown, fallback: number, field: string): number {
  if (raw === undefined) return fallback;
  const size = Number(raw);
  if (!Number.isInteger(size) || size < 1 || size > 1000) throw invalid(`${field} must be an integer from 1 to 1000.`, field);
  return size;
}

export function anthropicList(models: readonly ModelEntry[], query: Record<string, unknown>) {
  const limit = pageSize(query.limit, 20, 'limit');
  let start = 0;
  let end = models.length;
  if (typeof query.after_id === 'string') start = models.findIndex((m) => m.id === query.after_id) + 1;
  if (typeof query.before_id === 'string') end = Math.max(0, models.findIndex((m) => m.id === query.before_id));
  const page = typeof query.before_id === 'string' ? models.slice(Math.max(start, end - limit), end) : models.slice(start, start + limit);
  const last = models.indexOf(page[page.length - 1]!);
  const hasMore = typeof query.before_id === 'string' ? models.indexOf(page[0]!) > start : last >= 0 && last < end - 1;
  return {
    data: page.map(anthropicModel),
    has_more: page.length > 0 && hasMore,
    first_id: page[0]?.id ?? null,
    last_id: page[page.length - 1]?.id ?? null,
  };
}

export function geminiList(models: readonly ModelEntry[], query: Record<string, unknown>) {
  const size = pageSize(query.pageSize, 50, 'pageSize');
  let start = 0;
  if (typeof query.pageToken === 'string' && query.pageToken !== '') {
    start = Number.parseInt(Buffer.from(query.pageToken, 'base64url').toString(), 10);
    if (!Number.isInteger(start) || start < 0 || start > models.length) throw invalid('pageToken is not a token this server gave out.', 'pageToken');
  }
  const end = start + size;
  return {
    models: models.slice(start, end).map(geminiModel),
    ...(end < models.length ? { nextPageToken: Buffer.from(String(end)).toString('base64url') } : {}),
  };
}

export function findModel(models: readonly ModelEntry[], id: string): ModelEntry {
  const model = models.find((m) => m.id === id);
  if (!model) {
    throw failure('model_not_found', `The model '${id}' does not exist. ${unknownModelMessage(id, models.map((m) => m.id))}`, { param: 'model' });
  }
  return model;
}
