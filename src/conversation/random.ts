// Seeded randomness: every generated reply, id and value comes from here, so the same seed and
// request give the same bytes on any machine. Nothing in the project reads Math.random.
import { hash } from 'node:crypto';

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** `length` lower-case hex digits. */
  hex(length: number): string;
}

const TWO_POW_32 = 4294967296;
const HEX_DIGITS = '0123456789abcdef';

/**
 * A generator seeded from the parts given (seed, session, request text, counter...).
 * Numbers and strings are tagged and strings length-prefixed, so ('1', 2) and (1, '2') or
 * ('ab', 'c') and ('a', 'bc') seed different sequences.
 */
export function seededRandom(...parts: Array<string | number>): Random {
  // A loop, not a map and a join: a stream draws its pauses from one of these, made at its start.
  let key = '';
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!;
    key += `${i > 0 ? '|' : ''}${typeof part === 'number' ? `n${part}` : `s${part.length}:${part}`}`;
  }
  return new Sfc32(cyrb128(key));
}

/** A stable hex digest of `text` (sha1, so at most 40 digits), for ids. */
export function hashHex(text: string, length = 16): string {
  if (length < 0 || length > 40) throw new RangeError(`hashHex length must be within 0..40, got ${length}`);
  // The one-shot digest: about half the cost of a Hash object, and ids are made on every request.
  return hash('sha1', text, 'hex').slice(0, length);
}

/** cyrb128 (bryc): a fast 128-bit string hash, used only to spread a key over sfc32's state. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i += 1) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/**
 * sfc32 (Chris Doty-Humphrey): small, fast, passes PractRand; 32-bit integer math only. A class,
 * as a stream's start makes one: an object of closures over the state cost six closures a call.
 */
class Sfc32 implements Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor([a, b, c, d]: [number, number, number, number]) {
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    // The first outputs still echo the seed words; the usual remedy is to discard a few.
    for (let i = 0; i < 12; i += 1) this.uint32();
  }

  private uint32(): number {
    const a = this.a >>> 0;
    const b = this.b >>> 0;
    const c = this.c >>> 0;
    const d = this.d >>> 0;
    let t = (a + b) | 0;
    this.a = b ^ (b >>> 9);
    this.b = (c + (c << 3)) | 0;
    const rotated = (c << 21) | (c >>> 11);
    this.d = (d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (rotated + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.uint32() / TWO_POW_32;
  }

  int(min: number, max: number): number {
    const low = Math.ceil(min);
    const high = Math.floor(max);
    if (high < low) throw new RangeError(`empty integer range [${min}, ${max}]`);
    // Clamped because for spans beyond 2^53 the float product can round up to high + 1.
    return Math.min(high, low + Math.floor(this.next() * (high - low + 1)));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('cannot pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += HEX_DIGITS[this.uint32() & 15];
    return out;
  }
}
