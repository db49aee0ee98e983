// Videos made from videos, and characters, through the openai SDK as it calls them (remix as
// JSON, edits, extensions and characters as multipart), on a manual clock stepped through
// POST /__admin/clock.
import { readFileSync } from 'node:fs';
import OpenAI, { BadRequestError, NotFoundError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPng } from '../../src/media/png.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CLIP = readFileSync(new URL('../../fixtures/media/sample.mp4', import.meta.url));
const MODELS = `
models:
  - { id: sora-2, kind: video, timing: { queued_ms: 1000, run_ms: 4000 } }
`;

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({ clock: 'manual', fixtureFiles: { 'models.yaml': MODELS } });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'derived' } });
});
afterAll(() => server.close());

/** A completed video of `seconds` to derive from. */
async function completedVideo(seconds: '4' | '8' = '8'): Promise<OpenAI.Videos.Video> {
  const video = await client.videos.create({ prompt: 'a lighthouse at dusk', seconds, size: '720x1280' });
  await server.advanceClock(5000);
  return client.videos.retrieve(video.id);
}

describe('remix', () => {
  it('starts a new task carrying remixed_from_video_id, which progresses on the clock', async () => {
    const source = await completedVideo();
    const remix = await client.videos.remix(source.id, { prompt: 'the same lighthouse at dawn' });
    expect(remix).toMatchObject({
      object: 'video',
      status: 'queued',
      progress: 0,
      prompt: 'the same lighthouse at dawn',
      remixed_from_video_id: source.id,
      seconds: '8',
      size: '720x1280',
      model: 'sora-2',
    });
    expect(remix.id).not.toBe(source.id);
    await server.advanceClock(3000);
    expect((await client.videos.retrieve(remix.id)).status).toBe('in_progress');
    await server.advanceClock(2000);
    const done = await client.videos.retrieve(remix.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100, remixed_from_video_id: source.id });
  });

  it('refuses a source that is not completed (400) or unknown (404)', async () => {
    const running = await client.videos.create({ prompt: 'still rendering' });
    const early = await client.videos.remix(running.id, { prompt: 'too soon' }).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(BadRequestError);
    expect((early as Error).message).toContain('queued');
    expect(await client.videos.remix('video_unknown', { prompt: 'x' }).catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
    const empty = await client.videos.remix(running.id, { prompt: '' }).catch((e: unknown) => e);
    expect((empty as InstanceType<typeof BadRequestError>).param).toBe('prompt');
  });
});

describe('edit', () => {
  it('edits a completed video named by id, and an uploaded clip', async () => {
    const source = await completedVideo('4');
    const edited = await client.videos.edit({ prompt: 'make it snow', video: { id: source.id } });
    expect(edited).toMatchObject({ status: 'queued', prompt: 'make it snow', seconds: '4', size: '720x1280', remixed_from_video_id: null });
    const uploaded = await client.videos.edit({ prompt: 'make it rain', video: await toFile(CLIP, 'clip.mp4', { type: 'video/mp4' }) });
    expect(uploaded).toMatchObject({ status: 'queued', seconds: '3', model: 'sora-2' });
    await server.advanceClock(5000);
    expect((await client.videos.retrieve(uploaded.id)).status).toBe('completed');
  });

  it('refuses a file that is not a video, and a request without one, naming video', async () => {
    const picture = await client.videos.edit({ prompt: 'x', video: await toFile(renderPng(8, 8, 'x'), 'x.png') }).catch((e: unknown) => e);
    expect((picture as InstanceType<typeof BadRequestError>).param).toBe('video');
    const none = await client.videos.edit({ prompt: 'x' } as never).catch((e: unknown) => e);
    expect((none as InstanceType<typeof BadRequestError>).param).toBe('video');
  });
});

describe('extend', () => {
  it('answers the stitched total as seconds', async () => {
    const source = await completedVideo('8');
    const extended = await client.videos.extend({ prompt: 'and then the tide comes in', seconds: '4', video: { id: source.id } });
    expect(extended).toMatchObject({ status: 'queued', seconds: '12', size: '720x1280' });
    const fromClip = await client.videos.extend({ prompt: 'more', seconds: '8', video: await toFile(CLIP, 'clip.mp4', { type: 'video/mp4' }) });
    expect(fromClip.seconds).toBe('11');
  });

  it('names seconds when it is missing', async () => {
    const source = await completedVideo('4');
    const error = await client.videos.extend({ prompt: 'more', video: { id: source.id } } as never).catch((e: unknown) => e);
    expect((error as InstanceType<typeof BadRequestError>).param).toBe('seconds');
  });
});

describe('characters', () => {
  it('creates a character from footage and gets it back; an unknown one is 404', async () => {
    const created = await client.videos.createCharacter({ name: 'Captain Gull', video: await toFile(CLIP, 'gull.mp4', { type: 'video/mp4' }) });
    expect(created).toEqual({ id: expect.stringMatching(/^char_/), created_at: expect.any(Number), name: 'Captain Gull' });
    expect(await client.videos.getCharacter(created.id!)).toEqual(created);
    expect(await client.videos.getCharacter('char_unknown').catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
    const noName = await client.videos.createCharacter({ video: await toFile(CLIP, 'x.mp4') } as never).catch((e: unknown) => e);
    expect((noName as InstanceType<typeof BadRequestError>).param).toBe('name');
  });
});
