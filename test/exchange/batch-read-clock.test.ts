// A batch read shows the batch as the read's catch-up left it. On the real clock time goes on
// between the catch-up and the answer: a read that caught a batch up just before its end showed
// it `completed`, by the later reading, with no output file yet (the SDK's `files.content` of that
// null then throws), once in a loaded CI run.
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/exchange/exchange.js';
import { answer, plainMock } from '../helpers/mock.js';

function jsonBody<T>(outcome: Outcome): T {
  if (!('plan' in outcome) || outcome.plan.kind !== 'json') throw new Error(`expected a JSON plan, got ${JSON.stringify(outcome)}`);
  return outcome.plan.body as T;
}

const lines = Array.from({ length: 10 }, (_, i) =>
  JSON.stringify({ custom_id: `line-${i + 1}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `question ${i + 1}` }] } }),
);

interface BatchObject {
  id: string;
  status: string;
  output_file_id: string | null;
  request_counts: { completed: number };
}

describe('a batch read on a clock that goes on while it is served', () => {
  it('shows the batch as its catch-up left it, and completed only once its output file is written', async () => {
    const mock = plainMock();
    const base = mock.clock;
    let moving = false;
    // The mock clock, which when `moving` goes on a second each time it is read.
    mock.clock = {
      ...base,
      now: () => {
        const now = base.now();
        if (moving) base.advance(1_000);
        return now;
      },
    };
    const file = jsonBody<{ id: string }>(
      await answer(mock, 'POST /v1/files', { multipart: true, body: { purpose: 'batch' }, uploads: new Map([['file', [{ filename: 'ten.jsonl', data: Buffer.from(`${lines.join('\n')}\n`) }]]]) }),
    );
    const created = jsonBody<BatchObject>(await answer(mock, 'POST /v1/batches', { body: { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' } }));
    const read = async () => jsonBody<BatchObject>(await answer(mock, 'GET /v1/batches/:id', { params: { id: created.id } }));

    // A 10-line batch runs until 3.5 s and finalizes until 4.5 s.
    base.advance(4_000);
    expect(await read()).toMatchObject({ status: 'finalizing', output_file_id: null, request_counts: { completed: 10 } });

    moving = true;
    expect(await read()).toMatchObject({ status: 'finalizing', output_file_id: null });
    moving = false;

    const ended = await read();
    expect(ended.status).toBe('completed');
    expect(ended.output_file_id).not.toBeNull();
    const output = await answer(mock, 'GET /v1/files/:id/content', { params: { id: ended.output_file_id! } });
    if (!('plan' in output) || output.plan.kind !== 'binary') throw new Error(`expected the file's bytes, got ${JSON.stringify(output)}`);
    expect(output.plan.data.toString().trim().split('\n')).toHaveLength(10);
  });
});
