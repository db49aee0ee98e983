// Record and replay of embeddings, with no internet: one mock plays the upstream (seed 11), a
// second forwards and records, a third (another seed, so its own vectors differ) replays the
// recording: a recorded vector comes back exactly, in both encodings and through genai.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let upstream: TestServer;
let recorder: TestServer;
let recordDir: string;
const genai = (url: string) => new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: url } });
const input = ['Paris is the capital of France.', 'How do I reset my password?'];

beforeAll(async () => {
  upstream = await startTestServer({ seed: 11 });
  recordDir = mkdtempSync(join(tmpdir(), 'mgm-embeddings-recording-'));
  recorder = await startTestServer({ upstream: upstream.url, record: recordDir });
});
afterAll(async () => {
  await recorder.close();
  await upstream.close();
});

describe('recording embeddings', () => {
  it('forwards, writes one fixture per input, and replays the vectors exactly offline', async () => {
    const original = await openaiFor(upstream.url, 'r').embeddings.create({ model: 'text-embedding-3-small', input, dimensions: 64 });
    const relayed = await openaiFor(recorder.url, 'r').embeddings.create({ model: 'text-embedding-3-small', input, dimensions: 64 }).withResponse();
    expect(relayed.data.data.map((d) => d.embedding)).toEqual(original.data.map((d) => d.embedding));
    expect(relayed.response.headers.get('x-mock-source')).toBe('upstream');
    const gemini = await genai(recorder.url).models.embedContent({ model: 'text-embedding-004', contents: 'A title-less document.' });
    const files = readdirSync(recordDir).filter((file) => file.endsWith('.yaml')).sort();
    expect(files).toEqual([expect.stringMatching(/^embeddings-text-embedding-004-[0-9a-f]{8}\.yaml$/), expect.stringMatching(/^embeddings-text-embedding-3-small-[0-9a-f]{8}\.yaml$/)]);
    expect(readFileSync(join(recordDir, files[1]!), 'utf8')).toContain('# input 0: Paris is the capital of France.');

    const replay = await startTestServer({ seed: 99, fixtures: [recordDir] });
    try {
      const client = openaiFor(replay.url, 'r');
      const again = await client.embeddings.create({ model: 'text-embedding-3-small', input, dimensions: 64 }).withResponse();
      expect(again.data.data.map((d) => d.embedding)).toEqual(original.data.map((d) => d.embedding));
      expect(again.response.headers.get('x-mock-source')).toMatch(/^fixture:embeddings-text-embedding-3-small-/);
      const floats = await client.embeddings.create({ model: 'text-embedding-3-small', input: input[1]!, dimensions: 64, encoding_format: 'float' });
      expect(floats.data[0]!.embedding).toEqual(original.data[1]!.embedding);
      const geminiAgain = await genai(replay.url).models.embedContent({ model: 'text-embedding-004', contents: 'A title-less document.' });
      expect(geminiAgain.embeddings).toEqual(gemini.embeddings);
      // Another size than recorded is not the recording's to answer.
      const longer = await client.embeddings.create({ model: 'text-embedding-3-small', input: input[1]! });
      expect(longer.data[0]!.embedding).toHaveLength(1536);
    } finally {
      await replay.close();
    }
  });
});
