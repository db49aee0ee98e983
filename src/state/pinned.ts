// Files and batches in a session's memory budget. They are pinned: never evicted to make room,
// so a batch never loses its input file or its answers; one that does not fit is refused instead,
// with a 413 naming the flag that sets the budget.
import { failure } from '../conversation/errors.js';
import type { Batch } from '../conversation/batch.js';
import { PINNED } from './memory.js';
import { hold, type Session } from './session.js';
import type { StoredFile } from '../conversation/stored-file.js';

/** Besides its bytes, a file's object, its name and its slots in the session's maps. */
const FILE_BYTES = 512;

/** Refuses what would take the session's files and batches past its budget. */
export function makeRoom(session: Session, bytes: number, what: string): void {
  const limit = session.holdings.budget.sessionLimitBytes;
  const held = session.holdings.use[PINNED];
  if (held + bytes <= limit) return;
  throw failure(
    'session_memory_full',
    `${what} of ${bytes} bytes does not fit in the session's memory budget (--session-memory-limit, ${limit} bytes), of which its files and batches hold ${held}.`,
  );
}

/** Keeps a file, refusing one that does not fit unless `refuse` is false (a batch's output, whose answers are counted already). */
export function keepFile(session: Session, file: StoredFile, refuse = true): void {
  const bytes = FILE_BYTES + file.filename.length + file.data.length;
  if (refuse) makeRoom(session, bytes, `The file '${file.filename}'`);
  session.files.set(file.id, file);
  hold(session, PINNED, `file:${file.id}`, bytes);
}

export function forgetFile(session: Session, id: string): void {
  session.files.delete(id);
  session.holdings.remove(PINNED, `file:${id}`);
}

/** Keeps a batch, or counts it again as its answers grow (`bytes`: what it holds now). */
export function keepBatch(session: Session, batch: Batch, bytes: number): void {
  session.batches.set(batch.id, batch);
  hold(session, PINNED, `batch:${batch.id}`, bytes);
}

export function forgetBatch(session: Session, id: string): void {
  session.batches.delete(id);
  session.holdings.remove(PINNED, `batch:${id}`);
}
