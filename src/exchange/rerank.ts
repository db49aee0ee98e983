// `POST /v1/rerank` and `/v2/rerank`: each document scored by the cosine between its
// `text-embedding-3-small` vector and the query's, mapped from -1..1 to 0..1, so rerank and the
// embeddings agree on the order, `embeddings:` fixtures included.
import { promptSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import { cosine } from '../conversation/vectors/embed.js';
import { toFault } from '../scenarios/apply.js';
import { openaiEnvelope, openaiStreamError } from '../styles/openai-envelope.js';
import { decodeRerank, encodeRerank } from '../styles/rerank/index.js';
import { vectorsFor } from './embedding-vectors.js';
import { json, newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { mediaModel, nextId } from './request.js';
import { scenarioStep } from './scenario.js';
import { relay } from './upstream/relay.js';

/** The embedding model whose vectors rerank compares. */
export const RERANK_VECTORS = 'text-embedding-3-small';

export function rerank(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('rerank'), async (notes, headers) => {
    const request = decodeRerank(exchange.body);
    const tokens = () => countTokens(request.query) + request.documents.reduce((sum, text) => sum + countTokens(text), 0);
    const subject = promptSubject(request.model ?? '', request.query, exchange.headers);
    const upstreamModel = mock.options.upstream && request.model !== undefined && !mock.store.current.modelById.has(request.model);
    const model = upstreamModel ? undefined : mediaModel(mock, request.model, 'rerank');
    notes.model = model?.id ?? request.model ?? null;
    const decision = scenarioStep(mock, exchange, openaiEnvelope, subject, notes, headers, tokens);
    if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
    if (!model) return relay(mock, exchange, notes);
    const vectorModel = { id: RERANK_VECTORS, dimensions: mock.store.current.modelById.get(RERANK_VECTORS)?.dimensions ?? 1536 };
    const texts = [request.query, ...request.documents];
    const { vectors, fixture } = vectorsFor(mock, vectorModel, texts.map((text) => ({ text, size: vectorModel.dimensions })), exchange.headers);
    notes.fixture = fixture ?? null;
    const [query, ...documents] = vectors;
    const scores = documents.map((document) => (1 + cosine(query!, document)) / 2);
    const body = encodeRerank(request, { id: nextId(mock, exchange.session), model: model.id, scores, tokens: tokens() });
    return { ...json(body), fault: toFault(decision.fault, openaiStreamError) };
  });
}
