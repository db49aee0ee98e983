// FLAC speeches asked together on a cold server: each is answered, and each decodes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasFfprobe, probe } from '../helpers/audio.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('FLAC speeches started together', () => {
  it.skipIf(!hasFfprobe)('answers each, as a file a decoder plays for its length', async () => {
    const inputs = Array.from({ length: 6 }, (_, i) => `speech number ${i} ${'word '.repeat(i + 1)}`.trim());
    const answers = await Promise.all(
      inputs.map((input) =>
        fetch(`${server.url}/v1/audio/speech`, {
          method: 'POST',
          headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input, response_format: 'flac' }),
        }),
      ),
    );
    const files = await Promise.all(answers.map(async (answer) => ({ status: answer.status, data: new Uint8Array(await answer.arrayBuffer()) })));
    files.forEach(({ status, data }, i) => {
      expect(status).toBe(200);
      const heard = probe(data, 'flac');
      expect(heard.codec).toBe('flac');
      expect(heard.seconds).toBeCloseTo(inputs[i]!.split(' ').length * 0.4, 1);
    });
  });
});
