import { describe, expect, it } from 'vitest';
import { embedText, vectorSalt } from '../../src/conversation/vectors/embed.js';
import { finished } from '../../src/conversation/steps.js';
import { decodeEmbeddings, embeddingsJson, encodeEmbeddings } from '../../src/styles/embeddings/openai.js';

const vectors = ['a parcel arrived torn', 'the store opens at nine', '"quoted" and \\ escaped \u2028'].map((text) => embedText(text, vectorSalt('text-embedding-3-small', 7), 1536));

describe('the embeddings answer written without scanning its vectors', () => {
  it('is exactly what JSON.stringify makes of the answer, in base64 and float, for one input and several', () => {
    for (const format of ['base64', 'float'] as const) {
      for (const count of [1, 3]) {
        const input = vectors.slice(0, count).map((_, i) => `input ${i}`);
        const request = finished(decodeEmbeddings({ model: 'text-embedding-3-small', input, encoding_format: format }));
        // A model id that spells the emptied member: serialised, its quotes are escaped and never taken for it.
        const answer = encodeEmbeddings(request, 'model "embedding":""', vectors.slice(0, count));
        expect(embeddingsJson(answer).join('')).toBe(JSON.stringify(answer));
      }
    }
  });
});
