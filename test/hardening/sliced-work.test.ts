// Work that stays large after its input bound gives the event loop back while it runs (SPEC 11,
// "Time"): other requests are answered before it ends, and its answer is the one the same work
// made in one piece. Whether they interleave is read from the order of events, never from a clock.
import { describe, expect, it } from 'vitest';
import { check, tallied, type Journal } from '../../src/exchange/admin/verify/check.js';
import { verifyBody } from '../../src/exchange/admin/verify/expectation.js';
import type { VerifyAnswer } from '../../src/exchange/admin/verify/verify.js';
import { lowerCaseSteps } from '../../src/conversation/lower-case.js';
import { piecesInclude } from '../../src/conversation/text-pieces.js';
import { chatSubject, lastUserLowerSteps } from '../../src/conversation/subject.js';
import type { ChatRequest } from '../../src/conversation/types.js';
import { chatRequest } from '../helpers/chat-request.js';
import { finished } from '../../src/conversation/steps.js';
import { countInputTokens, inputTokenSteps } from '../../src/conversation/input-tokens.js';
import { compileChatFixture } from '../../src/conversation/fixture.js';
import { replySteps } from '../../src/conversation/reply.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { hashHex } from '../../src/conversation/random.js';
import { SidesDigest } from '../../src/conversation/sides-digest.js';
import type { Turn } from '../../src/conversation/types.js';
import { LARGE_BODY } from '../../src/state/large-bodies.js';
import { keptEntry } from '../../src/state/journal.js';
import { journal } from '../../src/state/session.js';
import { Sessions } from '../../src/state/sessions.js';
import { cosine, embedText, float32Base64, vectorSalt } from '../../src/conversation/vectors/embed.js';
import type { Outcome } from '../../src/exchange/exchange.js';
import { float32Base64sInSlices } from '../../src/exchange/embedding-vectors.js';
import { paintPng, renderPng } from '../../src/media/png.js';
import { adminCall, answer, plainMock } from '../helpers/mock.js';
import { turnsWhile } from '../helpers/turns.js';

const ENTRIES = 4000;

function filledMock() {
  const mock = plainMock();
  mock.sessions = new Sessions(ENTRIES, mock.clock.now);
  // Its requests are put straight into the journal: the session is heard of as theirs would make it.
  const session = mock.sessions.heard('long');
  for (let i = 0; i < ENTRIES; i++) {
    const fields = {
      id: `req_${i}`, time: new Date(i * 1000).toISOString(), session: 'long', method: 'POST', path: '/v1/chat/completions', style: 'chat-completions',
      model: 'gpt-4o-mini', status: 200, fixture: null, scenario: null, duration_ms: 1, near_miss: null, source: 'generated', scenario_step: null,
      fault: null, upstream: null, upstream_refused: null, recorded: null, usage: null, cost_usd: null, batch: null,
      said: { text: `question ${i}`, tools: [], toolResults: [] }, mcp: null,
    };
    const body = JSON.stringify({ model: 'gpt-4o-mini', temperature: i % 10, messages: [{ role: 'user', content: `question ${i}` }] });
    journal(session, keptEntry(fields, body, '{"status":200,"body":{}}'));
  }
  return mock;
}

describe('verify over a long journal', () => {
  const expectations = Array.from({ length: 100 }, (_, i) => ({ requests: { body: { temperature: i % 12 } }, count: { min: 1 } }));

  it('answers what checking every expectation in one piece answers, and lets other work run meanwhile', async () => {
    const mock = filledMock();
    const body = { session: 'long', expect: expectations };
    const answer = Promise.resolve(adminCall(mock, 'POST /verify', { body }) as VerifyAnswer);
    expect(await turnsWhile(answer)).toBeGreaterThan(0);
    const entries = mock.sessions.get('long').journal.toArray();
    const whole: Journal = { entries, tally: tallied([mock.sessions.get('long').journalTally]) };
    const results = verifyBody(body).expect.map((expectation) => check(whole, expectation));
    expect(JSON.stringify(await answer)).toBe(JSON.stringify({ ok: false, results }));
  });
});

/** The JSON body of a plain answer. */
function bodyOf(outcome: Outcome): any {
  if (!('plan' in outcome) || outcome.plan.kind !== 'json') throw new Error(`expected a JSON answer, got ${JSON.stringify(outcome)}`);
  return outcome.plan.body;
}

/** A text's own vector as the generator makes it, alone. */
const ownVector = (text: string, model: string) => embedText(text, vectorSalt(model, 0), 1536);

