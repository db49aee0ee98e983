// The messages, bedrock converse and ollama styles' text spans are serialized from a mold made once
// per block index (and, for ollama, per model and route, its time a hole): stream after stream of
// different ids, times and models, each chunk's JSON must be what a whole serialization of its
// data gives.
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/conversation/token-chunks.js';
import type { Reply } from '../../src/conversation/types.js';
import type { ChatStyle } from '../../src/styles/style.js';
import { bedrock } from '../../src/styles/bedrock/index.js';
import { messages } from '../../src/styles/messages/index.js';
import { ollama } from '../../src/styles/ollama/index.js';

const TEXT = 'A parcel that arrives "damaged" is handled in four steps \\ naïvely.';
const REASONING = 'Think "twice".';

function replyOf(id: string, model: string, createdMs: number): Reply {
  const choice = { text: TEXT, reasoning: REASONING, toolCalls: [], images: [], finishReason: 'stop', textChunks: chunkText(TEXT, 'token'), reasoningChunks: chunkText(REASONING, 'token') };
  return { id, model, createdMs, pacing: { firstChunkMs: 0, chunkMs: 0 }, usage: { inputTokens: 10, outputTokens: 25, reasoningTokens: 3, cachedTokens: 0 }, choices: [choice] } as unknown as Reply;
}

const user = [{ role: 'user', content: 'hi' }];
const CASES: Array<[string, ChatStyle, (model: string) => { body: Record<string, unknown>; params: Record<string, string> }]> = [
  ['messages', messages, (model) => ({ body: { model, max_tokens: 100, messages: user, stream: true }, params: {} })],
  ['bedrock converse', bedrock, (model) => ({ body: { messages: [{ role: 'user', content: [{ text: 'hi' }] }] }, params: { modelId: model, operation: 'converse-stream' } })],
  ['ollama chat', ollama, (model) => ({ body: { model, messages: user, stream: true, think: true }, params: {} })],
  ['ollama generate', ollama, (model) => ({ body: { model, prompt: 'hi', stream: true, think: true }, params: {} })],
];

describe('molded text spans', () => {
  it.each(CASES)('serialize as their data, stream after stream (%s)', (_, style, asked) => {
    for (const [id, model, createdMs] of [['abc', 'claude-haiku-4-5', 1_700_000_000_000], ['def"\\', 'claude-sonnet-4-5', 1_800_000_123_456], ['abc', 'claude-haiku-4-5', 1_700_000_000_000]] as const) {
      const { body, params } = asked(model);
      const request = style.decode({ body, query: {}, headers: {}, params }, { storedTurns: () => undefined });
      const events = style.events(replyOf(id, model, createdMs), request);
      const molded = events.filter((event) => event.json !== undefined);
      // Every piece of the text (and ollama's thinking) is a chunk of a span.
      expect(molded.length).toBeGreaterThanOrEqual(chunkText(TEXT, 'token').length);
      for (const event of events) expect(event.json ?? JSON.stringify(event.data)).toBe(JSON.stringify(event.data));
      expect(molded.map((event) => JSON.stringify(event.data)).join('')).toContain(JSON.stringify(chunkText(TEXT, 'token')[1]));
    }
  });
});
