// Model lists and token counting without HTTP: the list's format and envelope follow the
// request's headers; a count is what a reply to the same request would bill.
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/exchange/exchange.js';
import { answer, plainMock } from '../helpers/mock.js';

const mock = plainMock();

function body<T>(outcome: Outcome): T {
  if (!('plan' in outcome) || outcome.plan.kind !== 'json') throw new Error(`expected a JSON plan, got ${JSON.stringify(outcome)}`);
  return outcome.plan.body as T;
}

describe('model lists, as plain operations', () => {
  it('lists the catalog in the format the headers ask for', async () => {
    const openai = body<{ object: string; data: Array<{ id: string }> }>(await answer(mock, 'GET /v1/models'));
    expect(openai.object).toBe('list');
    expect(openai.data.map((m) => m.id)).toContain('gpt-4o-mini');
    const anthropic = body<{ data: Array<{ type: string }> }>(await answer(mock, 'GET /v1/models', { headers: { 'anthropic-version': '2023-06-01' } }));
    expect(anthropic.data[0]!.type).toBe('model');
    const gemini = body<{ models: Array<{ name: string }> }>(await answer(mock, 'GET /v1beta/models'));
    expect(gemini.models.map((m) => m.name)).toContain('models/gemini-2.5-flash');
  });

  it("answers an unknown model in the envelope of the client's dialect", async () => {
    const outcome = await answer(mock, 'GET /v1/models/:model', { headers: { 'anthropic-version': '2023-06-01' }, params: { model: 'nope' } });
    if (!('error' in outcome)) throw new Error('expected an error');
    const rendered = outcome.envelope(outcome.error);
    expect(rendered.status).toBe(404);
    expect(rendered.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(outcome.notes).toMatchObject({ style: 'models', model: 'nope' });
  });
});

describe('token counting, as plain operations', () => {
  const question = 'How many tokens does this question take?';

  it('counts what a reply to the same request bills as input, in each style', async () => {
    const reply = body<{ usage: { prompt_tokens: number } }>(
      await answer(mock, 'POST /v1/chat/completions', { body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] } }),
    );
    const responses = body<{ input_tokens: number }>(await answer(mock, 'POST /v1/responses/input_tokens', { body: { model: 'gpt-4o-mini', input: [{ role: 'user', content: question }] } }));
    const messages = body<{ input_tokens: number }>(
      await answer(mock, 'POST /v1/messages/count_tokens', { body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: question }] } }),
    );
    const gemini = body<{ totalTokens: number }>(
      await answer(mock, 'POST /v1beta/models/:target', { params: { target: 'gemini-2.5-flash:countTokens' }, body: { contents: [{ role: 'user', parts: [{ text: question }] }] } }),
    );
    expect(responses.input_tokens).toBe(reply.usage.prompt_tokens);
    expect(messages.input_tokens).toBeGreaterThan(0);
    expect(gemini.totalTokens).toBeGreaterThan(0);
  });

  it('refuses an unknown action on a generate-content path as the vendor does (404)', async () => {
    const outcome = await answer(mock, 'POST /v1beta/models/:target', { params: { target: 'gemini-2.5-flash:embedSomething' }, body: {} });
    if (!('error' in outcome)) throw new Error('expected an error');
    expect(outcome.envelope(outcome.error).status).toBe(404);
    expect(outcome.notes.style).toBe('generate-content');
  });
});
