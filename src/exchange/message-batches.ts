// Message batches, Anthropic form (`/v1/messages/batches`): create from `requests[]`, retrieve,
// list, cancel, delete once ended, and the results as JSONL. The same lifecycle and clock as the
// OpenAI form; each request is answered by the messages operation, as if sent alone.
import * as z from 'zod';
import { madeAtFirstUse } from '../conversation/first-use.js';
import { failure, invalid } from '../conversation/errors.js';
import { MAX_BATCH_REQUESTS, messageBatchRequest } from '../media/batch-input.js';
import type { Batch, BatchLine, BatchState } from '../conversation/batch.js';
import { batchState } from '../media/batch-lifecycle.js';
import { forgetBatch } from '../state/pinned.js';
import { messageBatchObject, resultLines } from '../styles/batches/anthropic.js';
import { formInt } from '../styles/form.js';
import { parseBody } from '../styles/validate.js';
import type { BatchEndpoints, LineRoute } from './batch-line.js';
import { newBatch, startBatch } from './batch-start.js';
import { batchesNewestFirst, cancelOf, currentBatch } from './batches.js';
import { json, type Exchange, type Operation } from './exchange.js';
import type { Mock } from './mock.js';
import { plainOperation } from './operation.js';
import { Slice } from '../state/event-loop.js';

/** `url`: the path each request is answered at. */
async function readRequests(body: unknown, url: string): Promise<BatchLine[]> {
  const requests = (body as { requests?: unknown }).requests;
  if (!Array.isArray(requests)) throw invalid('requests: Field required (a list of { custom_id, params })', 'requests');
  if (requests.length === 0) throw invalid('requests: List should have at least 1 item', 'requests');
  if (requests.length > MAX_BATCH_REQUESTS) throw invalid(`requests: List should have at most ${MAX_BATCH_REQUESTS} items`, 'requests');
  const seen = new Set<string>();
  const lines: BatchLine[] = [];
  const slice = new Slice();
  for (let index = 0; index < requests.length; index += 1) {
    if (slice.over) await slice.next();
    lines.push(messageBatchRequest(requests[index], index, seen, url));
  }
  return lines;
}

/** A batch that has not ended has neither results nor a way to be deleted. */
function ended(batch: Batch, what: string): BatchState {
  const state = batchState(batch, batch.upToMs);
  if (!state.ended) throw failure('batch_not_ended', `Message batch '${batch.id}' is still in progress: it must end or be cancelled before ${what}.`);
  return state;
}

/** Any JSON object, the body's first check: made once, where a schema made a request was compiled anew each time. */
const anyObject = madeAtFirstUse(() => z.looseObject({}));

const listQuery = madeAtFirstUse(() =>
  z.looseObject({
    after_id: z.string().min(1).optional(),
    before_id: z.string().min(1).optional(),
    limit: formInt(1, 1000).optional(),
  }),
);

/** The page of a newest-first list the query asks for: after `after_id`, or before `before_id`. */
function listPage(batches: Batch[], query: z.infer<ReturnType<typeof listQuery>>): { items: Batch[]; hasMore: boolean } {
  const limit = query.limit ?? 20;
  const indexOf = (id: string, field: string) => {
    const index = batches.findIndex((batch) => batch.id === id);
    if (index < 0) throw invalid(`${field}: no message batch '${id}' in this list`, field);
    return index;
  };
  if (query.before_id !== undefined) {
    const end = indexOf(query.before_id, 'before_id');
    const start = Math.max(0, end - limit);
    return { items: batches.slice(start, end), hasMore: start > 0 };
  }
  const start = query.after_id === undefined ? 0 : indexOf(query.after_id, 'after_id') + 1;
  return { items: batches.slice(start, start + limit), hasMore: start + limit < batches.length };
}

export interface MessageBatchOperations {
  createMessageBatch: Operation;
  retrieveMessageBatch: Operation;
  listMessageBatches: Operation;
  cancelMessageBatch: Operation;
  deleteMessageBatch: Operation;
  messageBatchResults: Operation;
}

export function messageBatchOperations(route: LineRoute, endpoints: BatchEndpoints): MessageBatchOperations {
  const current = (mock: Mock, exchange: Exchange) => currentBatch(mock, exchange.session, exchange.params.id!, 'anthropic', route);
  const shown = (exchange: Exchange, batch: Batch) => json(messageBatchObject(batch, batchState(batch, batch.upToMs), exchange.origin));
  return {
    createMessageBatch: plainOperation(async (mock, exchange) => {
      parseBody(anyObject(), exchange.body);
      // The one path a message batch names.
      const endpoint = endpoints('anthropic')[0]!;
      const lines = await readRequests(exchange.body, endpoint);
      const batch = newBatch(mock, exchange, { vendor: 'anthropic', endpoint, inputFileId: null, metadata: null, lines, prefix: 'msgbatch_' });
      startBatch(mock, exchange.session, batch);
      return shown(exchange, batch);
    }),
    retrieveMessageBatch: plainOperation(async (mock, exchange) => shown(exchange, await current(mock, exchange))),
    listMessageBatches: plainOperation(async (mock, exchange) => {
      const query = parseBody(listQuery(), { ...exchange.query });
      const page = listPage(await batchesNewestFirst(mock, exchange.session, 'anthropic', route), query);
      const data = page.items.map((batch) => messageBatchObject(batch, batchState(batch, batch.upToMs), exchange.origin));
      return json({ data, has_more: page.hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
    }),
    cancelMessageBatch: plainOperation(async (mock, exchange) => {
      const batch = await current(mock, exchange);
      await cancelOf(mock, exchange.session, batch, route, () => {
        throw failure('batch_not_cancellable', `Message batch '${batch.id}' has already ended or is being canceled.`);
      });
      return shown(exchange, batch);
    }),
    deleteMessageBatch: plainOperation(async (mock, exchange) => {
      const batch = await current(mock, exchange);
      ended(batch, 'it can be deleted');
      forgetBatch(exchange.session, batch.id);
      return json({ id: batch.id, type: 'message_batch_deleted' });
    }),
    messageBatchResults: plainOperation(async (mock, exchange) => {
      const batch = await current(mock, exchange);
      const state = ended(batch, 'its results can be read');
      return { plan: { kind: 'binary', status: 200, headers: {}, contentType: 'application/binary', data: Buffer.from(resultLines(batch, state)) } };
    }),
  };
}
