// Text kept for reading later (a journal entry's body and response): as it is, then, once memory
// gets short, deflated (alone when long, many together when short) where it shrinks, so what a
// session holds costs at most the size it is counted at.
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

/** Short texts deflated as one: texts alike (a session's journal entries) shrink to a fraction. */
class Block {
  constructor(
    /** The deflated UTF-8 bytes, one per character. */
    readonly data: string,
    readonly chars: number,
  ) {}

  /** The texts joined; the last block read is kept, so reading a block's texts in turn inflates it once. */
  text(): string {
    if (lastRead?.block !== this) lastRead = { block: this, text: inflate(this.data) };
    return lastRead.text;
  }
}

let lastRead: { block: Block; text: string } | undefined;

function inflate(data: string): string {
  return inflateRawSync(Buffer.from(data, 'latin1')).toString();
}

export class PackedText {
  private constructor(
    /** The text, or its deflated UTF-8 bytes one per character (a one-byte string in V8's heap, moved by its GC like any other). */
    private data: string | Block,
    private deflated: boolean,
    /** What the text costs held as it is: one byte a character for ASCII, else two (V8's strings are Latin-1 or UTF-16). */
    readonly bytes: number,
    /** Where the text lies in its block's. */
    private start = 0,
    private end = 0,
  ) {}

  /**
   * `text` must be well-formed UTF-16 (JSON.stringify's output is: it escapes lone surrogates),
   * so that its UTF-8 bytes give it back exactly.
   */
  static of(text: string): PackedText {
    const packed = PackedText.plain(text);
    packed.packAlone();
    return packed;
  }

  /** The text kept as it is, for `packAlone` or `packTogether` later, once memory gets short. */
  static plain(text: string): PackedText {
    // Measuring also flattens a text built by concatenation into one string.
    const ascii = Buffer.byteLength(text) === text.length;
    return new PackedText(text, false, ascii ? text.length : 2 * text.length);
  }

  /** Deflates a long text kept as it is, when it shrinks enough; short ones are left to `packTogether`. */
  packAlone(): void {
    const text = this.data;
    if (typeof text !== 'string' || this.deflated || text.length < DEFLATE_FROM) return;
    const middle = Math.max(0, Math.floor((text.length - SAMPLE_CHARS) / 2));
    if (text.length > 4 * SAMPLE_CHARS && !deflates(text.slice(middle, middle + SAMPLE_CHARS))) return;
    const deflated = deflateRawSync(text, LEVEL);
    if (deflated.length > WORTH_IT * this.bytes) return;
    this.data = deflated.toString('latin1');
    this.deflated = true;
  }

  /**
   * Deflates short texts kept as they are together, each then read from the block; the others are
   * left alone. A long text kept as it is did not deflate: joined, 32 of them (a megabyte each)
   * would hold the event loop for a deflate of 32 MB, for nothing.
   */
  static packTogether(texts: readonly PackedText[]): void {
    const plain = texts.filter((packed) => typeof packed.data === 'string' && !packed.deflated && packed.data.length < DEFLATE_FROM);
    const joined = plain.map((packed) => packed.data as string).join('');
    const block = new Block(deflateRawSync(joined, LEVEL).toString('latin1'), joined.length);
    let at = 0;
    for (const packed of plain) {
      const length = (packed.data as string).length;
      packed.data = block;
      packed.start = at;
      packed.end = at + length;
      at += length;
    }
  }

  get text(): string {
    if (typeof this.data !== 'string') return this.data.text().slice(this.start, this.end);
    return this.deflated ? inflate(this.data) : this.data;
  }

  /** What is really held: at most `bytes` (a block's bytes shared by its texts by length). */
  get heldBytes(): number {
    if (typeof this.data !== 'string') return Math.ceil((this.data.data.length * (this.end - this.start)) / Math.max(1, this.data.chars));
    return this.deflated ? this.data.length : this.bytes;
  }
}
