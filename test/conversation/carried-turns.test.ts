// A request that continues a stored response goes on from the work the request before it left
// (the token count, the content key's and the fingerprint's digests): its figures must be those of the same
// conversation sent whole, however the chain grew, branched, changed its system text or lost its head.
import { describe, expect, it } from 'vitest';
import { contentKey } from '../../src/conversation/content-key.js';
import { fingerprint } from '../../src/conversation/fingerprint.js';
import { countInputTokens } from '../../src/conversation/input-tokens.js';
import type { ChatRequest, Part, Turn } from '../../src/conversation/types.js';
import { chatRequest } from '../helpers/chat-request.js';

const PROSE = 'The harbour pilot boards at dawn, checks the tide tables and steers the freighter past the breakwater. ';

/** The turns a request of step `n` adds, varied: tool calls and results, media, reasoning, runs of one side. */
function inputTurns(n: number): Turn[] {
  const text = (extra: string): Part => ({ kind: 'text', text: `${n}: ${PROSE.repeat(1 + (n % 9))}${extra}` });
  switch (n % 5) {
    case 0:
      return [{ role: 'user', parts: [text('plain')] }];
    case 1:
      return [{ role: 'tool', parts: [{ kind: 'tool_result', callId: `c${n}`, name: 'lookup', content: `result ${n}` }] }, { role: 'user', parts: [text('after a tool')] }];
    case 2:
      return [{ role: 'user', parts: [text('with a picture'), { kind: 'media', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] }];
    case 3:
      return [{ role: 'user', parts: [] }, { role: 'user', parts: [text('after an empty turn')] }];
    default:
      return [{ role: 'assistant', parts: [{ kind: 'reasoning', text: 'hm' }] }, { role: 'user', parts: [text('é ✓ 🙂')] }];
  }
}

function outputTurn(n: number): Turn {
  const parts: Part[] = [{ kind: 'text', text: `answer ${n}: ${PROSE.repeat(n % 4)}` }];
  if (n % 3 === 0) parts.push({ kind: 'tool_call', id: `c${n + 1}`, name: 'lookup', arguments: { q: `q${n}`, deep: { b: 1, a: [n] } } });
  return { role: 'assistant', parts };
}

function request(turns: Turn[], carriedTurns: number | undefined, system = 'You pilot ships.'): ChatRequest {
  return chatRequest({ style: 'responses', system, turns, tools: [{ name: 'lookup', description: 'Looks things up.', parameters: { type: 'object', properties: { q: { type: 'string' } } } }], carriedTurns });
}

/** The same request made of fresh objects, as a request that carries nothing decodes it. */
function sentWhole(carried: ChatRequest): ChatRequest {
  return { ...carried, turns: structuredClone(carried.turns), carriedTurns: undefined };
}

function expectSameFigures(carried: ChatRequest): void {
  const whole = sentWhole(carried);
  expect(countInputTokens(carried)).toBe(countInputTokens(whole));
  expect(contentKey(carried)).toBe(contentKey(whole));
  expect(fingerprint(carried)).toBe(fingerprint(whole));
}

describe('a request continuing a stored response', () => {
  it('counts and digests what the whole conversation would, turn after turn, past the exact-count budget', () => {
    // Each step carries the previous request's turns and its reply, as the responses style does.
    let conversation: Turn[] = [];
    for (let n = 0; n < 240; n += 1) {
      const carried = conversation.length;
      const turns = [...conversation, ...inputTurns(n)];
      const current = request(turns, carried);
      expectSameFigures(current);
      // Asked twice in one request (a scenario's token window, then the reply): the same again.
      expect(countInputTokens(current)).toBe(countInputTokens(sentWhole(current)));
      conversation = [...turns, outputTurn(n)];
    }
    // The conversation went past the 128 KB counted exactly, so estimates were resumed too.
    const texts = conversation.flatMap((turn) => turn.parts.map((part) => ('text' in part ? part.text : '')));
    expect(texts.join('').length).toBeGreaterThan(160 * 1024);
  });

  it('counts and digests afresh what it cannot go on from: a branch, another system text, a chain that lost its head', () => {
    let conversation: Turn[] = [];
    const heads: Turn[][] = [];
    for (let n = 0; n < 40; n += 1) {
      const turns = [...conversation, ...inputTurns(n)];
      countInputTokens(request(turns, conversation.length));
      contentKey(request(turns, conversation.length));
      fingerprint(request(turns, conversation.length));
      conversation = [...turns, outputTurn(n)];
      heads.push(conversation);
    }
    const branch = [...heads[10]!, ...inputTurns(99)];
    expectSameFigures(request(branch, heads[10]!.length));
    const last = heads.at(-1)!;
    expectSameFigures(request([...last, ...inputTurns(100)], last.length, 'You pilot ships, briefly.'));
    const headless = last.slice(7);
    expectSameFigures(request([...headless, ...inputTurns(101)], headless.length));
    expectSameFigures({ ...request([...last, ...inputTurns(102)], last.length), model: 'gpt-4.1' });
    const otherHead: Turn[] = [{ role: 'user', parts: [{ kind: 'text', text: 'another start' }] }, ...last.slice(1)];
    expectSameFigures(request([...otherHead, ...inputTurns(103)], otherHead.length));
  });
});
