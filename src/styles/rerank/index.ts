// `POST /v1/rerank` (Jina, Cohere v1) and `POST /v2/rerank` (Cohere v2): a query and documents
// (strings or `{ text }`), answered with the documents' indexes sorted by relevance, highest
// first, ties by index, the top `top_n`, each with its text when `return_documents` asks.
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { invalid } from '../../conversation/errors.js';
import type { Steps } from '../../conversation/steps.js';
import { TokenCounter } from '../../conversation/tokens.js';
import { MAX_TOTAL_TOKENS } from '../embeddings/inputs.js';
import { parseBody } from '../validate.js';

/** Cohere's cap; Jina takes as many. */
export const MAX_DOCUMENTS = 1000;

/** The body's schema, made at the first rerank: a start that serves none builds none. */
const body = madeAtFirstUse(() =>
  z.looseObject({
    model: z.string().min(1).nullish(),
    query: z.string().min(1),
    documents: z.array(z.union([z.string(), z.looseObject({ text: z.string() })])).min(1).max(MAX_DOCUMENTS),
    top_n: z.number().int().min(1).nullish(),
    return_documents: z.boolean().nullish(),
  }),
);

export interface RerankRequest {
  model?: string;
  query: string;
  documents: string[];
  /** The documents' tokens together, as the bound counted them. */
  documentTokens: number;
  topN?: number;
  returnDocuments: boolean;
}

/**
 * Every document is embedded, so the embeddings' bound on one request's tokens holds here too;
 * the documents' tokens, counted with one counter for the request (tokens.ts), a step after each.
 */
function* documentTokens(documents: string[]): Steps<number> {
  const counter = new TokenCounter();
  let total = 0;
  for (const [index, text] of documents.entries()) {
    total += counter.count(text);
    if (total > MAX_TOTAL_TOKENS) {
      throw invalid(`Invalid value for 'documents': the documents up to documents[${index}] have ${total} tokens; a request may have at most ${MAX_TOTAL_TOKENS} in all.`, 'documents');
    }
    yield;
  }
  return total;
}

/** The request read, in steps (its documents counted one at a time). */
export function* decodeRerank(input: unknown): Steps<RerankRequest> {
  const data = parseBody(body(), input);
  const documents = data.documents.map((item) => (typeof item === 'string' ? item : item.text));
  return {
    model: data.model ?? undefined,
    query: data.query,
    documents,
    documentTokens: yield* documentTokens(documents),
    topN: data.top_n ?? undefined,
    returnDocuments: data.return_documents ?? false,
  };
}

export interface RerankAnswer {
  id: string;
  model: string;
  /** One per document, in the request's order. */
  scores: readonly number[];
  tokens: number;
}

export function encodeRerank(request: RerankRequest, answer: RerankAnswer) {
  const order = answer.scores.map((score, index) => ({ index, score })).sort((a, b) => b.score - a.score || a.index - b.index);
  const top = order.slice(0, request.topN ?? order.length);
  return {
    id: answer.id,
    model: answer.model,
    results: top.map(({ index, score }) => ({
      index,
      relevance_score: score,
      ...(request.returnDocuments ? { document: { text: request.documents[index] } } : {}),
    })),
    usage: { total_tokens: answer.tokens },
    meta: { billed_units: { search_units: 1 } },
  };
}
