// The audio routes in the usual frame: keys, scenarios, x-mock-source, CORS, the body limit,
// and the fixture listing.
import OpenAI, { RateLimitError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    bodyLimit: '64kb',
    fixtureFiles: {
      'keys.yaml': 'keys:\n  - key: sk-audio\n',
      'transcriptions.yaml': 'transcriptions:\n  - name: any-wav\n    match: { file_name: "*.wav" }\n    reply: { text: "pinned" }\n',
    },
    scenarioFiles: { 'limit.yaml': 'scenarios:\n  - name: rate_limit\n    steps: [ { error: rate_limit, headers: { retry-after: "1" } } ]\n' },
  });
});
afterAll(() => server.close());

const client = (key = 'sk-audio', headers: Record<string, string> = {}) =>
  new OpenAI({ baseURL: `${server.url}/v1`, apiKey: key, maxRetries: 0, defaultHeaders: headers });

describe('the audio routes in the frame', () => {
  it('refuses an unknown key with 401 and answers a known one, naming the source', async () => {
    await expect(client('sk-nobody').audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hi' })).rejects.toMatchObject({ status: 401 });
    const response = await client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hi', response_format: 'wav' });
    expect(response.headers.get('x-mock-source')).toBe('generated');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('takes scenario steps in the chat-completions envelope', async () => {
    const error = await client('sk-audio', { 'x-mock-scenario': 'rate_limit' })
      .audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers.get('retry-after')).toBe('1');
  });

  it('names the fixture that answered a transcription, and lists it among the fixtures', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(2000)]), 'room.wav');
    form.append('model', 'whisper-1');
    const response = await fetch(`${server.url}/v1/audio/transcriptions`, { method: 'POST', body: form, headers: { authorization: 'Bearer sk-audio' } });
    expect(response.headers.get('x-mock-source')).toBe('fixture:any-wav');
    expect(await response.json()).toMatchObject({ text: 'pinned' });
    const listed = (await (await fetch(`${server.url}/__admin/fixtures`)).json()) as { fixtures: Array<{ name: string; section: string }> };
    expect(listed.fixtures).toContainEqual(expect.objectContaining({ name: 'any-wav', section: 'transcriptions' }));
  });

  it('answers an upload over the body limit with 413', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(128 * 1024)]), 'long.wav');
    form.append('model', 'whisper-1');
    const response = await fetch(`${server.url}/v1/audio/transcriptions`, { method: 'POST', body: form, headers: { authorization: 'Bearer sk-audio' } });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('limit');
  });
});
