// Video tasks by raw request: the JSON body of the gateway description, the gateway's task form,
// `videos:` fixtures (timing, failure, files), poll-driven progression, and tasks that outlive a
// config reload. The clock is manual and stepped through the admin API; nothing sleeps.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPng } from '../../src/media/png.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
videos:
  - name: explosion-fails
    match: { contains: "explosion" }
    timing: { queued_ms: 1000, run_ms: 8000 }
    reply: { fail_at: 40, error: { code: moderation_blocked, message: "Blocked by moderation." } }
  - name: polled
    match: { contains: "poll me" }
    timing: { progress_by: polls, step: 25 }
  - name: custom-clip
    match: { contains: "custom" }
    timing: { queued_ms: 0, run_ms: 1000 }
    reply: { file: media/clip.mp4, thumbnail: media/clip.png }
`;

const CLIP = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(16)]);
const THUMB = renderPng(40, 30, 'clip thumbnail');

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock: 'manual' });
  mkdirSync(join(server.fixturesDir, 'media'));
  writeFileSync(join(server.fixturesDir, 'media/clip.mp4'), CLIP);
  writeFileSync(join(server.fixturesDir, 'media/clip.png'), THUMB);
  await server.writeFixture('videos.yaml', FIXTURES);
});
afterAll(() => server.close());

function request(method: string, path: string, session: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', 'x-mock-session': session },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function json<T = Record<string, unknown>>(response: Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

const advance = (ms: number) => server.advanceClock(ms);

describe('POST /v1/videos with a JSON body', () => {
  it('takes every field of the description, metadata and metadata.content included', async () => {
    const metadata = {
      watermark: true,
      content: [
        { type: 'text', text: 'a cat' },
        { type: 'image_url', image_url: { url: 'https://example.com/first.png' }, role: 'first_frame' },
        { type: 'video_url', video_url: { url: 'https://example.com/ref.mp4' } },
        { type: 'audio_url', audio_url: { url: 'https://example.com/ref.mp3' } },
      ],
    };
    const response = await request('POST', '/v1/videos', 'json-body', {
      model: 'seedance-1-0-pro',
      prompt: 'a cat walking on a fence',
      seconds: '5',
      resolution: '1080p',
      ratio: '9:16',
      generate_audio: true,
      watermark: false,
      camera_fixed: true,
      return_last_frame: false,
      metadata,
    });
    expect(response.status).toBe(200);
    const video = (await response.json()) as Record<string, unknown>;
    expect(video).toMatchObject({ object: 'video', model: 'seedance-1-0-pro', status: 'queued', progress: 0, seconds: '5', size: '1080x1920', metadata });
    expect(video.created_at).toBe((await json<{ now_ms: number }>(server.admin('/clock'))).now_ms);
  });

  it('reads the legacy copies under metadata when the top-level fields are left out', async () => {
    const video = await json(request('POST', '/v1/videos', 'legacy', { prompt: 'x', metadata: { seconds: 10, ratio: '1:1', resolution: '720p' } }));
    expect(video).toMatchObject({ seconds: '10', size: '720x720' });
  });

  it('takes the prompt from the text item of metadata.content when prompt is left out', async () => {
    const video = await json(request('POST', '/v1/videos', 'legacy', { metadata: { content: [{ type: 'text', text: 'from content' }] } }));
    expect(video.prompt).toBe('from content');
  });

  it.each([
    [{ model: 'sora-2' }, 'prompt'],
    [{ prompt: '  ' }, 'prompt'],
    [{ prompt: 'x', model: 'gpt-image-1' }, 'model'],
    [{ prompt: 'x', seconds: 4.5 }, 'seconds'],
    [{ prompt: 'x', seconds: '61' }, 'seconds'],
    [{ prompt: 'x', ratio: '2:1' }, 'ratio'],
    [{ prompt: 'x', resolution: '4k' }, 'resolution'],
    [{ prompt: 'x', metadata: { ratio: '7:5' } }, 'metadata.ratio'],
    [{ prompt: 'x', watermark: 'yes' }, 'watermark'],
    [{ prompt: 'x', metadata: 'not an object' }, 'metadata'],
    [{ prompt: 'x', metadata: { content: [{ type: 'image_url' }] } }, 'metadata.content[0].image_url'],
    [{ prompt: 'x', metadata: { content: [{ text: 'no type' }] } }, 'metadata.content[0].type'],
    [{ prompt: 'x', input_reference: { url: 'x' } }, 'input_reference'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const response = await request('POST', '/v1/videos', 'refusals', body);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { param: string; type: string } };
    expect(error.param).toBe(field);
    expect(error.type).toBe('invalid_request_error');
  });

  it('takes the same fields from a multipart form, nested metadata included', async () => {
    const form = new FormData();
    form.append('prompt', 'a form-made clip');
    form.append('generate_audio', 'true');
    form.append('metadata[seconds]', '10');
    form.append('metadata[content][][type]', 'image_url');
    form.append('metadata[content][][image_url][url]', 'https://example.com/first.png');
    form.append('input_reference[image_url]', 'https://example.com/ref.png');
    const response = await fetch(`${server.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'x-mock-session': 'form' },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      prompt: 'a form-made clip',
      seconds: '10',
      metadata: { seconds: '10', content: [{ type: 'image_url', image_url: { url: 'https://example.com/first.png' } }] },
    });
  });

  it('answers 404 naming the known models for a model the catalog lacks', async () => {
    const response = await request('POST', '/v1/videos', 'refusals', { prompt: 'x', model: 'veo-9' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('sora-2');
  });

  it('refuses a body that is not JSON with a 400', async () => {
    const response = await fetch(`${server.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: '{"prompt": ',
    });
    expect(response.status).toBe(400);
  });
});

describe('the gateway task form', () => {
  it('creates with task_id beside id and reports QUEUED, IN_PROGRESS and SUCCESS in its wrapper', async () => {
    const created = await json(request('POST', '/v1/video/generations', 'gateway', { model: 'sora-2', prompt: 'a sunrise', seconds: '4' }));
    expect(created).toMatchObject({ object: 'video', status: 'queued', progress: 0 });
    expect(created.task_id).toBe(created.id);
    const id = created.id as string;
    const submitted = Math.floor((created.created_at as number) / 1000);

    expect(await json(request('GET', `/v1/video/generations/${id}`, 'gateway'))).toEqual({
      code: 'success',
      message: '',
      data: { task_id: id, status: 'QUEUED', progress: '0%', result_url: '', fail_reason: '', submit_time: submitted, start_time: 0, finish_time: 0 },
    });
    await advance(2000 + 3000);
    const running = await json<{ data: Record<string, unknown> }>(request('GET', `/v1/video/generations/${id}`, 'gateway'));
    expect(running.data).toMatchObject({ status: 'IN_PROGRESS', progress: '30%', start_time: submitted + 2, finish_time: 0 });
    await advance(7000);
    const done = await json<{ data: Record<string, string> }>(request('GET', `/v1/video/generations/${id}`, 'gateway'));
    expect(done.data).toMatchObject({ status: 'SUCCESS', progress: '100%', finish_time: submitted + 12 });
    expect(done.data.result_url).toBe(`${server.url}/v1/videos/${id}/content`);

    // The same task through the OpenAI form, and its bytes at result_url.
    expect(await json(request('GET', `/v1/videos/${id}`, 'gateway'))).toMatchObject({ id, status: 'completed' });
    const content = await fetch(done.data.result_url!, { headers: { authorization: 'Bearer sk-test', 'x-mock-session': 'gateway' } });
    expect(content.headers.get('content-type')).toBe('video/mp4');
  });

  it('answers an unknown task with 400 task_not_exist, and its other errors in the same wrapper', async () => {
    const unknown = await request('GET', '/v1/video/generations/task_nope', 'gateway');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ code: 'task_not_exist', data: null });

    const bad = await request('POST', '/v1/video/generations', 'gateway', { model: 'sora-2' });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'missing_required_parameter', data: null });
    expect(body.message).toContain('prompt');

    const noKey = await fetch(`${server.url}/v1/video/generations/task_nope`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ code: 'invalid_api_key', data: null });
  });
});

describe('videos fixtures', () => {
  it('fails at fail_at with the fixture error, in both forms', async () => {
    const video = await json(request('POST', '/v1/videos', 'failing', { prompt: 'a big explosion' }));
    await advance(1000 + 3000);
    expect(await json(request('GET', `/v1/videos/${video.id}`, 'failing'))).toMatchObject({ status: 'in_progress', progress: 37 });
    await advance(300);
    const failed = await json(request('GET', `/v1/videos/${video.id}`, 'failing'));
    expect(failed).toMatchObject({
      status: 'failed',
      progress: 40,
      completed_at: null,
      error: { code: 'moderation_blocked', message: 'Blocked by moderation.' },
    });
    const wrapped = await json<{ data: Record<string, unknown> }>(request('GET', `/v1/video/generations/${video.id}`, 'failing'));
    expect(wrapped.data).toMatchObject({ status: 'FAILURE', progress: '40%', fail_reason: 'Blocked by moderation.', result_url: '' });
    const content = await request('GET', `/v1/videos/${video.id}/content`, 'failing');
    expect(content.status).toBe(400);
    expect(((await content.json()) as { error: { message: string } }).error.message).toContain('failed');
  });

  it('advances a poll-driven task one step per status read, whatever the clock says', async () => {
    const video = await json(request('POST', '/v1/videos', 'polls', { prompt: 'poll me please' }));
    const progress: Array<[unknown, unknown]> = [];
    for (let i = 0; i < 5; i++) {
      const read = await json(request('GET', `/v1/videos/${video.id}`, 'polls'));
      progress.push([read.status, read.progress]);
    }
    expect(progress).toEqual([
      ['in_progress', 25],
      ['in_progress', 50],
      ['in_progress', 75],
      ['completed', 100],
      ['completed', 100],
    ]);
    // A list does not count as a status read.
    const again = await json(request('POST', '/v1/videos', 'polls', { prompt: 'poll me again' }));
    await json(request('GET', '/v1/videos', 'polls'));
    expect(await json(request('GET', `/v1/videos/${again.id}`, 'polls'))).toMatchObject({ progress: 25 });
  });

  it("serves the fixture's own clip and thumbnail", async () => {
    const video = await json(request('POST', '/v1/videos', 'files', { prompt: 'my custom clip' }));
    await advance(1000);
    const clip = await request('GET', `/v1/videos/${video.id}/content`, 'files');
    expect(clip.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await clip.arrayBuffer()).equals(CLIP)).toBe(true);
    const thumb = await request('GET', `/v1/videos/${video.id}/content?variant=thumbnail`, 'files');
    expect(thumb.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await thumb.arrayBuffer()).equals(THUMB)).toBe(true);
  });

  it('keeps running tasks, with the timing they started with, across a config reload', async () => {
    const video = await json(request('POST', '/v1/videos', 'reload', { prompt: 'an explosion before the reload' }));
    await server.writeFixture('videos.yaml', 'videos: []\n');
    await advance(1000 + 3200);
    expect(await json(request('GET', `/v1/videos/${video.id}`, 'reload'))).toMatchObject({ status: 'failed', progress: 40 });
    const after = await json(request('POST', '/v1/videos', 'reload', { prompt: 'an explosion after the reload' }));
    await advance(12_000);
    expect(await json(request('GET', `/v1/videos/${after.id}`, 'reload'))).toMatchObject({ status: 'completed' });
    await server.writeFixture('videos.yaml', FIXTURES);
  });
});

describe('model timing', () => {
  it("uses the model's own timing when no fixture gives one", async () => {
    // seedance-1-0-pro waits 1 s and runs 8 s in the default catalog.
    const video = await json(request('POST', '/v1/videos', 'model-timing', { model: 'seedance-1-0-pro', prompt: 'a quiet lake' }));
    await advance(1000 + 4000);
    expect(await json(request('GET', `/v1/videos/${video.id}`, 'model-timing'))).toMatchObject({ status: 'in_progress', progress: 50 });
    await advance(4000);
    expect(await json(request('GET', `/v1/videos/${video.id}`, 'model-timing'))).toMatchObject({ status: 'completed' });
  });
});
