// A batch as its session keeps it: an OpenAI batch (`/v1/batches`) or an Anthropic message batch
// (`/v1/messages/batches`), and where it stands. Its status is a pure function of it and the mock
// clock (`media/batch-lifecycle.ts`); its lines are answered as the clock passes their time, in order.
import type { Upstream } from './upstream.js';

export type BatchVendor = 'openai' | 'anthropic';

export interface BatchTiming {
  validatingMs: number;
  inProgressMs: number;
  finalizingMs: number;
}

/** One request of the batch, as its input line or `requests[]` entry gave it. */
export interface BatchLine {
  customId: string;
  url: string;
  /** The request; null once answered (the journal keeps it), or while `text` holds it. */
  body: unknown;
  /**
   * A file line's JSON text, its request parsed again when the line is answered: waiting lines
   * kept as strings, not as object trees every young-generation GC would copy (10,000 of them
   * held the event loop for tens of milliseconds a collection).
   */
  text?: string;
  /** The body's size in characters, as a request's would be measured. */
  size: number;
}

/** A problem found at validation, naming the line (from 1). */
export interface LineError {
  code: string;
  message: string;
  param: string | null;
  line: number;
}

/** What one line was answered: its status, its answer's JSON text and the id of its request. */
export interface LineAnswer {
  status: number;
  requestId: string;
  bodyText: string;
}

/** The request that created the batch: its lines are sent as if by the same client. */
export interface BatchSender {
  headers: Record<string, string>;
  caller: { group?: string; scenario?: string };
  origin: string;
  /** The upstream the request that made the batch could spend (SPEC 12): its lines can spend it too. */
  upstream?: Upstream;
}

export interface Batch {
  id: string;
  vendor: BatchVendor;
  endpoint: string;
  inputFileId: string | null;
  metadata: Record<string, string> | null;
  createdMs: number;
  expiresAtMs: number;
  timing: BatchTiming;
  /** The `batches:` fixture whose timing it took. */
  fixture: string | null;
  lines: BatchLine[];
  /** Problems validation finds: the batch fails when validation ends. */
  invalid: LineError[];
  cancelledMs?: number;
  sender: BatchSender;
  /** One per line answered so far, in input order. */
  answers: LineAnswer[];
  /** Set once the batch has ended and its files were written (OpenAI). */
  outputFileId?: string;
  errorFileId?: string;
  /** The files were written (or there were none to write). */
  closed: boolean;
  /**
   * The clock reading its answers, and once it has ended its files, were last brought up to.
   * Reads show the batch as of then: a read a moment later by the clock would show an ended batch
   * whose files are not written yet (`completed` with no `output_file_id`).
   */
  upToMs: number;
}

export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

export interface BatchState {
  status: BatchStatus;
  /** When each status reached so far began, on the mock clock. */
  since: Partial<Record<BatchStatus, number>>;
  /** How many lines are answered by now (the first ones, in input order). */
  due: number;
  ended: boolean;
}

/** A line answered with a 2xx succeeded; any other answer counts as failed. */
export function succeeded(answer: LineAnswer): boolean {
  return answer.status < 400;
}

export function answerCounts(batch: Batch): { ok: number; failed: number } {
  let ok = 0;
  for (const answer of batch.answers) if (succeeded(answer)) ok += 1;
  return { ok, failed: batch.answers.length - ok };
}
