// Batches, OpenAI form (`/v1/batches`): create from an uploaded `batch` file, retrieve, list and
// cancel. Each read first brings the batch up to the mock clock (`batch-run.ts`), its lines
// answered by the routes `route` finds for their urls, which must be one of `endpoints`.
import * as z from 'zod';
import { madeAtFirstUse } from '../conversation/first-use.js';
import type { Batch } from '../conversation/batch.js';
import { failure, invalid } from '../conversation/errors.js';
import { mismatchedLines } from '../media/batch-input.js';
import { batchState, cancellable } from '../media/batch-lifecycle.js';
import type { Session } from '../state/session.js';
import { batchObject } from '../styles/batches/openai.js';
import { formInt } from '../styles/form.js';
import { parseBody } from '../styles/validate.js';
import type { BatchEndpoints, LineRoute } from './batch-line.js';
import { catchUp } from './batch-run.js';
import { newBatch, startBatch } from './batch-start.js';
import { json, type Operation } from './exchange.js';
import { findFile, readBatchFile } from './files.js';
import type { Mock } from './mock.js';
import { plainOperation } from './operation.js';
import { pageAfter } from './pages.js';

/** `endpoints`: the paths an OpenAI batch may name (never none: the table marks the chat styles'). */
const createBody = (endpoints: readonly string[]) => z.strictObject({
  input_file_id: z.string().min(1),
  endpoint: z.enum(endpoints as readonly [string, ...string[]]),
  completion_window: z.literal('24h'),
  metadata: z.record(z.string().max(64), z.string().max(512)).refine((metadata) => Object.keys(metadata).length <= 16, 'at most 16 keys').nullish(),
  output_expires_after: z.strictObject({ anchor: z.literal('created_at'), seconds: z.number().int().min(3600).max(2_592_000) }).optional(),
});

/** The session's batch of `vendor`, brought up to the clock; a 404 for any other id. */
export async function currentBatch(mock: Mock, session: Session, id: string, vendor: Batch['vendor'], route: LineRoute): Promise<Batch> {
  const batch = session.batches.get(id);
  if (!batch || batch.vendor !== vendor) throw failure('batch_not_found', `No batch found with id '${id}'.`, { param: 'batch_id' });
  await catchUp(mock, session, batch, route);
  return batch;
}

/** Takes a cancel if the batch still validates or runs; its unanswered lines are left out. */
export async function cancelOf(mock: Mock, session: Session, batch: Batch, route: LineRoute, tooLate: (status: string) => never): Promise<void> {
  const now = mock.clock.now();
  const state = batchState(batch, now);
  if (!cancellable(state)) tooLate(state.status);
  batch.cancelledMs = now;
  await catchUp(mock, session, batch, route);
}

/** The session's batches of `vendor`, newest first, each brought up to the clock. */
export async function batchesNewestFirst(mock: Mock, session: Session, vendor: Batch['vendor'], route: LineRoute): Promise<Batch[]> {
  const batches = [...session.batches.values()].filter((batch) => batch.vendor === vendor).reverse();
  for (const batch of batches) await catchUp(mock, session, batch, route);
  return batches;
}

const listQuery = madeAtFirstUse(() =>
  z.looseObject({
    after: z.string().min(1).optional(),
    limit: formInt(1, 100).optional(),
  }),
);

export interface BatchOperations {
  createBatch: Operation;
  retrieveBatch: Operation;
  cancelBatch: Operation;
  listBatches: Operation;
}

export function batchOperations(route: LineRoute, endpoints: BatchEndpoints): BatchOperations {
  const shown = (batch: Batch) => json(batchObject(batch, batchState(batch, batch.upToMs)));
  // Made once, at the first batch: a schema made a request is compiled anew by zod each time.
  const bodySchema = madeAtFirstUse(() => createBody(endpoints('openai')));
  return {
    createBatch: plainOperation(async (mock, exchange) => {
      const body = parseBody(bodySchema(), exchange.body);
      const file = findFile(exchange.session, body.input_file_id, 'input_file_id');
      if (file.purpose !== 'batch') {
        throw invalid(`Invalid value for 'input_file_id': file '${file.id}' has purpose '${file.purpose}'; a batch reads a file uploaded with purpose 'batch'.`, 'input_file_id');
      }
      const lines = await readBatchFile(file.data);
      const batch = newBatch(mock, exchange, { vendor: 'openai', endpoint: body.endpoint, inputFileId: file.id, metadata: body.metadata ?? null, lines, prefix: 'batch_' });
      batch.invalid = mismatchedLines(lines, body.endpoint);
      startBatch(mock, exchange.session, batch);
      return shown(batch);
    }),
    retrieveBatch: plainOperation(async (mock, exchange) => shown(await currentBatch(mock, exchange.session, exchange.params.id!, 'openai', route))),
    cancelBatch: plainOperation(async (mock, exchange) => {
      const batch = await currentBatch(mock, exchange.session, exchange.params.id!, 'openai', route);
      await cancelOf(mock, exchange.session, batch, route, (status) => {
        throw failure('batch_not_cancellable', `Cannot cancel a batch with status '${status}'.`, { status: 409 });
      });
      return shown(batch);
    }),
    listBatches: plainOperation(async (mock, exchange) => {
      const query = parseBody(listQuery(), { ...exchange.query });
      const batches = await batchesNewestFirst(mock, exchange.session, 'openai', route);
      const page = pageAfter(batches, query.after, query.limit ?? 20, 'after');
      const data = page.items.map((batch) => batchObject(batch, batchState(batch, batch.upToMs)));
      return json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.hasMore });
    }),
  };
}
