// Video tasks through the official openai SDK (it always sends POST /v1/videos as multipart), on a
// manual mock clock stepped through POST /__admin/clock: no test here sleeps.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { BadRequestError, NotFoundError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPng, sniffImageType } from '../../src/media/png.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const START = '2030-01-01T00:00:00Z';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock: START });
});
afterAll(() => server.close());

/** A client whose requests all belong to one session, so each test sees only its own tasks. */
function clientFor(session: string): OpenAI {
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
}

const advance = (ms: number) => server.advanceClock(ms);

const hasFfprobe = spawnSync('ffprobe', ['-version']).status === 0;

describe('videos.create and retrieve', () => {
  it('creates a queued task and moves it to completed as the clock is stepped', async () => {
    const client = clientFor('lifecycle');
    const video = await client.videos.create({ prompt: 'a cat on a skateboard', model: 'sora-2', seconds: '8', size: '1280x720' });
    expect(video).toMatchObject({
      object: 'video',
      model: 'sora-2',
      status: 'queued',
      progress: 0,
      prompt: 'a cat on a skateboard',
      seconds: '8',
      size: '1280x720',
      completed_at: null,
      expires_at: null,
      error: null,
    });
    expect(video.id).toMatch(/^video_/);
    const created = video.created_at;
    // Milliseconds, as the gateway description says.
    expect(created).toBeGreaterThan(1e12);

    expect((await client.videos.retrieve(video.id)).status).toBe('queued');
    await advance(2000 + 5000);
    const halfway = await client.videos.retrieve(video.id);
    expect(halfway).toMatchObject({ status: 'in_progress', progress: 50 });
    await advance(2500);
    expect((await client.videos.retrieve(video.id)).progress).toBe(75);
    await advance(2500);
    const done = await client.videos.retrieve(video.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    expect(done.completed_at).toBe(created + 12_000);
    expect(done.expires_at).toBe(done.completed_at! + 24 * 3600 * 1000);
  });

  it('takes an input_reference file or image URL, and defaults the model to the first video model', async () => {
    const client = clientFor('reference');
    const withFile = await client.videos.create({
      prompt: 'the same cat, moving',
      input_reference: await toFile(renderPng(64, 64, 'cat'), 'cat.png', { type: 'image/png' }),
    });
    expect(withFile).toMatchObject({ status: 'queued', model: 'sora-2', seconds: '4' });
    const withUrl = await client.videos.create({ prompt: 'a dog', input_reference: { image_url: 'https://example.com/dog.png' } });
    expect(withUrl.status).toBe('queued');
  });

  it('refuses a missing prompt, a chat model, bad seconds and a bad size, naming the field', async () => {
    const client = clientFor('refusals');
    const attempts: Array<[Record<string, unknown>, string]> = [
      [{ model: 'sora-2' }, 'prompt'],
      [{ prompt: 'x', model: 'gpt-4o-mini' }, 'model'],
      [{ prompt: 'x', seconds: 'eight' }, 'seconds'],
      [{ prompt: 'x', seconds: '0' }, 'seconds'],
      [{ prompt: 'x', size: '999x999' }, 'size'],
    ];
    for (const [body, field] of attempts) {
      const error = await client.videos.create(body as unknown as OpenAI.VideoCreateParams).catch((e: unknown) => e);
      expect(error, field).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).param).toBe(field);
    }
    const notAPicture = await client.videos
      .create({ prompt: 'x', input_reference: await toFile(Buffer.from('plain text'), 'ref.png') })
      .catch((e: unknown) => e);
    expect((notAPicture as BadRequestError).param).toBe('input_reference');
  });

  it('answers 404 for an unknown id, and another session cannot see the task', async () => {
    const video = await clientFor('owner').videos.create({ prompt: 'private' });
    const error = await clientFor('stranger').videos.retrieve(video.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(await clientFor('owner').videos.retrieve('video_nope').catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
  });
});

describe('videos.list and delete', () => {
  it('pages through every task with auto-pagination, newest first', async () => {
    const client = clientFor('listing');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await client.videos.create({ prompt: `clip ${i}` })).id);
    const seen: string[] = [];
    for await (const video of client.videos.list({ limit: 2 })) seen.push(video.id);
    expect(seen).toEqual([...ids].reverse());

    const page = await client.videos.list({ limit: 2, order: 'asc' });
    expect(page.data.map((v) => v.id)).toEqual(ids.slice(0, 2));
    expect(page.has_more).toBe(true);
    expect(page.last_id).toBe(ids[1]);
  });

  it('deletes a task, which is then gone', async () => {
    const client = clientFor('deleting');
    const video = await client.videos.create({ prompt: 'to be deleted' });
    expect(await client.videos.delete(video.id)).toEqual({ id: video.id, object: 'video.deleted', deleted: true });
    expect(await client.videos.retrieve(video.id).catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
    expect((await client.videos.list()).data).toEqual([]);
    expect(await client.videos.delete(video.id).catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
  });
});

describe('videos.downloadContent', () => {
  it('refuses before completion, naming the status, then serves a real MP4 and a WebP thumbnail', async () => {
    const client = clientFor('download');
    const video = await client.videos.create({ prompt: 'waves on a beach' });
    const early = await client.videos.downloadContent(video.id).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(BadRequestError);
    expect((early as BadRequestError).message).toContain('queued');

    await advance(12_000);
    const response = await client.videos.downloadContent(video.id);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    const mp4 = Buffer.from(await response.arrayBuffer());
    expect(mp4.toString('latin1', 4, 8)).toBe('ftyp');

    const thumbnail = await client.videos.downloadContent(video.id, { variant: 'thumbnail' });
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    expect(sniffImageType(new Uint8Array(await thumbnail.arrayBuffer()))).toBe('image/webp');

    const sprites = await client.videos.downloadContent(video.id, { variant: 'spritesheet' });
    expect(sprites.headers.get('content-type')).toBe('image/jpeg');
  });

  it.skipIf(!hasFfprobe)('serves an MP4 that ffprobe decodes as H.264 video', async () => {
    const client = clientFor('ffprobe');
    const video = await client.videos.create({ prompt: 'a decodable clip' });
    await advance(12_000);
    const mp4 = Buffer.from(await (await client.videos.downloadContent(video.id)).arrayBuffer());
    const dir = mkdtempSync(join(tmpdir(), 'mgm-mp4-'));
    try {
      writeFileSync(join(dir, 'clip.mp4'), mp4);
      const probe = spawnSync('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-of', 'json', join(dir, 'clip.mp4')], { encoding: 'utf8' });
      expect(probe.status).toBe(0);
      const stream = (JSON.parse(probe.stdout) as { streams: Array<Record<string, string>> }).streams[0]!;
      expect(stream.codec_name).toBe('h264');
      expect(Number(stream.nb_read_frames)).toBeGreaterThan(10);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 404 for an unknown video and 400 for an unknown variant', async () => {
    const client = clientFor('download-errors');
    expect(await client.videos.downloadContent('video_unknown').catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
    const video = await client.videos.create({ prompt: 'x' });
    const error = await client.videos.downloadContent(video.id, { variant: 'poster' as 'video' }).catch((e: unknown) => e);
    expect((error as BadRequestError).param).toBe('variant');
  });
});
