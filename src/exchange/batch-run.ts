// Moving batches with the clock. A batch's status is computed from the clock; its lines are
// answered lazily, when the batch is read or the clock moves, in input order, in slices that give
// other clients the event loop between them, so a batch of 10,000 lines never holds it for long.
import { succeeded, type Batch } from '../conversation/batch.js';
import { batchState } from '../media/batch-lifecycle.js';
import type { MockError } from '../conversation/errors.js';
import { keepBatch, keepFile, makeRoom } from '../state/pinned.js';
import type { Session } from '../state/session.js';
import { expiredLine, outputLine } from '../styles/batches/openai.js';
import { answerLine, type LineRoute } from './batch-line.js';
import type { Mock } from './mock.js';
import { nextId } from './request.js';
import { Slice } from '../state/event-loop.js';

/** What a batch holds: its object, its requests and its answers so far. */
const BATCH_BYTES = 2048;
/** An answer's object and slot, besides its text. */
const ANSWER_BYTES = 64;

export function batchBytes(batch: Batch): number {
  let bytes = BATCH_BYTES;
  for (const line of batch.lines) bytes += 2 * line.size + line.customId.length;
  for (const answer of batch.answers) bytes += answer.bodyText.length + ANSWER_BYTES;
  return bytes;
}

/** The refusal of an answer the batch's session has no room for, else undefined. */
function refusal(session: Session, bytes: number, index: number): MockError | undefined {
  try {
    makeRoom(session, bytes, `The answer to line ${index + 1}`);
    return undefined;
  } catch (error) {
    return error as MockError;
  }
}

/** One file's text, written a slice of lines at a time. */
async function fileData(lines: Array<() => string>): Promise<Buffer | undefined> {
  if (lines.length === 0) return undefined;
  const pieces: Buffer[] = [];
  let written: string[] = [];
  const slice = new Slice();
  for (const line of lines) {
    written.push(line());
    if (!slice.over) continue;
    pieces.push(Buffer.from(`${written.join('\n')}\n`));
    written = [];
    await slice.next();
  }
  if (written.length > 0) pieces.push(Buffer.from(`${written.join('\n')}\n`));
  return Buffer.concat(pieces);
}

/** Keeps one of the batch's files in the session, at the time the batch ended. */
function keepOutput(mock: Mock, session: Session, batch: Batch, kind: 'output' | 'error', endedMs: number, data: Buffer | undefined): string | undefined {
  if (!data) return undefined;
  const id = `file-${nextId(mock, session).slice(0, 22)}`;
  // Its answers made its room, given back just before: an ended batch's files are never refused.
  keepFile(session, { id, filename: `${batch.id}_${kind}.jsonl`, purpose: 'batch_output', createdMs: endedMs, data }, false);
  return id;
}

/** An OpenAI batch that has ended writes its output and error files once, in input order. */
async function close(mock: Mock, session: Session, batch: Batch, endedMs: number, expired: boolean): Promise<void> {
  if (batch.vendor === 'openai') {
    const output: Array<() => string> = [];
    const errors: Array<() => string> = [];
    batch.answers.forEach((answer, index) => (succeeded(answer) ? output : errors).push(() => outputLine(batch, index, answer)));
    if (expired) for (let index = batch.answers.length; index < batch.lines.length; index += 1) errors.push(() => expiredLine(batch, index));
    const files = { output: await fileData(output), error: await fileData(errors) };
    // The files hold the answers now; the batch keeps only what its counts need.
    for (const answer of batch.answers) answer.bodyText = '';
    if (held(mock, session, batch)) {
      keepBatch(session, batch, batchBytes(batch));
      batch.outputFileId = keepOutput(mock, session, batch, 'output', endedMs, files.output);
      batch.errorFileId = keepOutput(mock, session, batch, 'error', endedMs, files.error);
    }
  }
  batch.closed = true;
}

/** Whether the batch is still its session's and the session still the mock's (a reset or a delete drops them). */
function held(mock: Mock, session: Session, batch: Batch): boolean {
  return mock.sessions.peek(session.id) === session && session.batches.get(batch.id) === batch;
}

async function advance(mock: Mock, session: Session, batch: Batch, route: LineRoute, outward: () => void): Promise<void> {
  const slice = new Slice();
  let counted = batchBytes(batch);
  // A dropped batch answers nothing more: what it kept would count in a budget nothing frees.
  while (held(mock, session, batch)) {
    batch.upToMs = mock.clock.now();
    const state = batchState(batch, batch.upToMs);
    if (batch.answers.length >= state.due) {
      if (state.ended && !batch.closed) {
        const endedMs = state.since[state.status]!;
        await close(mock, session, batch, endedMs, state.status === 'expired');
      }
      break;
    }
    const index = batch.answers.length;
    const { customId, url, size } = batch.lines[index]!;
    // Each answer is counted as it comes (its request's copy goes): one past the budget is refused.
    const answer = await answerLine(mock, session, batch, index, route, (bytes) => refusal(session, bytes + ANSWER_BYTES - 2 * size, index), outward);
    batch.answers.push(answer);
    // An answered request's body is in the journal; the batch needs only its custom id.
    batch.lines[index] = { customId, url, body: null, size: 0 };
    counted += answer.bodyText.length + ANSWER_BYTES - 2 * size;
    if (held(mock, session, batch)) keepBatch(session, batch, counted);
    if (slice.over) await slice.next();
  }
  if (held(mock, session, batch)) keepBatch(session, batch, batchBytes(batch));
}

/**
 * The catch-up under way for each batch, and whether it has sent a line to the upstream: readers
 * wait for it, then catch up to the clock as it is then; once a line is out they read the batch
 * as it stands, since the upstream's deadline, not the reader, bounds that line.
 */
const running = new WeakMap<Batch, { work: Promise<void>; outward: Promise<void> }>();

/** Brings a batch up to the clock: answers the lines now due and, once it has ended, writes its files. */
export async function catchUp(mock: Mock, session: Session, batch: Batch, route: LineRoute): Promise<void> {
  for (let pending = running.get(batch); pending; pending = running.get(batch)) {
    const out = await Promise.race([pending.work.then(() => false), pending.outward.then(() => true)]);
    if (out) return;
  }
  if (batch.closed) return;
  let leftForUpstream!: () => void;
  const outward = new Promise<void>((resolve) => (leftForUpstream = resolve));
  const work = advance(mock, session, batch, route, leftForUpstream).finally(() => running.delete(batch));
  running.set(batch, { work, outward });
  await Promise.race([work, outward]);
}

/** Every batch of every session brought up to the clock (after the clock moved). */
export async function catchUpAll(mock: Mock, route: LineRoute): Promise<void> {
  for (const session of mock.sessions.all()) {
    for (const batch of [...session.batches.values()]) await catchUp(mock, session, batch, route);
  }
}

