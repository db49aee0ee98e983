// Text kept for reading later (a journal entry's body and response): as it is when short, deflated
// when long and it shrinks, so what a session holds costs at most the size it is counted at.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** Shorter texts are kept as they are: deflating them saves little and costs a zlib stream each. */
export const DEFLATE_FROM = 16 * 1024;
/** A longer text is tried on a sample this long first, so incompressible data (base64) costs one sample's work. */
const SAMPLE_CHARS = 16 * 1024;
/** Kept deflated only when the sample shrinks to at most this share of its size. */
const WORTH_IT = 0.75;
// Level 1: on JSON it keeps most of level 6's gain (a 512 KB run of one letter: 2.3 KB vs 0.5 KB)
// at a fraction of its time.
const LEVEL = { level: 1 };

function deflates(sample: string): boolean {
  const bytes = Buffer.byteLength(sample);
  return deflateRawSync(sample, LEVEL).length <= WORTH_IT * bytes;
}

export class PackedText {
  private constructor(
    /** The text, or its deflated UTF-8 bytes one per character (a one-byte string in V8's heap, moved by its GC like any other). */
    private readonly data: string,
    private readonly deflated: boolean,
    /** What the text costs held as it is: one byte a character for ASCII, else two (V8's strings are Latin-1 or UTF-16). */
    readonly bytes: number,
  ) {}

  /**
   * `text` must be well-formed UTF-16 (JSON.stringify's output is: it escapes lone surrogates),
   * so that its UTF-8 bytes give it back exactly.
   */
  static of(text: string): PackedText {
    // Measuring also flattens a text built by concatenation into one string.
    const ascii = Buffer.byteLength(text) === text.length;
    const bytes = ascii ? text.length : 2 * text.length;
    if (text.length < DEFLATE_FROM) return new PackedText(text, false, bytes);
    const middle = Math.max(0, Math.floor((text.length - SAMPLE_CHARS) / 2));
    if (text.length > 4 * SAMPLE_CHARS && !deflates(text.slice(middle, middle + SAMPLE_CHARS))) return new PackedText(text, false, bytes);
    const deflated = deflateRawSync(text, LEVEL);
    return deflated.length <= WORTH_IT * bytes ? new PackedText(deflated.toString('latin1'), true, bytes) : new PackedText(text, false, bytes);
  }

  get text(): string {
    return this.deflated ? inflateRawSync(Buffer.from(this.data, 'latin1')).toString() : this.data;
  }

  /** What is really held: at most `bytes`. */
  get heldBytes(): number {
    return this.deflated ? this.data.length : this.bytes;
  }
}