describe('vectors of many inputs', () => {
  const inputs = Array.from({ length: 2048 }, (_, i) => `input ${i}: a parcel arrived damaged and the customer wants a replacement`);

  it('embeds 2,048 inputs as each alone would be, and lets other work run meanwhile', async () => {
    const mock = plainMock();
    const outcome = answer(mock, 'POST /v1/embeddings', { body: { model: 'text-embedding-3-small', input: inputs, encoding_format: 'base64' } });
    expect(await turnsWhile(outcome)).toBeGreaterThan(0);
    const data = bodyOf(await outcome).data as Array<{ embedding: string }>;
    expect(data.map((item) => item.embedding)).toEqual(inputs.map((text) => float32Base64(ownVector(text, 'text-embedding-3-small'))));
  });

  it('encodes vectors as base64 a group at a time into the texts encoding them at once gives', async () => {
    for (const size of [1536, 256, 100]) {
      const vectors = Array.from({ length: 300 }, (_, i) => ownVector(inputs[i]!, 'text-embedding-3-small').slice(0, size));
      expect(await float32Base64sInSlices(vectors)).toEqual(vectors.map((vector) => float32Base64(vector)));
    }
  });

  it('scores 1,000 documents by their vectors alone, and lets other work run meanwhile', async () => {
    const mock = plainMock();
    const documents = inputs.slice(0, 1000);
    const outcome = answer(mock, 'POST /v2/rerank', { body: { model: 'rerank-v3.5', query: 'a damaged parcel', documents } });
    expect(await turnsWhile(outcome)).toBeGreaterThan(0);
    const query = ownVector('a damaged parcel', 'text-embedding-3-small');
    const results = bodyOf(await outcome).results as Array<{ index: number; relevance_score: number }>;
    expect(results).toHaveLength(1000);
    for (const { index, relevance_score } of results) expect(relevance_score).toBe((1 + cosine(query, ownVector(documents[index]!, 'text-embedding-3-small'))) / 2);
  });
});

describe('counting the tokens of many inputs', () => {
  /** Words no test has counted before (a counted text is remembered), `count` of them in each of `inputs` texts. */
  const fresh = (inputs: number, count: number): string[] => {
    const salt = Math.random().toString(36).slice(2, 8);
    return Array.from({ length: inputs }, (_, i) => Array.from({ length: count }, (_, k) => `q${salt}${i}x${k}`).join(' '));
  };

  /** The message of the error an outcome carries. */
  const refusedWith = (outcome: Outcome): string => {
    if (!('error' in outcome) || !outcome.error) throw new Error(`expected an error, got ${JSON.stringify(outcome).slice(0, 200)}`);
    return outcome.error.message;
  };

  it('reads embeddings inputs past the token bound in slices', async () => {
    const outcome = Promise.resolve(answer(plainMock(), 'POST /v1/embeddings', { body: { model: 'text-embedding-3-small', input: fresh(2048, 60) } }));
    expect(await turnsWhile(outcome)).toBeGreaterThan(0);
    expect(refusedWith(await outcome)).toMatch(/the inputs up to input\[\d+\] have \d+ tokens; a request may have at most 300000 in all/);
  });

  it('reads rerank documents past the token bound in slices', async () => {
    const outcome = Promise.resolve(answer(plainMock(), 'POST /v2/rerank', { body: { model: 'rerank-v3.5', query: 'a parcel', documents: fresh(1000, 120) } }));
    expect(await turnsWhile(outcome)).toBeGreaterThan(0);
    expect(refusedWith(await outcome)).toMatch(/the documents up to documents\[\d+\] have \d+ tokens/);
  });
});

describe('a large picture', () => {
  it('is painted in slices into the bytes painting it in one piece makes', async () => {
    for (const [width, height] of [[64, 48], [1536, 1024], [2048, 2048]] as const) {
      expect((await paintPng(width, height, `sliced ${width}`)).equals(renderPng(width, height, `sliced ${width}`))).toBe(true);
    }
  });

  it('lets other work run while it is painted and deflated', async () => {
    expect(await turnsWhile(paintPng(2048, 2048, 'while others wait'))).toBeGreaterThan(0);
  });
});

