// The Anthropic wire shapes of message batches: the `message_batch` object (RFC 3339 times, null
// until they happen) and the lines of its results, in input order.
import { answerCounts, succeeded, type Batch, type BatchState } from '../../conversation/batch.js';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

function endedAt(state: BatchState): number | undefined {
  const { since } = state;
  return since.completed ?? since.cancelled ?? since.expired ?? since.failed;
}

export function messageBatchObject(batch: Batch, state: BatchState, origin: string) {
  const counts = answerCounts(batch);
  const unanswered = batch.lines.length - batch.answers.length;
  const status = state.status;
  return {
    id: batch.id,
    type: 'message_batch',
    processing_status: state.ended ? 'ended' : status === 'cancelling' ? 'canceling' : 'in_progress',
    request_counts: {
      processing: state.ended ? 0 : unanswered,
      succeeded: counts.ok,
      errored: counts.failed,
      canceled: status === 'cancelled' ? unanswered : 0,
      expired: status === 'expired' ? unanswered : 0,
    },
    ended_at: iso(endedAt(state)),
    created_at: iso(batch.createdMs),
    expires_at: iso(batch.expiresAtMs),
    archived_at: null,
    cancel_initiated_at: iso(batch.cancelledMs),
    results_url: state.ended ? `${origin}/v1/messages/batches/${batch.id}/results` : null,
  };
}

/** The results as JSONL: each request's answer, or why it has none. */
export function resultLines(batch: Batch, state: BatchState): string {
  const lines = batch.lines.map((line, index) => {
    const customId = JSON.stringify(line.customId);
    const answer = batch.answers[index];
    if (!answer) return `{"custom_id":${customId},"result":{"type":"${state.status === 'expired' ? 'expired' : 'canceled'}"}}`;
    if (succeeded(answer)) return `{"custom_id":${customId},"result":{"type":"succeeded","message":${answer.bodyText}}}`;
    return `{"custom_id":${customId},"result":{"type":"errored","error":${answer.bodyText}}}`;
  });
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
