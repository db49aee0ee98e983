// Stream pacing and chunking: the request header wins, then the fixture's `stream` block, then
// --latency; chunk_by decides what one streamed chunk holds.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pacingFor, REALISTIC } from '../../src/exchange/pacing.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('pacingFor', () => {
  const fixture = { firstChunkMs: 50, chunkMs: 5 };

  it('takes the request header first', () => {
    expect(pacingFor('none', fixture, 'realistic')).toEqual({ firstChunkMs: 0, chunkMs: 0 });
    expect(pacingFor('realistic', undefined, 'none')).toEqual(REALISTIC);
  });

  it('takes the fixture stream block over the flag, filling its gaps from the flag', () => {
    expect(pacingFor(undefined, fixture, 'none')).toEqual(fixture);
    expect(pacingFor(undefined, { chunkMs: 5 }, 'none')).toEqual({ firstChunkMs: 0, chunkMs: 5 });
    expect(pacingFor(undefined, { chunkMs: 5 }, 'realistic')).toEqual({ firstChunkMs: REALISTIC.firstChunkMs, chunkMs: 5 });
  });

  it('falls back to the flag', () => {
    expect(pacingFor(undefined, undefined, 'realistic')).toEqual(REALISTIC);
    expect(pacingFor(undefined, undefined, 'none')).toEqual({ firstChunkMs: 0, chunkMs: 0 });
  });
});

const TEXT = 'Streams come in pieces, héllo!';
const FIXTURES = ['token', 'word', 'char']
  .map((by) => `  - match: { contains: "by ${by}" }\n    reply: { text: "${TEXT}" }\n    stream: { chunk_by: ${by}, first_chunk_ms: 0, chunk_ms: 0 }\n`)
  .join('');

let server: TestServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chunks.yaml': `chat:\n${FIXTURES}` } });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
});
afterAll(() => server.close());

async function pieces(by: string): Promise<string[]> {
  const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: `by ${by}` }] });
  const out: string[] = [];
  for await (const chunk of stream) if (chunk.choices[0]?.delta.content) out.push(chunk.choices[0].delta.content);
  return out;
}

describe('chunk_by', () => {
  it('streams words with their leading space, characters one by one, and tokens between', async () => {
    const [byWord, byChar, byToken] = await Promise.all([pieces('word'), pieces('char'), pieces('token')]);
    for (const split of [byWord, byChar, byToken]) expect(split.join('')).toBe(TEXT);
    expect(byWord.slice(0, 3)).toEqual(['Streams', ' come', ' in']);
    expect(byChar).toEqual([...TEXT]);
    expect(byToken.length).toBeGreaterThan(byWord.length);
    expect(byToken.length).toBeLessThan(byChar.length);
  });
});
