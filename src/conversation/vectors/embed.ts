// Vectors that mean something, without a model: every feature of a text (features.ts) adds its
// weight at a few positions and signs drawn from its hash, salted with the model and the seed. Two
// texts that share features point the same way; texts that share none are nearly orthogonal.
// Values are float32, as the vendors' are, so the float and base64 forms carry the same numbers.
import { endianness } from 'node:os';
import { hashHex } from '../random.js';
import { FeatureBag } from './bag.js';
import { mix, readFeatures } from './features.js';

const LITTLE_ENDIAN = endianness() === 'LE';

/** Positions each feature is spread over, one in each band (see bandsOf). */
const SPREAD = 8;

/** The salt of a model and seed: the same text gets another vector from another model or seed. */
export function vectorSalt(model: string, seed: number): number {
  let hash = mix(0x6a09e667, seed >>> 0);
  for (let i = 0; i < model.length; i++) hash = mix(hash, model.charCodeAt(i));
  return hash;
}

/** The first `size` values scaled to unit length, as float32. */
function unitFloat32(values: ArrayLike<number>, size: number): Float32Array {
  let norm = 0;
  for (let i = 0; i < size; i++) norm += values[i]! * values[i]!;
  const out = new Float32Array(size);
  // Features that cancel out in a very short cut: still a unit vector, the same every time.
  if (norm === 0) {
    if (size > 0) out[0] = 1;
    return out;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < size; i++) out[i] = values[i]! * scale;
  return out;
}

/**
 * Where each of a feature's positions may fall: the k-th within the first size/2^(SPREAD-1-k)
 * components, so every feature has about as many positions in any leading part of the vector.
 * A vector cut to its first components (`dimensions`) then keeps every feature and the same
 * proportions, as the vendors' shortened embeddings do, and never comes out empty.
 */
function bandsOf(size: number): { bands: Int32Array; shares: Float64Array } {
  const bands = new Int32Array(SPREAD);
  for (let k = 0; k < SPREAD; k++) bands[k] = Math.max(1, size >>> (SPREAD - 1 - k));
  // Each position's weight grows with its band, so the crowded leading components hold no more
  // than their share and unrelated texts stay as far apart as with positions drawn evenly.
  const total = bands.reduce((sum, band) => sum + band, 0);
  const shares = Float64Array.from(bands, (band) => Math.sqrt(band / total));
  return { bands, shares };
}

const bandsBySize = new Map<number, ReturnType<typeof bandsOf>>();

/** Trigrams, light and many, take only the wider bands: a very short cut keeps words and pairs. */
const LIGHT_FROM = SPREAD / 2;

/** One buffer for the sums of every vector: a 2,048-input batch would allocate 25 MB otherwise. */
let scratch = new Float64Array(0);
const bag = new FeatureBag();

/** The text's vector of `size` components (the model's full size), of unit length. */
export function embedText(text: string, salt: number, size: number): Float32Array {
  if (scratch.length < size) scratch = new Float64Array(size);
  const sums = scratch.fill(0, 0, size);
  let known = bandsBySize.get(size);
  if (!known) bandsBySize.set(size, (known = bandsOf(size)));
  const { bands, shares } = known;
  readFeatures(text, bag);
  const { hashes, weights, light, count } = bag;
  for (let feature = 0; feature < count; feature++) {
    // One full mix per feature, then xorshift steps: positions and signs as spread, at a tenth the cost.
    let state = mix(hashes[feature]!, salt) | 1;
    const weight = weights[feature]!;
    for (let k = light[feature] ? LIGHT_FROM : 0; k < SPREAD; k++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      const share = weight * shares[k]!;
      sums[(state >>> 1) % bands[k]!]! += state < 0 ? -share : share;
    }
  }
  return unitFloat32(sums, size);
}

/** The first `size` components renormalized, as the vendors' shortened embeddings are. */
export function shorten(vector: ArrayLike<number>, size: number): Float32Array {
  return unitFloat32(vector, Math.min(size, vector.length));
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Little-endian float32 bytes in base64, as `encoding_format: base64` answers them. */
export function float32Base64(vector: ArrayLike<number>): string {
  if (vector instanceof Float32Array && LITTLE_ENDIAN) return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes.toString('base64');
}

/**
 * `float32Base64` of each vector. When every vector's bytes come in whole groups of three (the
 * models' sizes do), the vectors are encoded as one text and each answer is a slice of it: a
 * 2,048-input batch then makes one 16 MB string instead of 2,048 that the collector copies.
 */
export function float32Base64s(vectors: readonly Float32Array[]): string[] {
  if (!LITTLE_ENDIAN || vectors.some((vector) => vector.length % 3 !== 0)) return vectors.map(float32Base64);
  const whole = Buffer.allocUnsafe(vectors.reduce((sum, vector) => sum + vector.byteLength, 0));
  let at = 0;
  for (const vector of vectors) {
    whole.set(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength), at);
    at += vector.byteLength;
  }
  const text = whole.toString('base64');
  let from = 0;
  return vectors.map((vector) => text.slice(from, (from += (vector.byteLength / 3) * 4)));
}

/** The numbers of a vector, each a float32 value, for JSON. */
export function float32Numbers(vector: ArrayLike<number>): number[] {
  return Array.from(vector, (value) => Math.fround(value));
}

/** What an embeddings fixture's `match.fingerprint` names: one input's text (recordings pin it). */
export function inputFingerprint(text: string): string {
  return hashHex(`input|${text}`, 16);
}
