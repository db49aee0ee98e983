// Batches, OpenAI form (`/v1/batches`): create from an uploaded `batch` file, retrieve, list and
// cancel. Each read first brings the batch up to the mock clock (`batch-run.ts`).
import { z } from 'zod';
import { failure, invalid } from '../conversation/errors.js';
import { mismatchedLines } from '../media/batch-input.js';
import { batchState, cancellable } from '../media/batch-lifecycle.js';
import type { Batch } from '../conversation/batch.js';
import type { Session } from '../state/session.js';
import { batchObject } from '../styles/batches/openai.js';
import { formInt } from '../styles/form.js';
import { parseBody } from '../styles/validate.js';
import { BATCH_ENDPOINTS } from './batch-endpoints.js';
import { catchUp } from './batch-run.js';
import { newBatch, startBatch } from './batch-start.js';
import { json, newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import { findFile, readBatchFile } from './files.js';
import type { Mock } from './mock.js';
import { pageAfter } from './pages.js';

const notes = () => newNotes('batches');

const createBody = z.strictObject({
  input_file_id: z.string().min(1),
  endpoint: z.enum(BATCH_ENDPOINTS),
  completion_window: z.literal('24h'),
  metadata: z.record(z.string().max(64), z.string().max(512)).refine((metadata) => Object.keys(metadata).length <= 16, 'at most 16 keys').nullish(),
  output_expires_after: z.strictObject({ anchor: z.literal('created_at'), seconds: z.number().int().min(3600).max(2_592_000) }).optional(),
});

export function createBatch(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(notes(), async () => {
    const body = parseBody(createBody, exchange.body);
    const file = findFile(exchange.session, body.input_file_id, 'input_file_id');
    if (file.purpose !== 'batch') {
      throw invalid(`Invalid value for 'input_file_id': file '${file.id}' has purpose '${file.purpose}'; a batch reads a file uploaded with purpose 'batch'.`, 'input_file_id');
    }
    const lines = await readBatchFile(file.data);
    const batch = newBatch(mock, exchange, { vendor: 'openai', endpoint: body.endpoint, inputFileId: file.id, metadata: body.metadata ?? null, lines, prefix: 'batch_' });
    batch.invalid = mismatchedLines(lines, body.endpoint);
    startBatch(mock, exchange.session, batch);
    return json(batchObject(batch, batchState(batch, mock.clock.now())));
  });
}

/** The session's batch of `vendor`, brought up to the clock; a 404 for any other id. */
export async function currentBatch(mock: Mock, session: Session, id: string, vendor: Batch['vendor']): Promise<Batch> {
  const batch = session.batches.get(id);
  if (!batch || batch.vendor !== vendor) throw failure('batch_not_found', `No batch found with id '${id}'.`, { param: 'batch_id' });
  await catchUp(mock, session, batch);
  return batch;
}

export function retrieveBatch(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(notes(), async () => {
    const batch = await currentBatch(mock, exchange.session, exchange.params.id!, 'openai');
    return json(batchObject(batch, batchState(batch, mock.clock.now())));
  });
}

/** Takes a cancel if the batch still validates or runs; its unanswered lines are left out. */
export async function cancelOf(mock: Mock, session: Session, batch: Batch, tooLate: (status: string) => never): Promise<void> {
  const now = mock.clock.now();
  const state = batchState(batch, now);
  if (!cancellable(state)) tooLate(state.status);
  batch.cancelledMs = now;
  await catchUp(mock, session, batch);
}

export function cancelBatch(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(notes(), async () => {
    const batch = await currentBatch(mock, exchange.session, exchange.params.id!, 'openai');
    await cancelOf(mock, exchange.session, batch, (status) => {
      throw failure('batch_not_cancellable', `Cannot cancel a batch with status '${status}'.`, { status: 409 });
    });
    return json(batchObject(batch, batchState(batch, mock.clock.now())));
  });
}

const listQuery = z.looseObject({
  after: z.string().min(1).optional(),
  limit: formInt(1, 100).optional(),
});

/** The session's batches of `vendor`, newest first, each brought up to the clock. */
export async function batchesNewestFirst(mock: Mock, session: Session, vendor: Batch['vendor']): Promise<Batch[]> {
  const batches = [...session.batches.values()].filter((batch) => batch.vendor === vendor).reverse();
  for (const batch of batches) await catchUp(mock, session, batch);
  return batches;
}

export function listBatches(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(notes(), async () => {
    const query = parseBody(listQuery, { ...exchange.query });
    const batches = await batchesNewestFirst(mock, exchange.session, 'openai');
    const page = pageAfter(batches, query.after, query.limit ?? 20, 'after');
    const now = mock.clock.now();
    const data = page.items.map((batch) => batchObject(batch, batchState(batch, now)));
    return json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.hasMore });
  });
}
