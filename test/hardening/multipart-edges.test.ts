// Multipart bodies as clients other than the SDKs write them: a file part without its own
// `Content-Type` (Python `requests` sends one so) is still the file, and an empty body is a 400
// naming the missing field in the door's envelope. A large file, given to the parser a chunk at a
// time, comes out byte for byte.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavHeader } from '../../src/media/audio/wav.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const BOUNDARY = 'edge-boundary';

async function transcribe(body: Buffer): Promise<{ status: number; json: Record<string, any> }> {
  const response = await fetch(`${server.url}/v1/audio/transcriptions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-test', 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

describe('multipart edges', () => {
  it('takes a file part without a Content-Type as the file', async () => {
    const samples = Buffer.alloc(48_000);
    const body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n`),
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="call.wav"\r\n\r\n`),
      wavHeader(samples.length),
      samples,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const answer = await transcribe(body);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(typeof answer.json.text).toBe('string');
  });

  it('answers an empty multipart body with a 400 naming the file', async () => {
    const answer = await transcribe(Buffer.alloc(0));
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ param: 'file', type: 'invalid_request_error' });
  });

  it('keeps a file of many parser chunks byte for byte, boundary-like bytes across chunk edges', async () => {
    const file = Buffer.alloc(1024 * 1024 + 7, 'f');
    // The parser is given 64 KB at a time: lookalikes of a boundary start just before each edge.
    for (let edge = 64 * 1024; edge < file.length; edge += 64 * 1024) file.write('\r\n--formdata-', edge - 5, 'latin1');
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const stored = await client.files.create({ file: await toFile(file, 'large.bin'), purpose: 'user_data' });
    expect(stored.bytes).toBe(file.length);
    expect(Buffer.from(await (await client.files.content(stored.id)).arrayBuffer()).equals(file)).toBe(true);
  });
});
