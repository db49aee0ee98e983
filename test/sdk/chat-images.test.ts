// Image output through the chat styles: chat-completions with `extra_body.google.image_config`
// (openai SDK), generate-content with responseModalities IMAGE (@google/genai, and the Vercel AI
// SDK's Gemini image model), and the special-price group that may use only the former.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { GoogleGenAI } from '@google/genai';
import { generateImage } from 'ai';
import OpenAI, { BadRequestError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngSize, renderPng } from '../../src/media/png.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CATALOG = `
models:
  - { id: gpt-4o-mini, kind: chat }
  - { id: gemini-2.5-flash-image, kind: image }
  - { id: gemini-markdown-image, kind: image, chat_image_output: markdown }
keys:
  - { key: sk-default, group: default }
  - { key: sk-special, group: special-price }
chat:
  - name: captioned
    match: { contains: "with a caption" }
    reply: { text: "Here is your picture.", chat_image_output: markdown }
images:
  - name: house-style
    match: { contains: "house style" }
    reply: { file: house.png }
`;

const HOUSE = renderPng(40, 20, 'house style');

let server: TestServer;
let openai: OpenAI;

beforeAll(async () => {
  server = await startTestServer();
  // The picture first: a fixture naming a file that does not exist is refused at load.
  writeFileSync(join(server.fixturesDir, 'house.png'), HOUSE);
  await server.writeFixture('catalog.yaml', CATALOG);
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-default', maxRetries: 0 });
});
afterAll(() => server.close());

interface ImagePart {
  type: string;
  image_url: { url: string };
}

function dataUrlPng(url: string): Buffer {
  const match = /^data:image\/png;base64,(.+)$/.exec(url);
  expect(match).not.toBeNull();
  return Buffer.from(match![1]!, 'base64');
}

const imageConfig = (aspect_ratio: string, image_size: string) => ({ google: { image_config: { aspect_ratio, image_size } } });

describe('chat-completions image generation (openai SDK)', () => {
  it('answers message.images with a PNG of the size the image_config asks, and empty content', async () => {
    const completion = await openai.chat.completions.create({
      model: 'gemini-2.5-flash-image',
      messages: [{ role: 'user', content: 'a lighthouse in a storm' }],
      ...imageConfig('16:9', '1K'),
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const message = completion.choices[0]!.message as typeof completion.choices[0]['message'] & { images: ImagePart[] };
    expect(message.content).toBe('');
    expect(message.images).toHaveLength(1);
    expect(message.images[0]!.type).toBe('image_url');
    expect(pngSize(dataUrlPng(message.images[0]!.image_url.url))).toEqual({ width: 1344, height: 768 });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage!.completion_tokens).toBe(1290);
  });

  it('reads the same config under extra_body, and gives n different, repeatable pictures', async () => {
    const ask = () =>
      openai.chat.completions.create({
        model: 'gemini-2.5-flash-image',
        messages: [{ role: 'user', content: 'two kites' }],
        n: 2,
        extra_body: imageConfig('9:16', '2K'),
      } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const [first, second] = [await ask(), await ask()];
    const urls = (completion: OpenAI.ChatCompletion) =>
      completion.choices.map((choice) => (choice.message as unknown as { images: ImagePart[] }).images[0]!.image_url.url);
    expect(pngSize(dataUrlPng(urls(first)[0]!))).toEqual({ width: 1536, height: 2688 });
    expect(urls(first)[0]).not.toBe(urls(first)[1]);
    expect(urls(second)).toEqual(urls(first));
  });

  it('refuses n pictures that together pass one 4096x4096 picture of pixels, naming n', async () => {
    const error = await openai.chat.completions
      .create({ model: 'gemini-2.5-flash-image', messages: [{ role: 'user', content: 'kites' }], n: 128, extra_body: imageConfig('1:1', '4K') } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect([(error as BadRequestError).param, (error as BadRequestError).message]).toEqual(['n', expect.stringContaining('at most 16777216')]);
  });

  it('streams the picture in a delta, content staying empty', async () => {
    const stream = await openai.chat.completions.create({
      model: 'gemini-2.5-flash-image',
      messages: [{ role: 'user', content: 'a streamed picture' }],
      stream: true,
      ...imageConfig('1:1', '1K'),
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    let content = '';
    const images: ImagePart[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; images?: ImagePart[] } | undefined;
      content += delta?.content ?? '';
      images.push(...(delta?.images ?? []));
    }
    expect(content).toBe('');
    expect(images).toHaveLength(1);
    expect(pngSize(dataUrlPng(images[0]!.image_url.url))).toEqual({ width: 1024, height: 1024 });
  });

  it('puts the picture in content as Markdown for a model with chat_image_output: markdown, whole and streamed alike', async () => {
    const body = { model: 'gemini-markdown-image', messages: [{ role: 'user' as const, content: 'a markdown picture' }] };
    const whole = await openai.chat.completions.create(body);
    const content = whole.choices[0]!.message.content!;
    expect(content).toMatch(/^!\[image\]\(data:image\/png;base64,[A-Za-z0-9+/=]+\)$/);
    expect((whole.choices[0]!.message as unknown as { images?: unknown }).images).toBeUndefined();

    let streamed = '';
    for await (const chunk of await openai.chat.completions.create({ ...body, stream: true })) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(content);
  });

  it("keeps a fixture's text and follows its chat_image_output", async () => {
    const completion = await openai.chat.completions.create({
      model: 'gemini-2.5-flash-image',
      messages: [{ role: 'user', content: 'a boat with a caption' }],
    });
    const content = completion.choices[0]!.message.content!;
    expect(content.startsWith('Here is your picture.\n![image](data:image/png;base64,')).toBe(true);
  });

  it('answers the picture of an images fixture', async () => {
    const completion = await openai.chat.completions.create({
      model: 'gemini-2.5-flash-image',
      messages: [{ role: 'user', content: 'our house style banner' }],
    });
    const image = (completion.choices[0]!.message as unknown as { images: ImagePart[] }).images[0]!;
    expect(dataUrlPng(image.image_url.url).equals(HOUSE)).toBe(true);
  });

  it.each([
    [imageConfig('7:3', '1K'), 'google.image_config.aspect_ratio'],
    [imageConfig('16:9', '3K'), 'google.image_config.image_size'],
    [{ extra_body: imageConfig('16:9', '1k') }, 'extra_body.google.image_config.image_size'],
    [{ google: { imageConfig: { aspectRatio: '16:9' } } }, 'google.imageConfig'],
    [{ google: { image_config: { aspectRatio: '16:9' } } }, 'google.image_config.aspectRatio'],
  ])('refuses %j with a 400 naming %s', async (extra, field) => {
    const error = await openai.chat.completions
      .create({ model: 'gemini-2.5-flash-image', messages: [{ role: 'user', content: 'x' }], ...extra } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe(field);
  });

  it('lets the special-price group generate images here', async () => {
    const special = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-special', maxRetries: 0 });
    const completion = await special.chat.completions.create({
      model: 'gemini-2.5-flash-image',
      messages: [{ role: 'user', content: 'allowed here' }],
      ...imageConfig('1:1', '1K'),
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect((completion.choices[0]!.message as unknown as { images: ImagePart[] }).images).toHaveLength(1);
  });
});

describe('generate-content image generation (@google/genai)', () => {
  const genai = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: server.url } });

  it('answers an inlineData PNG sized by aspectRatio and imageSize', async () => {
    const response = await genai('sk-default').models.generateContent({
      model: 'gemini-2.5-flash-image',
      contents: 'a red bicycle',
      config: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '16:9', imageSize: '2K' } },
    });
    const parts = response.candidates![0]!.content!.parts!;
    const images = parts.filter((part) => part.inlineData);
    expect(images).toHaveLength(1);
    expect(images[0]!.inlineData!.mimeType).toBe('image/png');
    expect(pngSize(Buffer.from(images[0]!.inlineData!.data!, 'base64'))).toEqual({ width: 2688, height: 1536 });
    expect(parts.some((part) => part.text)).toBe(false);
  });

  it('streams the picture as an inlineData part, with no text for an IMAGE-only request', async () => {
    const stream = await genai('sk-default').models.generateContentStream({
      model: 'gemini-2.5-flash-image',
      contents: 'a streamed bicycle',
      config: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '3:2' } },
    });
    const parts = [];
    for await (const chunk of stream) parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    expect(parts.filter((part) => part.text)).toEqual([]);
    const images = parts.filter((part) => part.inlineData);
    expect(images).toHaveLength(1);
    expect(pngSize(Buffer.from(images[0]!.inlineData!.data!, 'base64'))).toEqual({ width: 1248, height: 832 });
  });

  it('puts a text part beside the picture when TEXT is asked too, and defaults to 1:1 at 1K', async () => {
    const response = await genai('sk-default').models.generateContent({
      model: 'gemini-2.5-flash-image',
      contents: 'a blue bicycle',
      config: { responseModalities: ['TEXT', 'IMAGE'] },
    });
    const parts = response.candidates![0]!.content!.parts!;
    expect(parts.filter((part) => part.text).length).toBeGreaterThan(0);
    const image = parts.find((part) => part.inlineData)!;
    expect(pngSize(Buffer.from(image.inlineData!.data!, 'base64'))).toEqual({ width: 1024, height: 1024 });
  });

  it('keeps pictures as inlineData parts for a model whose chat-completions output is Markdown', async () => {
    const response = await genai('sk-default').models.generateContent({
      model: 'gemini-markdown-image',
      contents: 'a green bicycle',
      config: { responseModalities: ['IMAGE'] },
    });
    const parts = response.candidates![0]!.content!.parts!;
    expect(parts.map((part) => (part.inlineData ? 'image' : 'text'))).toEqual(['image']);
  });

  it('refuses a bad aspect ratio with a 400', async () => {
    const error = await genai('sk-default')
      .models.generateContent({
        model: 'gemini-2.5-flash-image',
        contents: 'x',
        config: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '2:1' } },
      })
      .catch((e: unknown) => e);
    expect((error as { status: number }).status).toBe(400);
    expect((error as Error).message).toContain('aspect');
  });

  it('refuses candidates whose pictures together pass one 4096x4096 picture of pixels, naming candidateCount', async () => {
    const error = await genai('sk-default')
      .models.generateContent({
        model: 'gemini-2.5-flash-image',
        contents: 'x',
        config: { responseModalities: ['IMAGE'], candidateCount: 8, imageConfig: { aspectRatio: '16:9', imageSize: '4K' } },
      })
      .catch((e: unknown) => e);
    expect((error as { status: number }).status).toBe(400);
    expect((error as Error).message).toContain('generationConfig.candidateCount');
  });

  it('answers 403 to the special-price group, naming the chat-completions style', async () => {
    const error = await genai('sk-special')
      .models.generateContent({ model: 'gemini-2.5-flash-image', contents: 'not allowed here', config: { responseModalities: ['IMAGE'] } })
      .catch((e: unknown) => e);
    expect((error as { status: number }).status).toBe(403);
    expect((error as Error).message).toContain('chat-completions');
    expect((error as Error).message).toContain('PERMISSION_DENIED');
  });

  it('still lets the special-price group chat without pictures', async () => {
    const response = await genai('sk-special').models.generateContent({ model: 'gpt-4o-mini', contents: 'just text' });
    expect(response.text!.length).toBeGreaterThan(0);
  });
});

describe('the Vercel AI SDK Gemini image model', () => {
  it('generateImage gets a PNG of the aspect ratio asked', async () => {
    const google = createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'sk-default' });
    const result = await generateImage({ model: google.image('gemini-2.5-flash-image'), prompt: 'a tram', aspectRatio: '4:3', maxRetries: 0 });
    expect(result.image.mediaType).toBe('image/png');
    expect(pngSize(result.image.uint8Array)).toEqual({ width: 1184, height: 864 });
  });
});
