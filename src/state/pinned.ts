// Files and batches in the session's and the overall memory budget. They are pinned: never
// evicted to make room, so a batch never loses its input file or its answers; one that does not
// fit is refused instead, with a 413 naming the flag that sets the budget. Nor are they paid for
// by other sessions: what those hold is not evicted for them.
import { failure } from '../conversation/errors.js';
import type { Batch } from '../conversation/batch.js';
import { pinnedBytes } from './memory.js';
import { hold, type Session } from './session.js';
import type { StoredFile } from '../conversation/stored-file.js';

/** Besides its bytes, a file's object, its name and its slots in the session's maps. */
const FILE_BYTES = 512;

/**
 * Refuses what would take the session's files and batches past its budget, or take what the
 * sessions hold past the overall budget when only other sessions' journals and responses could
 * make room for it (its own session's may go).
 */
export function makeRoom(session: Session, bytes: number, what: string): void {
  const budget = session.holdings.budget;
  const held = pinnedBytes(session.holdings.use);
  if (held + bytes > budget.sessionLimitBytes) {
    throw failure(
      'session_memory_full',
      `${what} of ${bytes} bytes does not fit in the session's memory budget (--session-memory-limit, ${budget.sessionLimitBytes} bytes), of which its files and batches hold ${held}.`,
    );
  }
  const others = budget.use.total - session.holdings.use.total;
  if (others + held + bytes > budget.limitBytes) {
    throw failure(
      'memory_full',
      `${what} of ${bytes} bytes does not fit in the overall memory budget (--memory-limit, ${budget.limitBytes} bytes), of which other sessions hold ${others} and this session's files and batches ${held}.`,
    );
  }
}

export const fileBytes = (file: StoredFile): number => FILE_BYTES + file.filename.length + file.data.length;

/** Keeps a file, refusing one that does not fit unless `refuse` is false (a batch's output, whose room its answers made). */
export function keepFile(session: Session, file: StoredFile, refuse = true): void {
  const bytes = fileBytes(file);
  if (refuse) makeRoom(session, bytes, `The file '${file.filename}'`);
  session.files.set(file.id, file);
  hold(session, 'files', file.id, bytes);
}

export function forgetFile(session: Session, id: string): void {
  session.files.delete(id);
  session.holdings.remove('files', id);
}

/** Keeps a batch, or counts it again as its answers grow (`bytes`: what it holds now). */
export function keepBatch(session: Session, batch: Batch, bytes: number): void {
  session.batches.set(batch.id, batch);
  hold(session, 'batches', batch.id, bytes);
}

export function forgetBatch(session: Session, id: string): void {
  session.batches.delete(id);
  session.holdings.remove('batches', id);
}
