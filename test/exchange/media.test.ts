// Images and video tasks without HTTP: a row of the route table run on a plain request, its
// outcome read as the shell would (plan, error, notes, envelope).
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/exchange/exchange.js';
import { answer, plainMock } from '../helpers/mock.js';

const mock = plainMock({
  fixtures: {
    'images.yaml': 'images:\n  - name: sunset\n    match: { contains: sunset }\n    reply: { generate: true }\n',
    'videos.yaml': 'videos:\n  - name: slow-cat\n    match: { contains: cat }\n    timing: { queued_ms: 1000, run_ms: 4000 }\n',
  },
  scenarios: { 'busy.yaml': 'scenarios:\n  - name: busy\n    steps: [ { error: rate_limit, times: 1 } ]\n' },
});

function jsonBody<T>(outcome: Outcome): T {
  if (!('plan' in outcome) || outcome.plan.kind !== 'json') throw new Error(`expected a JSON plan, got ${JSON.stringify(outcome)}`);
  return outcome.plan.body as T;
}

describe('images, as plain operations', () => {
  it('answers a picture from the fixture that matches, noting it and the model', async () => {
    const outcome = await answer(mock, 'POST /v1/images/generations', { body: { model: 'gpt-image-1', prompt: 'a sunset over water', size: '256x256' } });
    const body = jsonBody<{ data: Array<{ b64_json: string }> }>(outcome);
    expect(Buffer.from(body.data[0]!.b64_json, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(outcome.notes).toMatchObject({ style: 'images', model: 'gpt-image-1', fixture: 'sunset' });
  });

  it('refuses a size it cannot make, naming the field, in the OpenAI envelope', async () => {
    const outcome = await answer(mock, 'POST /v1/images/generations', { body: { model: 'gpt-image-1', prompt: 'x', size: 'huge' } });
    if (!('error' in outcome)) throw new Error('expected an error');
    expect(outcome.error.options.param).toBe('size');
    expect(outcome.envelope(outcome.error).status).toBe(400);
  });

  it("takes the session's scenario step before any picture is made", async () => {
    const session = { 'x-mock-session': 'images-busy', 'x-mock-scenario': 'busy' };
    const first = await answer(mock, 'POST /v1/images/generations', { headers: session, body: { prompt: 'a sunset' } });
    expect('error' in first && first.error.kind).toBe('rate_limit');
    expect(first.notes).toMatchObject({ scenario: 'busy', scenarioStep: 0, fault: 'rate_limit' });
    const second = await answer(mock, 'POST /v1/images/generations', { headers: session, body: { prompt: 'a sunset' } });
    expect('plan' in second).toBe(true);
  });
});

describe('video tasks, as plain operations', () => {
  it('creates a task that progresses on the mock clock, and serves its content once completed', async () => {
    const headers = { 'x-mock-session': 'videos' };
    const created = jsonBody<{ id: string; status: string }>(await answer(mock, 'POST /v1/videos', { headers, body: { model: 'sora-2', prompt: 'a cat on a piano' } }));
    expect(created.status).toBe('queued');
    const poll = async () => jsonBody<{ status: string; progress: number }>(await answer(mock, 'GET /v1/videos/:id', { headers, params: { id: created.id } }));
    const early = await answer(mock, 'GET /v1/videos/:id/content', { headers, params: { id: created.id } });
    expect('error' in early && early.error.options.code).toBe('video_not_ready');
    mock.clock.advance(3000);
    expect(await poll()).toMatchObject({ status: 'in_progress', progress: 50 });
    mock.clock.advance(2000);
    expect((await poll()).status).toBe('completed');
    const content = await answer(mock, 'GET /v1/videos/:id/content', { headers, params: { id: created.id } });
    if (!('plan' in content) || content.plan.kind !== 'binary') throw new Error('expected the video bytes');
    expect(content.plan.contentType).toBe('video/mp4');
    expect(content.notes).toMatchObject({ style: 'videos', model: 'sora-2' });
  });

  it('answers an unknown task in each form\'s own envelope: 404 for OpenAI, 400 in the gateway wrapper', async () => {
    const openai = await answer(mock, 'GET /v1/videos/:id', { params: { id: 'video_nope' } });
    const gateway = await answer(mock, 'GET /v1/video/generations/:task_id', { params: { task_id: 'task_nope' } });
    if (!('error' in openai) || !('error' in gateway)) throw new Error('expected errors');
    expect(openai.envelope(openai.error).status).toBe(404);
    const wrapped = gateway.envelope(gateway.error);
    expect(wrapped.status).toBe(400);
    expect(wrapped.body).toMatchObject({ code: 'task_not_exist' });
  });
});
