// The writer reads a style's stream as parts, a run of chunks as one span made chunk by chunk as
// it comes due; every style that gives parts must put on the wire, and journal, exactly what its
// whole list of events gives, paced or not, with each stream fault.
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { MockError } from '../../src/conversation/errors.js';
import type { Fault, Framing, Plan } from '../../src/conversation/plan.js';
import { chunkText } from '../../src/conversation/token-chunks.js';
import type { Reply } from '../../src/conversation/types.js';
import { planReply } from '../../src/exchange/chat.js';
import type { MockState } from '../../src/server/state.js';
import { write } from '../../src/server/writer.js';
import { azureOpenai } from '../../src/styles/azure-openai/index.js';
import { bedrock } from '../../src/styles/bedrock/index.js';
import { chatCompletions } from '../../src/styles/chat-completions/index.js';
import { messages } from '../../src/styles/messages/index.js';
import { ollama } from '../../src/styles/ollama/index.js';
import { openrouter } from '../../src/styles/openrouter/index.js';
import type { ChatStyle, StyleInput } from '../../src/styles/style.js';
import { vertex } from '../../src/styles/vertex/index.js';
import { contextFor, FakeResponse } from '../helpers/fake-response.js';

const TEXT = 'A parcel that arrives "damaged" is handled in four steps, naïvely \\ and none needs a call.';
const user = [{ role: 'user', content: 'Where is my parcel?' }];

const DOORS: Array<[string, ChatStyle, Partial<StyleInput>, Framing]> = [
  ['chat-completions', chatCompletions, { body: { model: 'gpt-4o-mini', messages: user, stream: true, stream_options: { include_usage: true } } }, 'sse'],
  ['azure', azureOpenai, { body: { messages: user, stream: true }, params: { deployment: 'gpt-4o-mini' }, query: { 'api-version': '2024-10-21' } }, 'sse'],
  ['openrouter', openrouter, { body: { model: 'openai/gpt-4o-mini', messages: user, stream: true, usage: { include: true } } }, 'sse'],
  ['messages', messages, { body: { model: 'claude-sonnet-4-6', max_tokens: 100, messages: user, stream: true } }, 'sse'],
  ['ollama', ollama, { body: { model: 'llama3', messages: user, stream: true } }, 'ndjson'],
  ['bedrock converse', bedrock, { body: { messages: [{ role: 'user', content: [{ text: 'Where is my parcel?' }] }] }, params: { modelId: 'anthropic.claude-3-haiku-20240307-v1:0', operation: 'converse-stream' } }, 'aws-event-stream'],
  ['vertex anthropic', vertex, { body: { anthropic_version: 'vertex-2023-10-16', max_tokens: 100, messages: user, stream: true }, params: { model: 'claude-sonnet-4-6', action: 'streamRawPredict', publisher: 'anthropic' } }, 'sse'],
];

const FAULTS: Array<Fault | undefined> = [
  undefined,
  { kind: 'cut_stream', afterChunks: 2 },
  { kind: 'stream_error', afterChunks: 3, error: new MockError('overloaded', 'Overloaded mid-stream.') },
  { kind: 'malformed' },
];

function replyOf(model: string, chunkMs: number): Reply {
  const choice = { text: TEXT, toolCalls: [], images: [], finishReason: 'stop', textChunks: chunkText(TEXT, 'token'), reasoningChunks: [] };
  return { id: 'abc', model, createdMs: 1_700_000_000_000, pacing: { firstChunkMs: 0, chunkMs }, usage: { inputTokens: 10, outputTokens: 25, reasoningTokens: 0, cachedTokens: 0 }, choices: [choice] } as unknown as Reply;
}

/** The bytes the writer put on the wire and the journal's text of them. */
async function written(plan: Plan, fault: Fault | undefined, framing: Framing): Promise<[string, string | undefined]> {
  const res = new FakeResponse();
  const ctx: Context = contextFor(res);
  await write(ctx, plan, fault, framing);
  return [Buffer.concat(res.written.map((data) => Buffer.from(data))).toString('base64'), (ctx.state as MockState).sent];
}

describe('a stream read as parts', () => {
  it.each(DOORS)('writes and journals what its whole events give (%s)', async (_, style, input, framing) => {
    const request = style.decode({ body: {}, query: {}, headers: {}, params: {}, ...input }, { storedTurns: () => undefined });
    for (const chunkMs of [0, 1]) {
      for (const fault of FAULTS) {
        const plan = planReply(style, replyOf(request.model, chunkMs), request, 'req') as Extract<Plan, { kind: 'stream' }>;
        expect(plan.parts?.length).toBeLessThan(plan.events.length);
        const { parts: _parts, ...whole } = plan;
        const events: Plan = { ...whole, events: plan.events };
        expect(await written(plan, fault, framing)).toEqual(await written(events, fault, framing));
      }
    }
  });
});
