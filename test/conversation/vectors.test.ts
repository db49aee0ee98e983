// The promises of the hashed-feature vectors, on real sentences: close when most words are
// shared, far when none is, unit length, deterministic in model, text and seed, and shortened
// vectors that keep a retrieval's order.
import { describe, expect, it } from 'vitest';
import { cosine, embedText, float32Base64, float32Base64s, shorten, vectorSalt } from '../../src/conversation/vectors/embed.js';

const salt = vectorSalt('text-embedding-3-small', 0);
const embed = (text: string, size = 1536) => embedText(text, salt, size);

const CLOSE: Array<[string, string]> = [
  ['The cat sat on the mat.', 'The cat sat on the red mat.'],
  ['How do I reset my password?', 'How can I reset my password?'],
  ['Paris is the capital of France.', 'The capital of France is Paris.'],
  ['Our store opens at nine in the morning.', 'Our store opens at nine every morning.'],
  ['Refunds are issued within 30 days of purchase.', 'Refunds are issued within 14 days of purchase.'],
  ['The quick brown fox jumps over the lazy dog', 'the quick brown fox jumped over the lazy dog'],
];

const FAR: Array<[string, string]> = [
  ['The weather is sunny today.', 'Quarterly revenue grew by ten percent.'],
  ['I love programming in TypeScript', 'Bananas are yellow fruit'],
  ['Where is the nearest train station?', 'My dog enjoys long walks'],
  ['Refunds are issued within 30 days.', 'The telescope observed a distant galaxy.'],
  ['Please reset my password', 'Elephants never forget faces'],
  ['Kubernetes schedules containers onto nodes', 'Grandma bakes apple pie on Sundays'],
];

describe('hashed-feature vectors', () => {
  it.each(CLOSE)('put "%s" and "%s" close (cosine >= 0.6)', (a, b) => {
    expect(cosine(embed(a), embed(b))).toBeGreaterThanOrEqual(0.6);
  });

  it.each(FAR)('keep "%s" and "%s" apart (cosine <= 0.2)', (a, b) => {
    expect(cosine(embed(a), embed(b))).toBeLessThanOrEqual(0.2);
  });

  it('are of unit length, full and shortened, however short the text', () => {
    for (const text of ['The cat sat on the mat.', 'a', '!!!', '🧨']) {
      for (const size of [1536, 256, 8, 1]) {
        const norm = Math.hypot(...shorten(embed(text), size));
        expect(norm).toBeCloseTo(1, 5);
      }
    }
  });

  it('are deterministic in model, text and seed, and case-folded', () => {
    expect(embed('Hello there')).toEqual(embed('Hello there'));
    expect(embed('HELLO THERE')).toEqual(embed('hello there'));
    expect(embedText('Hello there', vectorSalt('text-embedding-3-large', 0), 1536)).not.toEqual(embed('Hello there'));
    expect(embedText('Hello there', vectorSalt('text-embedding-3-small', 1), 1536)).not.toEqual(embed('Hello there'));
  });

  it('keep a retrieval order when shortened to 256 dimensions', () => {
    const documents = ['Paris is the capital of France.', 'Berlin is the capital of Germany.', 'Bananas are rich in potassium.', 'The Louvre is a museum in Paris.'];
    const query = 'What is the capital of France?';
    const ranking = (size: number) => {
      const q = shorten(embed(query), size);
      return documents.map((text, index) => ({ index, score: cosine(q, shorten(embed(text), size)) })).sort((a, b) => b.score - a.score).map((hit) => hit.index);
    };
    expect(ranking(1536)[0]).toBe(0);
    expect(ranking(256)).toEqual(ranking(1536));
  });

  it('read words as runs of letters and digits in any script, whatever separates them', () => {
    expect(embed('Ça va? Très-bien, 東京🧨naïve 𝐀𝐁 42')).toEqual(embed('ça va très bien 東京 naïve 𝐀𝐁 42'));
    expect(embed('naïve')).not.toEqual(embed('naive'));
    expect(embed('e\u0301cole')).toEqual(embed('e cole')); // a combining accent is not a letter
  });

  it('count a word said again again', () => {
    const refund = embed('refund');
    expect(cosine(embed('refund refund refund parcel'), refund)).toBeGreaterThan(cosine(embed('refund parcel'), refund));
  });
});

describe('base64 vectors', () => {
  it('are the same encoded together as one by one, whatever their sizes', () => {
    for (const sizes of [[1536, 1536, 768], [256, 1536], [1, 2, 3]]) {
      const vectors = sizes.map((size, index) => embed(`text number ${index}`, size));
      expect(float32Base64s(vectors)).toEqual(vectors.map(float32Base64));
      expect(float32Base64s(vectors).map((text) => new Float32Array(Uint8Array.from(Buffer.from(text, 'base64')).buffer)).map((v) => [...v])).toEqual(vectors.map((v) => [...v]));
    }
  });
});
