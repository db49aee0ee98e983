// A fixture's media file is confined when it is served, not only at load: a hard link to an outside
// file, or a symlink swapped in after the video task exists, is a 4xx and a health error, never
// the outside file's bytes.
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/index.js';

const SAMPLES = join(import.meta.dirname, '..', '..', 'fixtures', 'media');
const SECRET = 'root:x:0:0:SECRET-OUTSIDE-THE-FIXTURES';

let server: MockServer;
let fixturesDir: string;
let client: OpenAI;
let outside: string;

beforeAll(async () => {
  outside = join(mkdtempSync(join(tmpdir(), 'mgm-outside-')), 'passwd');
  writeFileSync(outside, SECRET);
  fixturesDir = join(mkdtempSync(join(tmpdir(), 'mgm-confined-')), 'fixtures');
  mkdirSync(join(fixturesDir, 'media'), { recursive: true });
  writeFileSync(
    join(fixturesDir, 'media.yaml'),
    `videos:
  - name: clip
    match: { contains: clip }
    timing: { queued_ms: 0, run_ms: 0 }
    reply: { file: media/clip.mp4, thumbnail: media/thumb.webp }
images:
  - name: logo
    match: { contains: logo }
    reply: { file: media/logo.png }
`,
  );
  // The files are regular, single-named files inside the directory when the mock loads them.
  copyFileSync(join(SAMPLES, 'sample.mp4'), join(fixturesDir, 'media', 'clip.mp4'));
  copyFileSync(join(SAMPLES, 'sample-thumbnail.webp'), join(fixturesDir, 'media', 'thumb.webp'));
  copyFileSync(join(SAMPLES, 'sample-image.png'), join(fixturesDir, 'media', 'logo.png'));
  // No watcher: the swaps below must be caught when the file is served, not by a reload.
  server = await startMockServer({ fixtures: fixturesDir, scenarios: dirname(outside), watch: false });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const content = (id: string, variant = 'video') => fetch(`${server.url}/v1/videos/${id}/content?variant=${variant}`, { headers: { authorization: 'Bearer sk-test' } });
const healthErrors = async () => JSON.stringify(((await (await fetch(`${server.url}/__admin/health`)).json()) as { errors: unknown[] }).errors);

describe('files confined at serve time', () => {
  it('serves the file while it is what was loaded', async () => {
    const video = await client.videos.create({ model: 'sora-2', prompt: 'a clip of waves' });
    const answer = await content(video.id);
    expect(answer.status).toBe(200);
    expect((await answer.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it('never serves a hard link to an outside file', async () => {
    const video = await client.videos.create({ model: 'sora-2', prompt: 'a clip of rain' });
    const clip = join(fixturesDir, 'media', 'clip.mp4');
    rmSync(clip);
    linkSync(outside, clip);
    const answer = await content(video.id);
    const text = await answer.text();
    expect(answer.status).toBe(403);
    expect(text).not.toContain('SECRET');
    expect(JSON.parse(text).error.code).toBe('file_refused');
    expect(await healthErrors()).toMatch(/hard links/);
    // A task asked for while the link is there is refused too, as a client error.
    const refused = await client.videos.create({ model: 'sora-2', prompt: 'a clip of hail' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
  });

  it('never follows a symlink swapped in after the task exists', async () => {
    const clip = join(fixturesDir, 'media', 'clip.mp4');
    rmSync(clip);
    copyFileSync(join(SAMPLES, 'sample.mp4'), clip);
    const video = await client.videos.create({ model: 'sora-2', prompt: 'a clip of snow' });
    const thumb = join(fixturesDir, 'media', 'thumb.webp');
    rmSync(thumb);
    symlinkSync(outside, thumb);
    const answer = await content(video.id, 'thumbnail');
    expect(answer.status).toBe(403);
    expect(await answer.text()).not.toContain('SECRET');
    expect(await healthErrors()).toMatch(/links outside/);
  });

  it('never serves an images fixture file swapped for a link out', async () => {
    const logo = join(fixturesDir, 'media', 'logo.png');
    rmSync(logo);
    symlinkSync(outside, logo);
    const error = await client.images.generate({ model: 'gpt-image-1', prompt: 'our logo' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(String((error as Error).message)).not.toContain('SECRET');
  });
});
