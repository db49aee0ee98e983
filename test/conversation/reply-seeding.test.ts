import { describe, expect, it } from 'vitest';
import { compileChatFixture } from '../../src/conversation/fixture.js';
import { replySteps, type ReplyContext } from '../../src/conversation/reply.js';
import { finished } from '../../src/conversation/steps.js';
import type { ChatRequest } from '../../src/conversation/types.js';
import { chatRequest } from '../helpers/chat-request.js';

// Seeding is lazy (a fixture hit that draws nothing skips digesting the request); these pin that
// whatever is drawn still comes from the request's content, as "same request, same reply" needs.
const context: ReplyContext = { id: 'r', createdMs: 0, seed: 7, chunkBy: 'token', pacing: { firstChunkMs: 0, chunkMs: 0 }, outputLimit: 200 };

function request(prompt: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return chatRequest({ turns: [{ role: 'user', parts: [{ kind: 'text', text: prompt }] }], ...extra });
}

const fakerFixture = compileChatFixture({ reply: { text: 'Hi {{faker.person.firstName}}, ticket {{faker.number.int({"max":999999})}}' } }, 'f.yaml', 0);
const plainFixture = compileChatFixture({ reply: { text: 'A constant answer.' } }, 'f.yaml', 1);
const hit = (fixture: typeof fakerFixture) => ({ fixture, captures: {} });

describe('the reply\'s seeding', () => {
  it('renders faker templates the same for the same request and differently for another', () => {
    const first = finished(replySteps(request('hello'), hit(fakerFixture), context)).choices[0]!.text;
    expect(finished(replySteps(request('hello'), hit(fakerFixture), context)).choices[0]!.text).toBe(first);
    const others = ['hi', 'hey', 'good day', 'hello there'].map((p) => finished(replySteps(request(p), hit(fakerFixture), context)).choices[0]!.text);
    expect(others.some((text) => text !== first)).toBe(true);
  });

  it('gives each of n choices its own faker draw', () => {
    const reply = finished(replySteps(request('hello', { choices: 3 }), hit(fakerFixture), context));
    expect(new Set(reply.choices.map((choice) => choice.text)).size).toBeGreaterThan(1);
  });

  it('generates the same reasoning for a fixture hit without reasoning of its own', () => {
    const reasoning = { effort: 'high', visible: true };
    const first = finished(replySteps(request('hello', { reasoning }), hit(plainFixture), context)).choices[0]!;
    expect(first.text).toBe('A constant answer.');
    expect(first.reasoning).toBeTruthy();
    expect(finished(replySteps(request('hello', { reasoning }), hit(plainFixture), context)).choices[0]!.reasoning).toBe(first.reasoning);
  });
});