describe('a message of megabytes', () => {
  it('is lower-cased in pieces into what lower-casing it at once gives, a capital sigma and astral letters included', () => {
    for (const text of ['ZQ'.repeat(300_000), 'ΟΔΟΣ. ΑΣ\'Σ ', '𐐀Σ'.repeat(100_000) + 'ΑΣ. Σ', `${'Ab'.repeat(40_000)}ΣΣ${'.'.repeat(70_000)}Σ x`]) {
      expect(finished(lowerCaseSteps(text))).toBe(text.toLowerCase());
    }
  });

  it('is matched by a fixture naming its end, and lets other work run while it is read', async () => {
    const mock = plainMock({ fixtures: { 'end.yaml': 'chat:\n  - name: at-the-end\n    match: { contains: "THE END" }\n    reply: { text: found }\n' } });
    // 8 million characters of mixed-case Cyrillic: ASCII lower-cases too fast on a warm, quiet
    // machine to outlast a slice, letters outside it take the slow path on any machine.
    const content = `${'Привет Мир '.repeat(800_000)} the end`;
    const outcome = answer(mock, 'POST /v1/chat/completions', { body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content }] } });
    expect(await turnsWhile(outcome)).toBeGreaterThan(0);
    expect((await outcome).notes.fixture).toBe('at-the-end');
  });
});

describe('the fixtures\' contains over a message of megabytes', () => {
  const content = `${'Parcel ZQ '.repeat(500_000)}Where Is My Order`;
  // A new turn each time: a turn's lower case and needles are kept with it.
  const request = (): ChatRequest => chatRequest({ turns: [{ role: 'user', parts: [{ kind: 'text', text: content }] }] });

  it('looks for each needle in a step of its own once the message is lower-cased', () => {
    const steps = (needles: string[]): number => {
      let count = 0;
      const lowering = lastUserLowerSteps(request(), needles)!;
      while (!lowering.next().done) count += 1;
      return count;
    };
    const needles = Array.from({ length: 12 }, (_, i) => `ref-0000${i}`);
    expect(steps(needles) - steps([])).toBe(needles.length);
  });

  it('finds a needle in pieces where the joined text holds it, across a cut and across short pieces', () => {
    const pieces = ['abc', 'de', 'f', 'ghij', 'klmnop'];
    const joined = pieces.join('');
    for (let from = 0; from < joined.length; from++) {
      for (let to = from; to <= joined.length; to++) expect(piecesInclude(pieces, joined.slice(from, to))).toBe(true);
    }
    for (const needle of ['ac', 'fh', 'pa', 'abcdefghijklmnopq', 'z']) expect(piecesInclude(pieces, needle)).toBe(false);
  });

  it('answers each contains as the whole lower-cased message does, a needle not looked for ahead too', () => {
    const asked = request();
    const acrossCut = content.toLowerCase().slice(64 * 1024 - 5, 64 * 1024 + 5);
    finished(lastUserLowerSteps(asked, ['where is my order', 'zq parcel', 'nowhere', 'zq p', acrossCut])!);
    const subject = chatSubject(asked);
    for (const needle of ['where is my order', 'zq parcel', 'nowhere', 'zq p', acrossCut, 'my order', 'absent']) {
      expect(subject.lastUserHolds(needle)).toBe(content.toLowerCase().includes(needle));
    }
    expect(subject.lastUserLower).toBe(content.toLowerCase());
  });
});

describe('a conversation of megabytes', () => {
  it('gets the generated reply digesting it whole gives, and lets other work run while it is digested', async () => {
    // The long text is an earlier turn's, which no matcher lower-cases: only the reply's seed reads it.
    const long = `${'parcel \u{1F4E6} Привет '.repeat(300_000)}end`;
    const messages = [{ role: 'user', content: long }, { role: 'assistant', content: 'noted' }, { role: 'user', content: 'and now?' }];
    const body = { model: 'gpt-4o-mini', messages, seed: 3 };
    const outcome = Promise.resolve(answer(plainMock(), 'POST /v1/chat/completions', { body, bodySize: JSON.stringify(body).length }));
    expect(await turnsWhile(outcome)).toBeGreaterThan(0);
    // Told of no body size, the mock digests the conversation when the reply first asks for its seed.
    const atOnce = await answer(plainMock(), 'POST /v1/chat/completions', { body });
    expect(bodyOf(await outcome).choices).toEqual(bodyOf(atOnce).choices);
  });

  it('is digested in steps into the digest of its JSON made whole, astral letters at every cut', () => {
    const digest = new SidesDigest((part) => (part.kind === 'text' ? part.text : undefined));
    for (const text of ['\u{1F4E6}'.repeat(400_000), `a${'\u{1F4E6}'.repeat(400_000)}`, `"\\\n${'é'.repeat(600_000)}`]) {
      const turns: Turn[] = [{ role: 'user', parts: [{ kind: 'text', text }, { kind: 'text', text: 'short' }] }, { role: 'assistant', parts: [{ kind: 'text', text }] }];
      const whole = hashHex(`["m",[["u",[${JSON.stringify(text)},"short"]],["a",[${JSON.stringify(text)}]]],null]`);
      for (const carried of [undefined, 0]) {
        const steps = digest.digestSteps('["m",[', turns, carried, ',null]');
        let taken = 0;
        let step = steps.next();
        for (; !step.done; step = steps.next()) taken += 1;
        expect(step.value).toBe(whole);
        expect(taken).toBeGreaterThan(2);
      }
    }
  });
});

