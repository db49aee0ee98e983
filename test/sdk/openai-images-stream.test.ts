// The images endpoints' second half through the openai SDK: streams with partial images, JPEG and
// WebP output, variations, and the special-price group's 403 on every images route.
import jpeg from 'jpeg-js';
import OpenAI, { PermissionDeniedError, toFile } from 'openai';
import type { ImageEditStreamEvent, ImageGenStreamEvent } from 'openai/resources/images';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPng } from '../../src/media/png.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const KEYS = `
keys:
  - { key: sk-default, group: default }
  - { key: sk-special, group: special-price }
`;

let server: TestServer;
let client: OpenAI;
const clientFor = (key: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: key, maxRetries: 0 });

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'keys.yaml': KEYS } });
  client = clientFor('sk-default');
});
afterAll(() => server.close());

const bytes = (b64: string) => Buffer.from(b64, 'base64');
const pixels = (b64: string) => PNG.sync.read(bytes(b64));

/** Mean absolute difference of the colour channels of two same-sized RGBA pictures, 0..255. */
function distance(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 4) for (let c = 0; c < 3; c++) sum += Math.abs(a[i + c]! - b[i + c]!);
  return sum / ((a.length / 4) * 3);
}

describe('streamed images', () => {
  it('sends partial images, each a rougher rendering of the final picture, then the completed event with usage', async () => {
    const stream = await client.images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse', size: '128x96', stream: true, partial_images: 3 });
    const events: ImageGenStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'image_generation.partial_image',
      'image_generation.partial_image',
      'image_generation.partial_image',
      'image_generation.completed',
    ]);
    const partials = events.filter((event) => event.type === 'image_generation.partial_image');
    expect(partials.map((event) => event.partial_image_index)).toEqual([0, 1, 2]);
    const completed = events.at(-1) as Extract<ImageGenStreamEvent, { type: 'image_generation.completed' }>;
    expect(completed).toMatchObject({ size: '128x96', output_format: 'png', quality: 'high', background: 'opaque' });
    expect(completed.usage.total_tokens).toBe(completed.usage.input_tokens + completed.usage.output_tokens);
    const final = pixels(completed.b64_json);
    expect([final.width, final.height]).toEqual([128, 96]);
    const distances = partials.map((event) => {
      const partial = pixels(event.b64_json);
      expect([partial.width, partial.height]).toEqual([128, 96]);
      return distance(partial.data, final.data);
    });
    // Each preview is closer to the final picture than the one before, and none is it.
    expect(distances[0]).toBeGreaterThan(distances[1]!);
    expect(distances[1]).toBeGreaterThan(distances[2]!);
    expect(distances[2]).toBeGreaterThan(0);
    const whole = await client.images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse', size: '128x96' });
    expect(whole.data![0]!.b64_json).toBe(completed.b64_json);
  });

  it('streams an edit as image_edit events, with no partials when partial_images is 0', async () => {
    const image = await toFile(renderPng(64, 64, 'source'), 'source.png', { type: 'image/png' });
    const stream = await client.images.edit({ model: 'gpt-image-1', image, prompt: 'make it blue', size: '64x64', stream: true, partial_images: 0 });
    const events: ImageEditStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['image_edit.completed']);
    const completed = events[0] as Extract<ImageEditStreamEvent, { type: 'image_edit.completed' }>;
    expect(completed.usage.input_tokens_details.image_tokens).toBeGreaterThan(0);
    expect(pixels(completed.b64_json).width).toBe(64);
  });

  it('refuses partial_images beyond 3, naming the field', async () => {
    const error = await client.images.generate({ prompt: 'too many', stream: true, partial_images: 4 }).catch((e: unknown) => e);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('partial_images');
  });
});

describe('output formats', () => {
  it('answers real JPEG bytes, smaller at a lower output_compression', async () => {
    const at = async (compression: number) => {
      const response = await client.images.generate({ prompt: 'a harbour', size: '128x128', output_format: 'jpeg', output_compression: compression });
      expect(response.output_format).toBe('jpeg');
      return bytes(response.data![0]!.b64_json!);
    };
    const fine = await at(100);
    const coarse = await at(20);
    expect([...fine.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const decoded = jpeg.decode(fine);
    expect([decoded.width, decoded.height]).toEqual([128, 128]);
    expect(coarse.length).toBeLessThan(fine.length);
  });

  it('answers real WebP bytes, streamed partials in the same format', async () => {
    const stream = await client.images.generate({ prompt: 'a harbour', size: '64x64', output_format: 'webp', stream: true, partial_images: 1 });
    const events: ImageGenStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    for (const event of events) {
      expect(event.output_format).toBe('webp');
      const file = bytes(event.b64_json);
      expect([file.toString('latin1', 0, 4), file.toString('latin1', 8, 12)]).toEqual(['RIFF', 'WEBP']);
    }
  });

  it('refuses a transparent background in JPEG, naming background', async () => {
    const error = await client.images.generate({ prompt: 'x', output_format: 'jpeg', background: 'transparent' }).catch((e: unknown) => e);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('background');
  });
});

describe('variations', () => {
  it('answers n pictures of the size asked, which differ with the picture sent', async () => {
    const vary = async (seed: string) =>
      client.images.createVariation({ image: await toFile(renderPng(64, 64, seed), 'in.png', { type: 'image/png' }), n: 2, size: '256x256' });
    const first = await vary('one');
    expect(first.data).toHaveLength(2);
    expect(pixels(first.data![0]!.b64_json!).width).toBe(256);
    expect(first.data![0]!.b64_json).not.toBe(first.data![1]!.b64_json);
    const second = await vary('two');
    expect(second.data![0]!.b64_json).not.toBe(first.data![0]!.b64_json);
    expect((await vary('one')).data).toEqual(first.data);
  });

  it('refuses a file that is not a picture, naming image', async () => {
    const error = await client.images.createVariation({ image: await toFile(Buffer.from('not a picture'), 'x.png') }).catch((e: unknown) => e);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('image');
  });

  // Its body's schema is made at the first variation asked for, not when the server starts.
  it('refuses n past 10 and an unknown response_format as generations do, naming each', async () => {
    const image = () => toFile(renderPng(64, 64, 'x'), 'x.png', { type: 'image/png' });
    const asked = [
      [{ n: 11 }, 'n'],
      [{ response_format: 'png' }, 'response_format'],
    ] as const;
    for (const [fields, param] of asked) {
      const varied = await client.images.createVariation({ image: await image(), ...(fields as object) }).catch((e: unknown) => e);
      const generated = await client.images.generate({ model: 'gpt-image-1', prompt: 'x', ...(fields as object) }).catch((e: unknown) => e);
      expect(varied).toBeInstanceOf(OpenAI.BadRequestError);
      expect((varied as InstanceType<typeof OpenAI.BadRequestError>).param).toBe(param);
      expect((varied as Error).message).toBe((generated as Error).message);
    }
  });
});

describe('the special-price group', () => {
  it('gets 403 naming the chat-completions style from generations, edits and variations', async () => {
    const special = clientFor('sk-special');
    const image = () => toFile(renderPng(64, 64, 'x'), 'x.png', { type: 'image/png' });
    const attempts = [
      special.images.generate({ prompt: 'a cat' }),
      special.images.edit({ image: await image(), prompt: 'a cat' }),
      special.images.createVariation({ image: await image() }),
    ];
    for (const attempt of attempts) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect((error as Error).message).toContain('only through the chat-completions style (POST /v1/chat/completions with extra_body.google.image_config), not through POST /v1/images/');
      expect((error as InstanceType<typeof PermissionDeniedError>).code).toBe('image_generation_not_allowed');
    }
  });
});
