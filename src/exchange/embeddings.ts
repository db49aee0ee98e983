// The embeddings doors: `POST /v1/embeddings` (OpenAI form) and generate-content's
// `:embedContent` and `:batchEmbedContents`. Both decode into texts and sizes, take the scenario
// step, read each vector (fixture or generated), and encode in their own form; with --upstream a
// request some input of which no fixture answers is forwarded, and recorded per input.
import { invalid, type Envelope } from '../conversation/errors.js';
import { promptSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import type { ModelEntry } from '../config/types.js';
import { toFault } from '../scenarios/apply.js';
import { decodeEmbeddings, encodeEmbeddings } from '../styles/embeddings/openai.js';
import { generateContentEnvelope } from '../styles/generate-content/envelope.js';
import { decodeBatchEmbedContents, decodeEmbedContent, encodeBatchEmbedContents, encodeEmbedContent, type GeminiEmbedding } from '../styles/generate-content/embed.js';
import { envelopeEvents } from '../styles/envelope.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { vectorsFor, type VectorAsk } from './embedding-vectors.js';
import { json, newNotes, settle, type Exchange, type Notes, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { mediaModel } from './request.js';
import { scenarioStep } from './scenario.js';
import { embeddingsRecorder, geminiVectors, openaiVectors, type VectorReader } from './upstream/record-embeddings.js';
import { relay } from './upstream/relay.js';

interface Door {
  envelope: Envelope;
  read: VectorReader;
}

const OPENAI: Door = { envelope: openaiEnvelope, read: openaiVectors };
const GEMINI: Door = { envelope: generateContentEnvelope, read: geminiVectors };

/** Only the text-embedding-3 family shortens its vectors on the OpenAI form, as the vendor's. */
const SHORTENS = /^text-embedding-3/;

function sizeOf(model: ModelEntry, asked: number | undefined, field: string, door: Door): number {
  if (asked === undefined) return model.dimensions;
  if (door === OPENAI && !SHORTENS.test(model.id)) throw invalid(`This model does not support specifying dimensions ('${field}'); only text-embedding-3 models do.`, field);
  if (asked > model.dimensions) throw invalid(`Invalid value for '${field}': ${asked} is more than the ${model.dimensions} dimensions of ${model.id}.`, field);
  return asked;
}

interface Asked {
  model: string;
  inputs: Array<{ text: string; embedded?: string; dimensions?: number; sizeField: string }>;
  tokens: () => number;
}

async function answer(mock: Mock, exchange: Exchange, notes: Notes, headers: Record<string, string>, door: Door, asked: Asked, encode: (model: ModelEntry, vectors: Float32Array[]) => unknown) {
  notes.model = asked.model;
  const texts = asked.inputs.map((input) => input.text);
  const forward = () => relay(mock, exchange, notes, embeddingsRecorder(asked.model, texts, door.read));
  const subject = promptSubject(asked.model, texts.join('\n'), exchange.headers);
  const step = () => scenarioStep(mock, exchange, door.envelope, subject, notes, headers, asked.tokens);
  if (mock.options.upstream && !mock.store.current.modelById.has(asked.model)) {
    // A model this mock does not list may be the upstream's.
    const decision = step();
    return decision.error ? { error: decision.error, waitMs: decision.waitMs } : forward();
  }
  const model = mediaModel(mock, asked.model, 'embedding');
  const asks: VectorAsk[] = asked.inputs.map((input) => ({ text: input.text, embedded: input.embedded, size: sizeOf(model, input.dimensions, input.sizeField, door) }));
  const decision = step();
  if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
  const { vectors, fixture, allFixed } = vectorsFor(mock, model, asks, exchange.headers);
  notes.fixture = fixture ?? null;
  if (!allFixed && mock.options.upstream) {
    notes.fixture = null;
    return forward();
  }
  return { ...json(encode(model, vectors)), fault: toFault(decision.fault, envelopeEvents(door.envelope)) };
}

export function embeddings(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('embeddings'), async (notes, headers) => {
    const request = decodeEmbeddings(exchange.body);
    const inputs = request.inputs.map((input) => ({ text: input.text, dimensions: request.dimensions, sizeField: 'dimensions' }));
    const tokens = () => request.inputs.reduce((sum, input) => sum + input.tokens, 0);
    return answer(mock, exchange, notes, headers, OPENAI, { model: request.model, inputs, tokens }, (model, vectors) => encodeEmbeddings(request, model.id, vectors));
  });
}

function geminiDoor(decode: (body: unknown, model: string) => GeminiEmbedding[], encode: (vectors: Float32Array[]) => unknown) {
  return (mock: Mock, exchange: Exchange): Promise<Outcome> =>
    settle(newNotes('generate-content'), async (notes, headers) => {
      const model = exchange.params.model ?? '';
      notes.model = model;
      const inputs = decode(exchange.body, model);
      return answer(mock, exchange, notes, headers, GEMINI, { model, inputs, tokens: () => inputs.reduce((sum, input) => sum + countTokens(input.text), 0) }, (_, vectors) => encode(vectors));
    });
}

export const embedContent = geminiDoor(decodeEmbedContent, encodeEmbedContent);
export const batchEmbedContents = geminiDoor(decodeBatchEmbedContents, encodeBatchEmbedContents);
