// The embeddings doors: `POST /v1/embeddings` (OpenAI form) and generate-content's
// `:embedContent` and `:batchEmbedContents`, on the operation template. Both read into texts and
// sizes, and find each vector once (an `embeddings:` fixture's or the text's own); a request whose
// every input a fixture answers is the fixtures', else the unmatched-request policy decides (a
// request that may spend the upstream is forwarded, and recorded per input).
import { invalid, type Envelope } from '../conversation/errors.js';
import { promptSubject } from '../conversation/subject.js';
import { countAllTokens } from '../conversation/tokens.js';
import type { ModelEntry } from '../config/types.js';
import { decodeEmbeddings, embeddingsJson, encodeEmbeddings, type EmbeddingsRequest } from '../styles/embeddings/openai.js';
import { generateContentEnvelope } from '../styles/generate-content/envelope.js';
import { decodeBatchEmbedContents, decodeEmbedContent, encodeBatchEmbedContents, encodeEmbedContent, type GeminiEmbedding } from '../styles/generate-content/embed.js';
import { decodeOllamaEmbed, encodeOllamaEmbed } from '../styles/ollama/embed.js';
import { ollamaEnvelope } from '../styles/ollama/envelope.js';
import { ollama } from '../styles/ollama/index.js';
import { openrouterEnvelope } from '../styles/openrouter/envelope.js';
import { openrouter } from '../styles/openrouter/index.js';
import type { ModelIds } from '../styles/style.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { inSlices } from '../state/event-loop.js';
import { float32Base64sInSlices, foundVectors, madeVectors, vectorsFor, type VectorAsk, type Vectors } from './embedding-vectors.js';
import { json, type Operation } from './exchange.js';
import { modelOperation, type Asked } from './operation.js';
import { mediaModel, unlisted } from './request.js';
import { embeddingsRecorder, geminiVectors, openaiVectors, type VectorReader } from './upstream/record-embeddings.js';

/** Only the text-embedding-3 family shortens its vectors on the OpenAI form, as the vendor's. */
const SHORTENS = /^text-embedding-3/;

interface Input {
  text: string;
  /** What the vector is built from, when not the text (a Gemini document's title with it). */
  embedded?: string;
  dimensions?: number;
  /** Where `dimensions` was asked, for its 400. */
  sizeField: string;
}

interface Read {
  model: string;
  inputs: Input[];
  tokens: () => number;
}

interface AskedVectors<R extends Read> extends Asked {
  model: string;
  read: R;
  /** Left out, with no vectors asked, when this mock does not list the model. */
  entry: ModelEntry | undefined;
  texts: string[];
  asks: VectorAsk[];
}

function sizeOf(model: ModelEntry, input: Input, onlyShortening: boolean): number {
  const asked = input.dimensions;
  if (asked === undefined) return model.dimensions;
  if (onlyShortening && !SHORTENS.test(model.id)) throw invalid(`This model does not support specifying dimensions ('${input.sizeField}'); only text-embedding-3 models do.`, input.sizeField);
  if (asked > model.dimensions) throw invalid(`Invalid value for '${input.sizeField}': ${asked} is more than the ${model.dimensions} dimensions of ${model.id}.`, input.sizeField);
  return asked;
}

interface Form<R extends Read> {
  read(body: unknown, params: Record<string, string>): R | Promise<R>;
  /** Whether `dimensions` is only for the models that shorten (the OpenAI form). */
  onlyShortening: boolean;
  vectorsOf: VectorReader;
  envelope: Envelope;
  /** A provider's own model-id forms (Ollama's tags, OpenRouter's vendor prefixes) and its not-found. */
  models?: ModelIds;
  /** The answer, and its JSON when the form writes it faster itself. */
  encode(read: R, model: ModelEntry, vectors: Float32Array[]): Promise<{ body: unknown; text?: readonly string[] }> | { body: unknown; text?: readonly string[] };
}

