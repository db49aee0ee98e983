// The process's caches (pictures, speech, vectors, token memos, the journal's shared parts) count
// in the memory budget: health shows them, and under a small --memory-limit they give way to what
// the sessions keep, never the other way round.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { caches } from '../../src/conversation/caches.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Memory {
  journal: number;
  sessions: number;
  caches: number;
  total: number;
  cached: Record<string, number>;
}

const health = async (server: TestServer): Promise<Memory> => ((await (await server.admin('/health')).json()) as { memory: Memory }).memory;

/** Asks for a picture, a speech and embeddings no earlier request asked for (the caches are the process's). */
async function fillCaches(server: TestServer, session: string): Promise<void> {
  const fresh = randomUUID();
  const ask = async (path: string, body: unknown): Promise<void> => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', 'x-mock-session': session },
      body: JSON.stringify(body),
    });
    expect(response.status, `${path}: ${response.status}`).toBe(200);
    await response.arrayBuffer();
  };
  await ask('/v1/images/generations', { model: 'gpt-image-1', prompt: `a lighthouse ${fresh}`, size: '1024x1024' });
  await ask('/v1/audio/speech', { model: 'tts-1', voice: 'ash', input: `the tide comes in ${fresh}` });
  await ask('/v1/embeddings', { model: 'text-embedding-3-small', input: [`where is the harbour ${fresh}`, `a boat ${fresh}`] });
}

describe('the process caches in the memory budget', () => {
  it('are shown in health, by cache, and grow as requests fill them', async () => {
    const server = await startTestServer();
    try {
      // The caches are the process's and hold a bounded number of things: earlier tests in this
      // worker may have filled one to its count, where a new thing evicts an old one. Emptied
      // first, each must grow by what the requests below make.
      caches.fitIn(0);
      const before = await health(server);
      await fillCaches(server, 'fill');
      const after = await health(server);
      for (const cache of ['pictures', 'speech', 'vectors']) expect(after.cached[cache], cache).toBeGreaterThan(before.cached[cache]!);
      expect(after.caches).toBe(Object.values(after.cached).reduce((sum, bytes) => sum + bytes, 0));
      expect(after.caches).toBeGreaterThan(before.caches);
      expect(after.total).toBeGreaterThanOrEqual(after.journal + after.sessions + after.caches);
    } finally {
      await server.close();
    }
  });

  it('stay within a small --memory-limit, giving way to the sessions, whose journals are kept whole', async () => {
    const limit = 1024 * 1024;
    const server = await startTestServer({ memoryLimit: '1mb' });
    try {
      // Each speech is about 400 KB of WAV in the cache and a kilobyte in the journal: ten of them
      // would hold four times the limit.
      for (let i = 0; i < 10; i += 1) {
        const input = `${randomUUID()} `.repeat(20);
        const response = await fetch(`${server.url}/v1/audio/speech`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', 'x-mock-session': 'kept' },
          body: JSON.stringify({ model: 'tts-1', voice: 'ash', input, response_format: 'wav' }),
        });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        const memory = await health(server);
        expect(memory.total).toBeLessThanOrEqual(limit);
      }
      const { requests } = (await (await server.admin('/requests?session=kept')).json()) as { requests: unknown[] };
      expect(requests).toHaveLength(10);
    } finally {
      await server.close();
    }
  });
});
