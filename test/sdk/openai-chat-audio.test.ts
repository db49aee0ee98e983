// Chat completions that ask for spoken output (`modalities: ["text", "audio"]`, `audio`) get the
// mock's speech of the reply in `message.audio`, with the reply's text as its transcript and no
// content beside it, whole and streamed through the SDK's stream helper.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: { 'spoken.yaml': 'chat:\n  - match: { contains: "say hello" }\n    reply: { text: "Hello there, friend." }\n' },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const asked = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'say hello' }], modalities: ['text' as const, 'audio' as const] };

describe('chat completions with audio output', () => {
  it('answers with speech of the reply and its transcript', async () => {
    const completion = await client.chat.completions.create({ ...asked, audio: { voice: 'alloy', format: 'wav' } });
    const message = completion.choices[0]!.message;
    expect(message.content).toBeNull();
    expect(message.audio).toMatchObject({ id: expect.stringMatching(/^audio_/), transcript: 'Hello there, friend.', expires_at: expect.any(Number) });
    expect(Buffer.from(message.audio!.data, 'base64').subarray(0, 4).toString()).toBe('RIFF');
  });

  it('streams the transcript and the audio, joined by the stream helper', async () => {
    const stream = client.chat.completions.stream({ ...asked, audio: { voice: { id: 'voice_custom' }, format: 'mp3' } });
    const final = await stream.finalChatCompletion();
    const audio = final.choices[0]!.message.audio!;
    expect(audio.transcript).toBe('Hello there, friend.');
    expect(Buffer.from(audio.data, 'base64').length).toBeGreaterThan(100);
  });

  it('refuses audio output without the audio parameter, naming it', async () => {
    await expect(client.chat.completions.create(asked)).rejects.toMatchObject({ status: 400, param: 'audio' });
  });
});
