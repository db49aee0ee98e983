// A model (or task) this mock does not hold, asked by a request with no right to the upstream
// (a page of another Origin: `exchange.upstream` unset though `--upstream` is set), is answered
// as without an upstream: each door's own 404 in its own envelope, never a 500. The template
// alone decides, from the request's right, not the mock's option.
import { describe, expect, it } from 'vitest';
import type { Exchange, Outcome } from '../../src/exchange/exchange.js';
import type { Mock } from '../../src/exchange/mock.js';
import { answer, plainMock } from '../helpers/mock.js';

const alone = plainMock();
/** The same mock with --upstream set (to nowhere: nothing may reach it here). */
const upstreamed: Mock = { ...alone, options: { ...alone.options, upstream: { url: 'http://127.0.0.1:9', origins: [], timeoutMs: 60_000 } } };

function rendered(outcome: Outcome): { status: number; body: unknown } {
  if (!('error' in outcome)) throw new Error(`expected an error, got a ${outcome.plan.kind} plan`);
  const { status, body } = outcome.envelope(outcome.error, 'req_test');
  return { status, body };
}

const json = (body: unknown): Partial<Exchange> => ({ body });
const target = (model: string, action: string, body: unknown): Partial<Exchange> => ({ params: { target: `${model}:${action}` }, body });
const speechForm = { body: { model: 'no-such-tts', voice: 'alloy', input: 'hello' } };

/** Each door that looks its model up, the request naming a model this mock does not list, and how its envelope spells the 404. */
const DOORS: Array<[string, string, Partial<Exchange>, object]> = [
  ['OpenAI embeddings', 'POST /v1/embeddings', json({ model: 'no-such-embedder', input: 'hello' }), { error: { code: 'model_not_found' } }],
  ['embedContent', 'POST /v1beta/models/:target', target('no-such-embedder', 'embedContent', { content: { parts: [{ text: 'hello' }] } }), { error: { code: 404, status: 'NOT_FOUND' } }],
  [
    'batchEmbedContents',
    'POST /v1beta/models/:target',
    target('no-such-embedder', 'batchEmbedContents', { requests: [{ model: 'models/no-such-embedder', content: { parts: [{ text: 'hello' }] } }] }),
    { error: { code: 404, status: 'NOT_FOUND' } },
  ],
  ['moderations', 'POST /v1/moderations', json({ model: 'no-such-moderator', input: 'hello' }), { error: { code: 'model_not_found' } }],
  ['completions', 'POST /v1/completions', json({ model: 'no-such-completer', prompt: 'hello' }), { error: { code: 'model_not_found' } }],
  ['rerank', 'POST /v1/rerank', json({ model: 'no-such-reranker', query: 'hello', documents: ['a', 'b'] }), { error: { code: 'model_not_found' } }],
  ['chat completions', 'POST /v1/chat/completions', json({ model: 'no-such-chat', messages: [{ role: 'user', content: 'hello' }] }), { error: { code: 'model_not_found' } }],
  ['responses', 'POST /v1/responses', json({ model: 'no-such-chat', input: 'hello' }), { error: { code: 'model_not_found' } }],
  ['messages', 'POST /v1/messages', json({ model: 'no-such-chat', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] }), { type: 'error', error: { type: 'not_found_error' } }],
  ['messages count_tokens', 'POST /v1/messages/count_tokens', json({ model: 'no-such-chat', messages: [{ role: 'user', content: 'hello' }] }), { type: 'error', error: { type: 'not_found_error' } }],
  ['generateContent', 'POST /v1beta/models/:target', target('no-such-chat', 'generateContent', { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] }), { error: { code: 404, status: 'NOT_FOUND' } }],
  ['images', 'POST /v1/images/generations', json({ model: 'no-such-painter', prompt: 'a lighthouse' }), { error: { code: 'model_not_found' } }],
  ['speech', 'POST /v1/audio/speech', speechForm, { error: { code: 'model_not_found' } }],
];

describe('a model this mock does not list, for a request with no right to the upstream', () => {
  it.each(DOORS)('%s answers the door\'s 404 model_not_found, as without an upstream', async (_name, route, request, envelope) => {
    const refused = rendered(await answer(upstreamed, route, request));
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject(envelope);
    expect(JSON.stringify(refused.body)).toContain("The model 'no-such-");
    // The fix is one line of a fixtures file, and the message says which.
    expect(JSON.stringify(refused.body)).toMatch(/add it under `models:` in a fixtures file: `- { id: no-such-[a-z]+/);
    expect(refused).toEqual(rendered(await answer(alone, route, request)));
  });

  it('a video task this mock does not hold is its own 404, as without an upstream', async () => {
    const request = { params: { id: 'video_elsewhere' } };
    const refused = rendered(await answer(upstreamed, 'GET /v1/videos/:id', request));
    expect(refused).toMatchObject({ status: 404, body: { error: { code: 'video_not_found' } } });
    expect(refused).toEqual(rendered(await answer(alone, 'GET /v1/videos/:id', request)));
  });

  it('no scenario step counts the refused request', async () => {
    const mock = plainMock({ scenarios: { 'busy.yaml': 'scenarios:\n  - name: busy\n    steps: [ { error: rate_limit, times: 1 } ]\n' } });
    const withUpstream: Mock = { ...mock, options: { ...mock.options, upstream: { url: 'http://127.0.0.1:9', origins: [], timeoutMs: 60_000 } } };
    const headers = { 'x-mock-session': 'unknown-busy', 'x-mock-scenario': 'busy' };
    const unknown = await answer(withUpstream, 'POST /v1/embeddings', { headers, body: { model: 'no-such-embedder', input: 'hello' } });
    expect(rendered(unknown).status).toBe(404);
    expect(unknown.notes.scenario).toBeNull();
    const known = await answer(withUpstream, 'POST /v1/embeddings', { headers, body: { model: 'text-embedding-3-small', input: 'hello' } });
    expect('error' in known && known.error.kind).toBe('rate_limit');
  });
});
