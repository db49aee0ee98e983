// The repo's own fixtures/images.yaml and fixtures/videos.yaml do what their comments and
// docs/images-videos.md say, through the openai SDK on a manual clock.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import OpenAI, { BadRequestError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures', import.meta.url));
const media = (name: string) => readFileSync(`${FIXTURES}/media/${name}`);

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({ fixtures: FIXTURES, watch: false, clock: 'manual' });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const advance = (ms: number) => server.advanceClock(ms);

describe('fixtures/images.yaml', () => {
  it('answers logo prompts with media/sample-image.png and refuses forbidden ones', async () => {
    const logo = await client.images.generate({ model: 'gpt-image-1', prompt: 'a logo for a bakery' });
    expect(Buffer.from(logo.data![0]!.b64_json!, 'base64').equals(media('sample-image.png'))).toBe(true);
    const refused = await client.images.generate({ model: 'gpt-image-1', prompt: 'something forbidden' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
  });
});

describe('fixtures/videos.yaml', () => {
  it('fails explosions at 40 % and serves the demo clip for sora-2 demos', async () => {
    const explosion = await client.videos.create({ model: 'sora-2', prompt: 'a huge explosion' });
    const demo = await client.videos.create({ model: 'sora-2', prompt: 'a demo of the product' });
    await advance(5000);
    expect(await client.videos.retrieve(explosion.id)).toMatchObject({ status: 'failed', progress: 40, error: { code: 'moderation_blocked' } });
    expect((await client.videos.retrieve(demo.id)).status).toBe('completed');
    const clip = Buffer.from(await (await client.videos.downloadContent(demo.id)).arrayBuffer());
    expect(clip.equals(media('sample.mp4'))).toBe(true);
  });

  it('moves "step by step" tasks one quarter per status read', async () => {
    const video = await client.videos.create({ model: 'sora-2', prompt: 'a plant growing, step by step' });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await client.videos.retrieve(video.id)).progress);
    expect(seen).toEqual([25, 50, 75, 100]);
  });
});
