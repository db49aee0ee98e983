// A start builds no request schema of a style or endpoint it has not served: each is made at the
// first request that needs it, which is answered as before, and kept for the next. zod's makers are
// counted by the module that called them.
import { describe, expect, it, vi } from 'vitest';

const made = vi.hoisted(() => [] as string[]);

vi.mock('zod', async (importOriginal) => {
  const zod = await importOriginal<Record<string, unknown>>();
  const counted = (make: (...args: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]) {
      // The frame that called zod's maker (under vitest a module's imports run inside its own frame).
      made.push((new Error().stack ?? '').split('\n')[2] ?? '');
      return make.apply(this, args);
    };
  return Object.fromEntries(
    Object.entries(zod).map(([name, value]) => [name, typeof value === 'function' && /^[a-z]/.test(name) ? counted(value as (...args: unknown[]) => unknown) : value]),
  );
});

const LAZY = [
  'styles/responses/schema.ts',
  'styles/moderations/index.ts',
  'styles/generate-content/embed.ts',
  'styles/audio/speech-request.ts',
  'styles/rerank/index.ts',
  'styles/ollama/embed.ts',
  'styles/embeddings/openai.ts',
  'exchange/files.ts',
  'exchange/image-references.ts',
  'exchange/message-batches.ts',
  'exchange/stored-responses.ts',
  'exchange/videos.ts',
  'exchange/batches.ts',
  'exchange/admin/clock.ts',
  'exchange/admin/scenario.ts',
  'exchange/admin/sessions.ts',
  'conversation/transcription-fixture.ts',
  'styles/form.ts',
];

const madeIn = (file: string) => made.filter((caller) => caller.includes(file)).length;

describe('request schemas', () => {
  it('are not made as a start loads the styles, the routes and the configuration', async () => {
    await import('../../src/mock-app.js');
    await import('../../src/config/schema.js');
    for (const file of LAZY) expect(madeIn(file), file).toBe(0);
  });

  it('are made at the first request that needs them, which is answered as before, and kept', async () => {
    const { responses } = await import('../../src/styles/responses/index.js');
    const { decodeModeration } = await import('../../src/styles/moderations/index.js');
    const decodeResponses = (input: unknown) =>
      responses.decode({ body: { model: 'o4-mini', input }, query: {}, headers: {}, params: {} }, { storedTurns: () => undefined });

    const request = decodeResponses([{ role: 'user', content: [{ type: 'input_text', text: 'hello' }] }]);
    expect(request.turns.at(-1)).toMatchObject({ role: 'user' });
    const first = madeIn('styles/responses/schema.ts');
    expect(first).toBeGreaterThan(0);
    expect(() => decodeResponses([{ type: 'function_call', call_id: '', name: 'f', arguments: '{}' }])).toThrow(/input\[0\]\.call_id/);
    // The body's schema is kept; only a field's choice of schema by its value is made per request.
    expect(madeIn('styles/responses/schema.ts') - first).toBeLessThan(first / 10);

    expect(decodeModeration({ input: ['a', 'b'] }).inputs).toHaveLength(2);
    expect(() => decodeModeration({ input: 7 })).toThrow(/input/);
    expect(madeIn('styles/moderations/index.ts')).toBeGreaterThan(0);
  });
});
