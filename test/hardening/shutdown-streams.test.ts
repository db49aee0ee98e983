// A shutdown ends every kind of stream still open in its door's own in-stream error, not only
// chat's: a streamed completion, image and speech are cut where they are, with the error event
// after the last event sent and without their closing events.
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.js';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

/** Opens a stream, shuts the server down once its headers arrived, and resolves with all it sent. */
async function cutByShutdown(path: string, body: unknown): Promise<string> {
  const server = await startTestServer({
    latency: 'realistic',
    fixtureFiles: { 'long.yaml': `chat:\n  - match: { contains: long }\n    reply: { text: "${words(200)}" }\n    stream: { first_chunk_ms: 0, chunk_ms: 200, chunk_by: word }\n` },
  });
  try {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = response.text();
    await server.shutdown(0);
    return await text;
  } finally {
    await server.close();
  }
}

const SHUTTING_DOWN = /data: \{"error":\{"message":"The mock is shutting down; retry once it is back\.","type":"server_error","param":null,"code":"overloaded"\}\}\n\n$/;

describe('a stream open at shutdown', () => {
  it('a completion ends in its error event, without its last words or [DONE]', async () => {
    const text = await cutByShutdown('/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'something long', stream: true });
    expect(text).toMatch(SHUTTING_DOWN);
    expect(text).not.toContain('word199');
    expect(text).not.toContain('[DONE]');
  });

  it('an image ends in its error event, without its completed event', async () => {
    const text = await cutByShutdown('/v1/images/generations', { model: 'gpt-image-1', prompt: 'a lighthouse', size: '128x96', n: 2, stream: true, partial_images: 3 });
    expect(text).toMatch(SHUTTING_DOWN);
    expect(text).not.toContain('image_generation.completed');
  });

  it('a speech ends in its error event, without its done event', async () => {
    const text = await cutByShutdown('/v1/audio/speech', { model: 'gpt-4o-mini-tts', voice: 'alloy', input: words(80), stream_format: 'sse' });
    expect(text).toMatch(SHUTTING_DOWN);
    expect(text).not.toContain('speech.audio.done');
  });
});
