// A request of many texts (embedding inputs, rerank documents, moderation inputs) is counted with
// one counter: within the exact budget each text counts as it does alone, and past it the bound on
// the request's tokens still refuses, naming the same limit, with BPE work for one request only.
import { describe, expect, it } from 'vitest';
import { MockError } from '../../src/conversation/errors.js';
import { countAllTokens, countTokens } from '../../src/conversation/tokens.js';
import { finished } from '../../src/conversation/steps.js';
import { MAX_TOTAL_TOKENS, readInputs } from '../../src/styles/embeddings/inputs.js';
import { decodeRerank } from '../../src/styles/rerank/index.js';

const words = (count: number, salt: string): string =>
  Array.from({ length: count }, (_, i) => `${['parcel', 'ticket', 'refund', 'courier', 'label'][i % 5]}${salt}${i % 17}`).join(' ');

const refusal = (work: () => unknown): MockError => {
  try {
    work();
  } catch (error) {
    if (error instanceof MockError) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('tokens of a request of many texts', () => {
  const texts = Array.from({ length: 50 }, (_, i) => words(30, `t${i}`));

  it('counts each text as it counts alone while the request is within the exact budget', () => {
    const alone = texts.map((text) => countTokens(text));
    expect(finished(readInputs(texts)).map((input) => input.tokens)).toEqual(alone);
    expect(countAllTokens(texts)).toBe(alone.reduce((sum, tokens) => sum + tokens, 0));
    const request = finished(decodeRerank({ model: 'rerank-v3.5', query: 'q', documents: texts }));
    expect(request.documentTokens).toBe(alone.reduce((sum, tokens) => sum + tokens, 0));
  });

  it(`refuses embedding inputs past ${MAX_TOTAL_TOKENS} tokens in all, naming input and the limit`, () => {
    const large = Array.from({ length: 200 }, (_, i) => words(4000, `e${i}`).slice(0, 23 * 1024));
    const error = refusal(() => finished(readInputs(large)));
    expect(error.options.param).toBe('input');
    expect(error.message).toContain(`a request may have at most ${MAX_TOTAL_TOKENS} in all`);
  });

  it(`refuses rerank documents past ${MAX_TOTAL_TOKENS} tokens in all, naming documents and the limit`, () => {
    const large = Array.from({ length: 200 }, (_, i) => words(8000, `r${i}`).slice(0, 48 * 1024));
    const error = refusal(() => finished(decodeRerank({ model: 'rerank-v3.5', query: 'q', documents: large })));
    expect(error.options.param).toBe('documents');
    expect(error.message).toContain(`a request may have at most ${MAX_TOTAL_TOKENS} in all`);
  });
});
