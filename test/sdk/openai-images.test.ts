// The images endpoints through the official openai SDK and the Vercel AI SDK's image helper.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { generateImage } from 'ai';
import OpenAI, { BadRequestError, InternalServerError, NotFoundError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngSize, renderPng } from '../../src/media/png.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
images:
  - name: brand-logo
    match: { contains: "logo" }
    reply: { file: media/logo.png }
  - name: refused
    match: { contains: "forbidden" }
    reply: { error: invalid_request, message: "Your prompt was rejected by the safety system." }
  - name: busy
    match: { model: "gpt-image-1", contains: "busy" }
    reply: { error: overloaded }
`;

const LOGO = renderPng(48, 32, 'logo');

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer();
  // The picture first: a fixture naming a file that does not exist is refused at load.
  mkdirSync(join(server.fixturesDir, 'media'));
  writeFileSync(join(server.fixturesDir, 'media/logo.png'), LOGO);
  await server.writeFixture('images.yaml', FIXTURES);
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const decode = (b64: string | undefined) => Buffer.from(b64 ?? '', 'base64');

describe('images.generate', () => {
  it('answers n PNGs of exactly the size asked, different from each other, the same on every run', async () => {
    const ask = () => client.images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse at dusk', n: 2, size: '1536x1024' });
    const first = await ask();
    const second = await ask();
    expect(first.data).toHaveLength(2);
    const [a, b] = first.data!.map((image) => decode(image.b64_json));
    expect(pngSize(a!)).toEqual({ width: 1536, height: 1024 });
    expect(pngSize(b!)).toEqual({ width: 1536, height: 1024 });
    expect(a!.equals(b!)).toBe(false);
    expect(second.data!.map((image) => image.b64_json)).toEqual(first.data!.map((image) => image.b64_json));
    expect(first.size).toBe('1536x1024');
    expect(first.output_format).toBe('png');
  });

  it('reports usage with text and image token details that add up', async () => {
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'a red fox in the snow' });
    const usage = result.usage!;
    expect(usage.input_tokens_details.text_tokens).toBeGreaterThan(0);
    expect(usage.input_tokens_details.image_tokens).toBe(0);
    expect(usage.input_tokens).toBe(usage.input_tokens_details.text_tokens);
    expect(usage.output_tokens).toBe(4160);
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
    expect(typeof result.created).toBe('number');
  });

  it('gives another picture for another prompt, and uses the first image model when none is named', async () => {
    const fox = await client.images.generate({ prompt: 'a fox', size: '256x256' } as OpenAI.ImageGenerateParamsNonStreaming);
    const owl = await client.images.generate({ prompt: 'an owl', size: '256x256' } as OpenAI.ImageGenerateParamsNonStreaming);
    expect(pngSize(decode(fox.data![0]!.b64_json))).toEqual({ width: 256, height: 256 });
    expect(fox.data![0]!.b64_json).not.toBe(owl.data![0]!.b64_json);
  });

  it('answers a url the mock serves, without a key, when response_format is url', async () => {
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'a teapot', size: '512x512', response_format: 'url' });
    const url = result.data![0]!.url!;
    expect(url.startsWith(`${server.url}/v1/images/files/`)).toBe(true);
    expect(result.data![0]!.b64_json).toBeUndefined();
    const picture = await fetch(url);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(pngSize(new Uint8Array(await picture.arrayBuffer()))).toEqual({ width: 512, height: 512 });
    const gone = await fetch(url.replace(/img_[0-9a-f]+/, 'img_0000'));
    expect(gone.status).toBe(404);
  });

  it('refuses a bad size with a 400 naming size', async () => {
    const error = await client.images.generate({ model: 'gpt-image-1', prompt: 'x', size: '1024x9999' as '1024x1024' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe('size');
  });

  it('refuses a missing prompt, a bad n and a chat model, naming each field', async () => {
    const attempts: Array<[Record<string, unknown>, string]> = [
      [{ model: 'gpt-image-1' }, 'prompt'],
      [{ model: 'gpt-image-1', prompt: 'x', n: 0 }, 'n'],
      [{ model: 'gpt-image-1', prompt: 'x', n: 11 }, 'n'],
      [{ model: 'gpt-4o-mini', prompt: 'x' }, 'model'],
    ];
    for (const [body, field] of attempts) {
      const error = await client.images.generate(body as unknown as OpenAI.ImageGenerateParamsNonStreaming).catch((e: unknown) => e);
      expect(error, field).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).param).toBe(field);
    }
    const unknown = await client.images.generate({ model: 'no-such-image-model', prompt: 'x' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
  });

  it('bounds n × size: the pictures of one answer hold at most one 4096x4096 picture of pixels', async () => {
    const image = await toFile(renderPng(64, 64, 'to edit'), 'in.png', { type: 'image/png' });
    const refusals = [
      () => client.images.generate({ model: 'gpt-image-1', prompt: 'x', n: 2, size: '4096x4096' as '1024x1024' }),
      () => client.images.edit({ model: 'gpt-image-1', image, prompt: 'x', n: 10, size: '2048x2048' as '1024x1024' }),
      () => client.images.createVariation({ image, n: 5, size: '4096x2048' as '1024x1024' }),
    ];
    for (const refused of refusals) {
      const error = await refused().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect([(error as BadRequestError).param, (error as BadRequestError).message]).toEqual(['n', expect.stringContaining('at most 16777216')]);
    }
    const widest = await client.images.generate({ model: 'gpt-image-1', prompt: 'ten at once', n: 10, size: '1536x1024' });
    expect(widest.data).toHaveLength(10);
  });

  it('answers an images fixture with its file, and its error in the OpenAI envelope', async () => {
    const logo = await client.images.generate({ model: 'gpt-image-1', prompt: 'our company logo', n: 2 });
    expect(logo.data!.map((image) => decode(image.b64_json).equals(LOGO))).toEqual([true, true]);
    expect(logo.size).toBe('48x32');

    const refused = await client.images.generate({ model: 'gpt-image-1', prompt: 'something forbidden' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).message).toContain('rejected by the safety system');

    const busy = await client.images.generate({ model: 'gpt-image-1', prompt: 'busy busy' }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(InternalServerError);
    expect((busy as InternalServerError).status).toBe(503);
  });
});

describe('images.edit', () => {
  it('edits an uploaded picture into PNGs of the size asked', async () => {
    const image = await toFile(renderPng(64, 64, 'input'), 'input.png', { type: 'image/png' });
    const result = await client.images.edit({ model: 'gpt-image-1', image, prompt: 'add a hat', size: '1024x1536', n: 2 });
    expect(result.data).toHaveLength(2);
    expect(pngSize(decode(result.data![0]!.b64_json))).toEqual({ width: 1024, height: 1536 });
    expect(result.data![0]!.b64_json).not.toBe(result.data![1]!.b64_json);
    expect(result.usage!.input_tokens_details.image_tokens).toBeGreaterThan(0);
  });

  it('takes several pictures (image[]) and a mask', async () => {
    const image = [
      await toFile(renderPng(32, 32, 'a'), 'a.png', { type: 'image/png' }),
      await toFile(renderPng(32, 32, 'b'), 'b.png', { type: 'image/png' }),
    ];
    const mask = await toFile(renderPng(32, 32, 'mask'), 'mask.png', { type: 'image/png' });
    const result = await client.images.edit({ model: 'gpt-image-1', image, mask, prompt: 'merge them', size: '256x256' });
    expect(pngSize(decode(result.data![0]!.b64_json))).toEqual({ width: 256, height: 256 });
    expect(result.usage!.input_tokens_details.image_tokens).toBe(2 * 323);
  });

  it('refuses a file that is not a picture, and a bad mask, naming the field', async () => {
    const text = await toFile(Buffer.from('not a picture at all'), 'fake.png', { type: 'image/png' });
    const error = await client.images.edit({ model: 'gpt-image-1', image: text, prompt: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe('image');

    const image = await toFile(renderPng(16, 16, 'ok'), 'ok.png', { type: 'image/png' });
    const badMask = await client.images.edit({ model: 'gpt-image-1', image, mask: text, prompt: 'x' }).catch((e: unknown) => e);
    expect((badMask as BadRequestError).param).toBe('mask');
  });

  it('refuses an edit without a picture or without a prompt', async () => {
    const form = new FormData();
    form.append('prompt', 'x');
    const missing = await fetch(`${server.url}/v1/images/edits`, { method: 'POST', headers: { authorization: 'Bearer sk-test' }, body: form });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { param: string } }).error.param).toBe('image');

    const image = await toFile(renderPng(16, 16, 'ok'), 'ok.png', { type: 'image/png' });
    const noPrompt = await client.images.edit({ image } as OpenAI.ImageEditParamsNonStreaming).catch((e: unknown) => e);
    expect((noPrompt as BadRequestError).param).toBe('prompt');
  });
});

describe('the raw endpoint', () => {
  it('takes the path with a trailing slash, as the gateway description writes it', async () => {
    const response = await fetch(`${server.url}/v1/images/generations/`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'a kite', size: '64x64' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Array<{ b64_json: string }> };
    expect(pngSize(decode(body.data[0]!.b64_json))).toEqual({ width: 64, height: 64 });
  });

  it('needs a key', async () => {
    const response = await fetch(`${server.url}/v1/images/generations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'a kite' }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });
});

describe('the Vercel AI SDK', () => {
  const openai = () => createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' });

  it('generateImage reads the pictures', async () => {
    const result = await generateImage({ model: openai().image('gpt-image-1'), prompt: 'a paper boat', n: 2, size: '1024x1024', maxRetries: 0 });
    expect(result.images).toHaveLength(2);
    expect(result.images[0]!.mediaType).toBe('image/png');
    expect(pngSize(result.images[0]!.uint8Array)).toEqual({ width: 1024, height: 1024 });
    expect(result.images[0]!.base64).not.toBe(result.images[1]!.base64);
  });

  it('generateImage edits a picture through the multipart endpoint', async () => {
    const result = await generateImage({
      model: openai().image('gpt-image-1'),
      prompt: { text: 'make it blue', images: [renderPng(32, 32, 'source')] },
      size: '512x512',
      maxRetries: 0,
    });
    expect(pngSize(result.image.uint8Array)).toEqual({ width: 512, height: 512 });
  });
});
