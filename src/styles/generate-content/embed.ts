// `:embedContent` and `:batchEmbedContents` of the generate-content style, as @google/genai's
// `models.embedContent` sends them: each request a content of text parts, with an optional task
// type, title and output size; answered `{ embedding: { values } }` or `{ embeddings: [...] }`.
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { invalid } from '../../conversation/errors.js';
import { float32Numbers } from '../../conversation/vectors/embed.js';
import { parseBody } from '../validate.js';
import { camelKeys } from './casing.js';

const TASK_TYPES = [
  'TASK_TYPE_UNSPECIFIED',
  'RETRIEVAL_QUERY',
  'RETRIEVAL_DOCUMENT',
  'SEMANTIC_SIMILARITY',
  'CLASSIFICATION',
  'CLUSTERING',
  'QUESTION_ANSWERING',
  'FACT_VERIFICATION',
  'CODE_RETRIEVAL_QUERY',
] as const;

/** The vendor's cap on one batch. */
export const MAX_BATCH = 100;

/** The bodies' schemas, made at the first embedding asked: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const embedRequest = z.looseObject({
    model: z.string().optional(),
    content: z.looseObject({
      role: z.string().optional(),
      parts: z.array(z.looseObject({ text: z.string() })).min(1),
    }),
    taskType: z.enum(TASK_TYPES).optional(),
    title: z.string().optional(),
    outputDimensionality: z.number().int().min(1).optional(),
  });
  return { embedRequest, batchRequest: z.looseObject({ requests: z.array(embedRequest).min(1).max(MAX_BATCH) }) };
});

export interface GeminiEmbedding {
  /** The content's text, what fixtures match. */
  text: string;
  /** What the vector is built from: a document's title counts as part of it. */
  embedded: string;
  dimensions?: number;
  /** Where `dimensions` was asked, for its 400. */
  sizeField: string;
}

type WireRequest = z.infer<ReturnType<typeof schemas>['embedRequest']>;

function read(request: WireRequest, model: string, field: string): GeminiEmbedding {
  if (request.model !== undefined && request.model.replace(/^models\//, '') !== model) {
    throw invalid(`Invalid value at '${field}model': every request of a batch names the model of the path, models/${model}.`, `${field}model`);
  }
  if (request.title !== undefined && request.taskType !== 'RETRIEVAL_DOCUMENT') {
    throw invalid(`Invalid value at '${field}title': a title is only taken with taskType RETRIEVAL_DOCUMENT.`, `${field}title`);
  }
  const text = request.content.parts.map((part) => part.text).join('\n');
  if (text.trim() === '') throw invalid(`Invalid value at '${field}content': the content has no text to embed.`, `${field}content`);
  return { text, embedded: request.title ? `${request.title}\n${text}` : text, dimensions: request.outputDimensionality, sizeField: `${field}outputDimensionality` };
}

export function decodeEmbedContent(body: unknown, model: string): GeminiEmbedding[] {
  return [read(parseBody(schemas().embedRequest, camelKeys(body)), model, '')];
}

export function decodeBatchEmbedContents(body: unknown, model: string): GeminiEmbedding[] {
  return parseBody(schemas().batchRequest, camelKeys(body)).requests.map((request, index) => read(request, model, `requests[${index}].`));
}

export function encodeEmbedContent(vectors: readonly Float32Array[]) {
  return { embedding: { values: float32Numbers(vectors[0]!) } };
}

export function encodeBatchEmbedContents(vectors: readonly Float32Array[]) {
  return { embeddings: vectors.map((vector) => ({ values: float32Numbers(vector) })) };
}
