// Token counting is linear in the text with a small constant, whatever the text (SPEC 11 "Time"):
// where o200k has no place to start a piece (one letter repeated, base64, letters without a space)
// BPE costs fifty times prose, so a request counts 4 K such characters exactly and estimates the
// rest at their rate. Asserted through the SDK as what a client sees; the time is the bench's.
import Anthropic from '@anthropic-ai/sdk';
import { countTokens as wholeText } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const plain = (text: string) => wholeText(text, { disallowedSpecial: new Set() });

let server: TestServer;
let client: Anthropic;

beforeAll(async () => {
  server = await startTestServer();
  client = new Anthropic({ baseURL: server.url, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const counted = async (text: string) =>
  (await client.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: text }] })).input_tokens;

/** Characters from `alphabet` with no space, from a fixed seed: no two 512-character stretches alike. */
function noSpace(alphabet: string, length: number, seed = 7): string {
  let state = seed;
  // xorshift32: a plain LCG here repeats within a few hundred characters.
  const next = () => ((state ^= state << 13), (state ^= state >>> 17), (state ^= state << 5), state >>> 0);
  return Array.from({ length }, () => alphabet[next() % alphabet.length]).join('');
}

describe('token counting of long pieces', () => {
  it('counts 4 K characters without a space exactly and estimates the rest at their rate', async () => {
    const overhead = (await counted('hello')) - plain('hello');
    const letters = noSpace('abcdefghijklmnopqrstuvwxyz', 4 * 1024);
    const lettersCounted = (await counted(letters)) - overhead;
    expect(Math.abs(lettersCounted - plain(letters))).toBeLessThan(plain(letters) * 0.005);
    // 100,000 digits more: o200k counts them in threes, but past the budget they are estimated at the letters' rate.
    // (Other letters than those just counted: segments met lately are counted from memory.)
    const long = noSpace('abcdefghijklmnopqrstuvwxyz', 4 * 1024, 11) + noSpace('0123456789', 100_000);
    const reported = (await counted(long)) - overhead;
    const estimate = lettersCounted * (long.length / letters.length);
    expect(Math.abs(reported - estimate) / estimate).toBeLessThan(0.03);
    expect(reported).toBeGreaterThan(1.3 * plain(long));
  });

  it('counts one character repeated exactly, its segments counted once', async () => {
    const overhead = (await counted('hello')) - plain('hello');
    // o200k spells a run of z in pairs.
    expect((await counted('z'.repeat(1_000_000))) - overhead).toBe(500_000);
  });
});
