// The JSON form of an image edit at its door: pictures named by an uploaded file's id or a data
// URL (`images: [{ file_id | image_url }]`), each reference holding exactly one of the two.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer();
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'edits' } });
});
afterAll(() => server.close());

async function edit(body: object): Promise<{ status: number; json: Record<string, any> }> {
  const response = await fetch(`${server.url}/v1/images/edits`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', 'x-mock-session': 'edits' },
    body: JSON.stringify({ model: 'gpt-image-1', prompt: 'add a boat', ...body }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

describe('an image edit as JSON', () => {
  it('edits an uploaded file named by its id, as the same picture uploaded would be', async () => {
    const file = await client.files.create({ file: await toFile(PIXEL, 'pixel.png'), purpose: 'vision' });
    const named = await edit({ images: [{ file_id: file.id }] });
    expect(named.status).toBe(200);
    const uploaded = await client.images.edit({ model: 'gpt-image-1', prompt: 'add a boat', image: await toFile(PIXEL, 'pixel.png') });
    expect(named.json.data[0].b64_json).toBe(uploaded.data![0]!.b64_json);
  });

  it('refuses a reference with both or neither, an unknown file and a data URL that is no picture, naming the field', async () => {
    const both = await edit({ images: [{ image_url: `data:image/png;base64,${PIXEL.toString('base64')}`, file_id: 'file-x' }] });
    expect([both.status, both.json.error.param]).toEqual([400, 'images[0]']);
    const unknown = await edit({ images: [{ image_url: `data:image/png;base64,${PIXEL.toString('base64')}` }], mask: { file_id: 'file-missing' } });
    expect([unknown.status, unknown.json.error.param]).toEqual([404, 'mask.file_id']);
    const text = await edit({ images: [{ image_url: `data:image/png;base64,${Buffer.from('not a picture').toString('base64')}` }] });
    expect([text.status, text.json.error.param]).toEqual([400, 'images[0].image_url']);
    const none = await edit({});
    expect([none.status, none.json.error.param]).toEqual([400, 'images']);
  });
});