describe('the input tokens of a long message', () => {
  /** Words no test has counted before (a counted text is remembered, and found in one step), within the 128 K characters a request counts exactly. */
  const freshText = (): string => {
    const salt = Math.random().toString(36).slice(2, 8);
    return Array.from({ length: 12_000 }, (_, i) => `w${salt}${i % 997}x${i % 13}`).join(' ').slice(0, 100_000);
  };

  it('are counted in steps into the exact count, which the reply then finds counted', () => {
    const text = freshText();
    const request = chatRequest({ turns: [{ role: 'user', parts: [{ kind: 'text', text }] }] });
    const steps = inputTokenSteps(request);
    let taken = 0;
    for (let step = steps.next(); !step.done; step = steps.next()) taken += 1;
    expect(taken).toBeGreaterThan(2);
    // A turn's four tokens and the reply's priming three, as the vendors bill them.
    expect(countInputTokens(request)).toBe(encode(text).length + 4 + 3);
    // The same request made again is counted at once, from what the steps remembered.
    const again = inputTokenSteps(request);
    expect(again.next().done).toBe(true);
  });

  it('of a reply are counted in steps too, into the exact count', () => {
    const text = freshText();
    // Cut at a stop sequence, a fixture's text is counted anew, as a template's output always is.
    const fixture = compileChatFixture({ reply: { text: `${text} THE END` } }, 'long.yaml', 0);
    const request = chatRequest({ turns: [{ role: 'user', parts: [{ kind: 'text', text: 'go' }] }], stopSequences: [' THE END'], maxOutputTokens: 200_000 });
    const context = { id: 'r', createdMs: 0, seed: 7, chunkBy: 'token' as const, pacing: { firstChunkMs: 0, chunkMs: 0 }, outputLimit: 200_000 };
    const steps = replySteps(request, { fixture, captures: {} }, context);
    let taken = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) taken += 1;
    expect(taken).toBeGreaterThan(2);
    expect(step.value.usage.outputTokens).toBe(encode(text).length);
  });

  it('are counted by a token-counting door for a large body as a reply bills them', async () => {
    const text = freshText();
    const body = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: text }] };
    const bodySize = JSON.stringify(body).length;
    const counted = bodyOf(await answer(plainMock(), 'POST /v1/messages/count_tokens', { body, bodySize })).input_tokens;
    const billed = bodyOf(await answer(plainMock(), 'POST /v1/messages', { body: { ...body, max_tokens: 16 }, bodySize })).usage.input_tokens;
    expect(counted).toBe(billed);
    expect(counted).toBe(encode(text).length + 4 + 3);
  });

  it('are billed by a chat answer of a large body as counted at once', async () => {
    const text = freshText();
    const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] };
    const outcome = await answer(plainMock(), 'POST /v1/chat/completions', { body, bodySize: JSON.stringify(body).length });
    expect(bodyOf(outcome).usage.prompt_tokens).toBe(encode(text).length + 4 + 3);
  });
});

describe('a request of a large body', () => {
  /** Whether work queued for the next turn ran before a moderation of `bodySize` was answered. */
  async function otherWorkFirst(bodySize: number): Promise<boolean> {
    const order: string[] = [];
    const other = new Promise<void>((ran) => setImmediate(() => ran(void order.push('other'))));
    await answer(plainMock(), 'POST /v1/moderations', { body: { model: 'omni-moderation-latest', input: 'a parcel' }, bodySize });
    order.push('answered');
    await other;
    return order[0] === 'other';
  }

  it('is read as its style reads it in a later turn than the one its body was parsed in', async () => {
    // The door's module is loaded at its first request, in turns of its own (exchange/operations-at-first-call.ts).
    await otherWorkFirst(LARGE_BODY - 1);
    expect(await otherWorkFirst(LARGE_BODY - 1)).toBe(false);
    expect(await otherWorkFirst(LARGE_BODY)).toBe(true);
  });
});
