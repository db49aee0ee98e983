// `POST /v1/rerank` and `/v2/rerank`: each document scored by the cosine between its
// `text-embedding-3-small` vector and the query's, mapped from -1..1 to 0..1, so rerank and the
// embeddings agree on the order, `embeddings:` fixtures included.
import { promptSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import { cosine } from '../conversation/vectors/embed.js';
import type { ModelEntry } from '../config/types.js';
import { decodeRerank, encodeRerank, type RerankRequest } from '../styles/rerank/index.js';
import { inSlices } from '../state/event-loop.js';
import { foundVectors, madeVectors, vectorsFor, type Vectors } from './embedding-vectors.js';
import { json } from './exchange.js';
import { modelOperation, type Asked } from './operation.js';
import { mediaModel, nextId, unlisted } from './request.js';

/** The embedding model whose vectors rerank compares. */
export const RERANK_VECTORS = 'text-embedding-3-small';

interface AskedRerank extends Asked {
  request: RerankRequest;
  entry: ModelEntry | undefined;
  tokens: () => number;
}

export const rerank = modelOperation<{ model: string | null; request: RerankRequest }, AskedRerank, Vectors>({
  read: async (_mock, exchange) => {
    const request = await inSlices(decodeRerank(exchange.body));
    return { request, model: request.model ?? null };
  },
  ask: (mock, exchange, { request }) => {
    const tokens = () => countTokens(request.query) + request.documentTokens;
    const unknown = unlisted(mock, request.model, ['rerank']);
    const entry = unknown ? undefined : mediaModel(mock, request.model, 'rerank');
    const model = entry?.id ?? request.model ?? null;
    const asked = { request, entry, model, tokens, inputTokens: tokens, subject: promptSubject(model ?? '', request.query, exchange.headers) };
    return unknown ? { ...asked, unknown } : asked;
  },
  /** The query's vector, then each document's. */
  find: (mock, exchange, { request }) => {
    const vectorModel = { id: RERANK_VECTORS, dimensions: mock.store.current.modelById.get(RERANK_VECTORS)?.dimensions ?? 1536 };
    const texts = [request.query, ...request.documents];
    return foundVectors(vectorsFor(mock, vectorModel, texts.map((text) => ({ text, size: vectorModel.dimensions })), exchange.headers));
  },
  build: async (mock, exchange, { request, entry, tokens }, found) => {
    const [query, ...documents] = await madeVectors(found!);
    const scores = documents.map((document) => (1 + cosine(query!, document)) / 2);
    const body = encodeRerank(request, { id: nextId(mock, exchange.session), model: entry!.id, scores, tokens: tokens() });
    const metered = { tokens: { input_tokens: tokens(), cached_input_tokens: 0, output_tokens: 0, reasoning_tokens: 0 } };
    return { ...json(body), notes: { fixture: found!.fixture ?? null, metered } };
  },
});