function embeddingsOperation<R extends Read>(form: Form<R>): Operation {
  return modelOperation<R, AskedVectors<R>, Vectors>({
    read: (_mock, exchange) => form.read(exchange.body, exchange.params),
    ask: (mock, exchange, read) => {
      const texts = read.inputs.map((input) => input.text);
      const model = form.models?.catalogId(read.model, (id) => mock.store.current.modelById.has(id)) ?? read.model;
      const base = { model, read, texts, subject: promptSubject(model, texts.join('\n'), exchange.headers), inputTokens: read.tokens };
      const missing = unlisted(mock, model, ['embedding']);
      const unknown = missing && (form.models?.notFound?.(read.model) ?? missing);
      if (unknown) return { ...base, entry: undefined, asks: [], unknown };
      const entry = mediaModel(mock, model, 'embedding');
      const asks = read.inputs.map((input) => ({ text: input.text, embedded: input.embedded, size: sizeOf(entry, input, form.onlyShortening) }));
      return { ...base, entry, asks };
    },
    find: (mock, exchange, { entry, asks }) => foundVectors(vectorsFor(mock, entry!, asks, exchange.headers)),
    recorder: (_mock, _exchange, { model, texts }) => embeddingsRecorder(model, texts, form.vectorsOf),
    build: async (_mock, _exchange, asked, found) => {
      const { fixture } = found!;
      const vectors = await madeVectors(found!);
      const metered = { tokens: { input_tokens: asked.read.tokens(), cached_input_tokens: 0, output_tokens: 0, reasoning_tokens: 0 } };
      const answer = await form.encode(asked.read, asked.entry!, vectors);
      return { ...json(answer.body, 200, answer.text), notes: { fixture: fixture ?? null, metered } };
    },
  });
}

/** A request whose inputs are OpenAI's `input` (a string or strings, one `dimensions` for all), read as the template reads it. */
function flatInputs<Q extends { model: string; inputs: Array<{ text: string; tokens: number }>; dimensions?: number }>(request: Q): Read & { request: Q } {
  const inputs = request.inputs.map((input) => ({ text: input.text, dimensions: request.dimensions, sizeField: 'dimensions' }));
  return { model: request.model, inputs, tokens: () => request.inputs.reduce((sum, input) => sum + input.tokens, 0), request };
}

const OPENAI_FORM: Form<ReturnType<typeof flatInputs<EmbeddingsRequest>>> = {
  read: async (body) => flatInputs(await inSlices(decodeEmbeddings(body))),
  onlyShortening: true,
  vectorsOf: openaiVectors,
  envelope: openaiEnvelope,
  encode: async ({ request }, model, vectors) => {
    const body = encodeEmbeddings(request, model.id, vectors, request.format === 'base64' ? await float32Base64sInSlices(vectors) : undefined);
    return { body, text: embeddingsJson(body) };
  },
};

export const embeddings = embeddingsOperation(OPENAI_FORM);

/** OpenRouter's `/api/v1/embeddings`: the OpenAI form with its vendor-prefixed ids. */
export const openrouterEmbeddings = embeddingsOperation({ ...OPENAI_FORM, envelope: openrouterEnvelope, models: openrouter.models! });

/** Ollama's `/api/embed`: any model may be shortened, the vectors always plain numbers. */
export const ollamaEmbed = embeddingsOperation({
  read: async (body) => flatInputs(await inSlices(decodeOllamaEmbed(body))),
  onlyShortening: false,
  vectorsOf: openaiVectors,
  envelope: ollamaEnvelope,
  models: ollama.models!,
  encode: ({ request }, model, vectors) => ({ body: encodeOllamaEmbed(request, model.id, vectors) }),
});

/** The generate-content form, answered in its envelope; the model is the path's. */
function geminiForm(decode: (body: unknown, model: string) => GeminiEmbedding[], encode: (vectors: Float32Array[]) => unknown): Form<Read> {
  return {
    read: (body, params) => {
      const model = params.model ?? '';
      const inputs = decode(body, model);
      return { model, inputs, tokens: () => countAllTokens(inputs.map((input) => input.text)) };
    },
    onlyShortening: false,
    vectorsOf: geminiVectors,
    envelope: generateContentEnvelope,
    encode: (_read, _model, vectors) => ({ body: encode(vectors) }),
  };
}

export const embedContent = embeddingsOperation(geminiForm(decodeEmbedContent, encodeEmbedContent));
export const batchEmbedContents = embeddingsOperation(geminiForm(decodeBatchEmbedContents, encodeBatchEmbedContents));
