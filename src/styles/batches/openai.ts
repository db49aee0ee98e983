// The OpenAI wire shapes of files and batches: the `file` object, the `batch` object with every
// timestamp (Unix seconds, null until it happens), and the lines of output and error files.
import { hashHex } from '../../conversation/random.js';
import { answerCounts, type Batch, type BatchState, type LineAnswer } from '../../conversation/batch.js';
import type { StoredFile } from '../../conversation/stored-file.js';

const seconds = (ms: number | undefined) => (ms === undefined ? null : Math.floor(ms / 1000));

export function fileObject(file: StoredFile) {
  return {
    object: 'file',
    id: file.id,
    purpose: file.purpose,
    filename: file.filename,
    bytes: file.data.length,
    created_at: seconds(file.createdMs),
    expires_at: null,
    status: 'processed',
    status_details: null,
  };
}

export function batchObject(batch: Batch, state: BatchState) {
  const { since } = state;
  const counts = answerCounts(batch);
  return {
    id: batch.id,
    object: 'batch',
    endpoint: batch.endpoint,
    errors: batch.invalid.length > 0 && since.failed !== undefined ? { object: 'list', data: batch.invalid } : null,
    input_file_id: batch.inputFileId,
    completion_window: '24h',
    status: state.status,
    output_file_id: batch.outputFileId ?? null,
    error_file_id: batch.errorFileId ?? null,
    created_at: seconds(batch.createdMs),
    in_progress_at: seconds(since.in_progress),
    expires_at: seconds(batch.expiresAtMs),
    finalizing_at: seconds(since.finalizing),
    completed_at: seconds(since.completed),
    failed_at: seconds(since.failed),
    expired_at: seconds(since.expired),
    cancelling_at: seconds(since.cancelling),
    cancelled_at: seconds(since.cancelled),
    request_counts: { total: since.in_progress !== undefined ? batch.lines.length : 0, completed: counts.ok, failed: counts.failed },
    metadata: batch.metadata,
  };
}

function requestLineId(batch: Batch, index: number): string {
  return `batch_req_${hashHex(`${batch.id}|${index}`, 32)}`;
}

/** One line of an output or error file, built as text around the answer's JSON text. */
export function outputLine(batch: Batch, index: number, answer: LineAnswer): string {
  const customId = JSON.stringify(batch.lines[index]!.customId);
  return `{"id":"${requestLineId(batch, index)}","custom_id":${customId},"response":{"status_code":${answer.status},"request_id":"${answer.requestId}","body":${answer.bodyText}},"error":null}`;
}

/** A line the window closed on before it was answered: in the error file, as the vendor writes it. */
export function expiredLine(batch: Batch, index: number): string {
  return JSON.stringify({
    id: requestLineId(batch, index),
    custom_id: batch.lines[index]!.customId,
    response: null,
    error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' },
  });
}
