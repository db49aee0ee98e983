// Log probabilities of a reply's text, for clients that ask for them: one entry per token of the
// text (so the tokens joined are the text), each with the token's UTF-8 bytes and, when asked,
// the most likely alternatives, the token itself first. Seeded by the token and its place in the
// text, so a reply says the same figures whole and streamed, and again on the next run.
import { seededRandom } from './random.js';
import { chunkText } from './token-chunks.js';

export interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  /** The alternatives, most likely first; the first is the token itself. */
  top: Array<{ token: string; logprob: number; bytes: number[] }>;
}

// What an alternative to a token may be: short, common pieces of text.
const ALTERNATIVES = [' the', ' a', ',', '.', ' and', ' to', ' of', ' is', ' in', ' it', ' that', ' I', '\n', ' you', ' for'];

const bytesOf = (token: string): number[] => [...Buffer.from(token, 'utf8')];
const rounded = (value: number): number => Math.round(value * 1e6) / 1e6;

/** `offset`: where `text` starts in the whole reply text (a stream's piece starts further in). */
export function tokenLogprobs(text: string, seed: number | string, top: number, offset = 0): TokenLogprob[] {
  let at = offset;
  return chunkText(text, 'token').map((token) => {
    const random = seededRandom(seed, 'logprob', token, at);
    at += token.length;
    const logprob = rounded(-random.next() * 0.5);
    const others = ALTERNATIVES.filter((t) => t !== token);
    const alternatives = Array.from({ length: Math.min(Math.max(0, top - 1), others.length) }, (_, i) => {
      const alternative = others[(random.int(0, others.length - 1) + i) % others.length]!;
      return { token: alternative, logprob: rounded(logprob - 1 - i - random.next()), bytes: bytesOf(alternative) };
    });
    const entry = { token, logprob, bytes: bytesOf(token) };
    return { ...entry, top: top > 0 ? [entry, ...alternatives] : [] };
  });
}
