// A chat-completions stream's text and reasoning chunks are serialized from a mold made once per
// model, its holes the stream's id and time: stream after stream, each chunk's JSON must be what
// a whole serialization of its data gives, with the wire's keys in the wire's order.
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/conversation/token-chunks.js';
import type { Reply } from '../../src/conversation/types.js';
import { chatCompletions } from '../../src/styles/chat-completions/index.js';

const TEXT = 'A parcel that arrives "damaged" is handled in four steps \\ naïvely.';

function replyOf(id: string, createdMs: number, finishReason: string): Reply {
  const choice = (text: string) => ({ text, reasoning: 'Think "twice".', toolCalls: [], images: [], finishReason, textChunks: chunkText(text, 'token'), reasoningChunks: chunkText('Think "twice".', 'token') });
  return { id, model: 'gpt-4o-mini', createdMs, pacing: { firstChunkMs: 0, chunkMs: 0 }, usage: { inputTokens: 10, outputTokens: 25, reasoningTokens: 3, cachedTokens: 0 }, choices: [choice(TEXT), choice('Second.')] } as unknown as Reply;
}

const KEYS = ['id', 'object', 'created', 'model', 'service_tier', 'system_fingerprint', 'choices'];

describe('chat-completions chunks', () => {
  it.each([
    ['plain', {}],
    ['with usage, another tier', { stream_options: { include_usage: true }, service_tier: 'flex' }],
  ])('serialize as their data, stream after stream of one model (%s)', (_, extra) => {
    const request = chatCompletions.decode({ body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true, n: 2, ...extra }, query: {}, headers: {}, params: {} }, { storedTurns: () => undefined });
    const withUsage = 'stream_options' in extra;
    for (const [id, createdMs, finish] of [['abc', 1_700_000_000_000, 'stop'], ['def"\\', 1_800_000_123_456, 'refusal'], ['abc', 1_700_000_000_000, 'stop']] as const) {
      const events = chatCompletions.events(replyOf(id, createdMs, finish), request);
      const chunks = events.filter((event) => typeof event.data === 'object' && (event.data as { choices: unknown[] }).choices.length > 0);
      expect(chunks.length).toBeGreaterThan(10);
      for (const event of chunks) {
        expect(event.json ?? JSON.stringify(event.data)).toBe(JSON.stringify(event.data));
        expect(Object.keys(event.data as object)).toEqual(withUsage ? [...KEYS, 'usage'] : KEYS);
        expect(event.data).toMatchObject({ id: `chatcmpl-${id}`, created: Math.floor(createdMs / 1000) });
      }
      // Each choice's opening chunk comes with its JSON made from its mold, the first write's text.
      const openings = chunks.filter((event) => (event.data as { choices: Array<{ delta: { role?: string } }> }).choices[0]!.delta.role === 'assistant');
      expect(openings.length).toBe(2);
      expect(openings.every((event) => event.json !== undefined)).toBe(finish === 'stop');
    }
  });
});
