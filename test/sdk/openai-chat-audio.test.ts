// Chat completions that ask for spoken output (`modalities: ["text", "audio"]`, `audio`) get the
// mock's speech of the reply in `message.audio`, with the reply's text as its transcript and no
// content beside it, whole and streamed through the SDK's stream helper; usage counts the speech's
// audio tokens apart from its transcript's, and the audio a prompt carries apart from its text.
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

  it('counts the speech as completion audio tokens, by its length, whole and streamed', async () => {
    const completion = await client.chat.completions.create({ ...asked, audio: { voice: 'alloy', format: 'wav' } });
    const wav = Buffer.from(completion.choices[0]!.message.audio!.data, 'base64');
    // 24 kHz mono 16-bit samples in the data chunk, at 10 audio tokens a second.
    const seconds = wav.readUInt32LE(wav.indexOf('data') + 4) / 48_000;
    const usage = completion.usage!;
    const details = usage.completion_tokens_details!;
    expect(details.audio_tokens).toBe(Math.ceil(seconds * 10));
    expect(details.audio_tokens).toBeGreaterThan(0);
    const text = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: asked.messages });
    expect(usage.completion_tokens).toBe(text.usage!.completion_tokens + details.audio_tokens!);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    const chunks = await client.chat.completions.create({ ...asked, audio: { voice: 'alloy', format: 'wav' }, stream: true, stream_options: { include_usage: true } });
    let streamed: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of chunks) streamed = chunk.usage ?? streamed;
    expect(streamed).toEqual(usage);
  });

  it('counts no audio tokens for a text answer, and the prompt audio apart from its text', async () => {
    const text = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: asked.messages });
    expect(text.usage!.completion_tokens_details!.audio_tokens).toBe(0);
    expect(text.usage!.prompt_tokens_details!.audio_tokens).toBe(0);
    const heard = await client.chat.completions.create({
      model: 'gpt-audio',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'say hello' }, { type: 'input_audio', input_audio: { data: Buffer.from('RIFF').toString('base64'), format: 'wav' } }] }],
    });
    const prompt = heard.usage!.prompt_tokens_details!;
    expect(prompt.audio_tokens).toBeGreaterThan(0);
    const unheard = await client.chat.completions.create({ model: 'gpt-audio', messages: [{ role: 'user', content: [{ type: 'text', text: 'say hello' }] }] });
    expect(heard.usage!.prompt_tokens).toBe(unheard.usage!.prompt_tokens + prompt.audio_tokens!);
  });

  it('refuses audio output without the audio parameter, naming it', async () => {
    await expect(client.chat.completions.create(asked)).rejects.toMatchObject({ status: 400, param: 'audio' });
  });
});
