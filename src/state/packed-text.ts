// Text kept for reading later (a journal entry's body and response): its UTF-8 bytes, outside
// V8's heap, then, once memory gets short, deflated (alone when long, many together when short)
// where it shrinks, so what a session holds costs at most the size it is counted at. Outside the
// heap because every young-generation collection copied a kept text that was still young: with a
// coding agent's 126 KB requests the copying cost more than the rest of the request together.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { giveSlab, inSlab, openedSlab, takeSlab } from './byte-slabs.js';

/** Shorter texts are kept as they are: deflating them saves little and costs a zlib stream each. */
export const DEFLATE_FROM = 16 * 1024;
/** A longer text is tried on a sample this long first, so incompressible data (base64) costs one sample's work. */
const SAMPLE_BYTES = 16 * 1024;
/** Kept deflated only when the sample shrinks to at most this share of its size. */
const WORTH_IT = 0.75;
// Level 1: on JSON it keeps most of level 6's gain (a 512 KB run of one letter: 2.3 KB vs 0.5 KB)
// at a fraction of its time.
const LEVEL = { level: 1 };

function deflates(sample: Buffer): boolean {
  return deflateRawSync(sample, LEVEL).length <= WORTH_IT * sample.length;
}

/** Short texts deflated as one: texts alike (a session's journal entries) shrink to a fraction. */
class Block {
  constructor(
    /** The deflated bytes of the texts joined. */
    readonly data: Buffer,
    /** The bytes they inflate to. */
    readonly size: number,
  ) {}

  /** The texts' bytes joined; the last block read is kept, so reading a block's texts in turn inflates it once. */
  bytes(): Buffer {
    if (lastRead?.block !== this) lastRead = { block: this, bytes: inflateRawSync(this.data) };
    return lastRead.bytes;
  }
}

// A journal payload's brackets and the comma between its body and its response.
const OPENING = 0x5b;
const COMMA = 0x2c;
const CLOSE = 0x5d;

/**
 * `,${response}]` as UTF-8, after a body kept in its slab: the response written into its buffer as
 * it is, not joined into a string of its own first (a stream's is a few KB, flattened and copied
 * once more by the join).
 */
function afterBody(response: string): Buffer {
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(response) + 2);
  bytes[0] = COMMA;
  bytes.write(response, 1);
  bytes[bytes.length - 1] = CLOSE;
  return bytes;
}

let lastRead: { block: Block; bytes: Buffer } | undefined;

export class PackedText {
  private constructor(
    /**
     * The text's UTF-8 bytes: in one buffer, in two (a body kept in the slab it was read into, and
     * what follows it), deflated, or in the block they were deflated in.
     */
    private data: Buffer | readonly Buffer[] | Block,
    private deflated: boolean,
    /** What the text costs held as it is: its UTF-8 bytes. */
    readonly bytes: number,
    /** Where the text's bytes lie in its block's. */
    private start = 0,
    private end = 0,
    /** The buffer from `takeSlab` the bytes lie in, given back by `release`. */
    private slab?: Buffer,
  ) {}

  /** The text kept, and deflated at once where that pays (see `plain` for what `text` must be). */
  static of(text: string): PackedText {
    const packed = PackedText.plain(text);
    packed.packAlone();
    return packed;
  }

  /**
   * The text kept as it is, for `packAlone` or `packTogether` later, once memory gets short.
   * `text` must be well-formed UTF-16 (JSON.stringify's output is: it escapes lone surrogates; so
   * is a body decoded from UTF-8), so that its UTF-8 bytes give it back exactly.
   */
  static plain(text: string): PackedText {
    const bytes = Buffer.from(text);
    return new PackedText(bytes, false, bytes.length);
  }

  /**
   * The journal payload `[${body},${response}]`, of a body's UTF-8 bytes in the chunks they came in
   * and the response's JSON text. A body read into a slab behind its `[` (`readIntoSlab`) is kept
   * in that slab, not copied again; any other is written with the response into one buffer, a
   * slab when long (given back by `release`), else a slice of Node's pool. Kept in the chunks they
   * came in, each entry held the socket's own buffers (an ArrayBuffer each, swept by the collector
   * until the entry left the journal), an array of them and a buffer for the response.
   */
  static opened(body: readonly Buffer[], response: string): PackedText {
    const slab = body.length === 1 ? openedSlab(body[0]!) : undefined;
    if (slab !== undefined) {
      const tail = afterBody(response);
      const bytes = 1 + body[0]!.length + tail.length;
      return new PackedText([slab.subarray(0, 1 + body[0]!.length), tail], false, bytes, 0, 0, slab);
    }
    let bytes = 3 + Buffer.byteLength(response);
    for (const chunk of body) bytes += chunk.length;
    const long = inSlab(bytes);
    const into = long ? takeSlab(bytes) : Buffer.allocUnsafe(bytes);
    into[0] = OPENING;
    let at = 1;
    for (const chunk of body) at += chunk.copy(into, at);
    into[at] = COMMA;
    at += 1 + into.write(response, at + 1);
    into[at] = CLOSE;
    return long ? new PackedText(into.subarray(0, bytes), false, bytes, 0, 0, into) : new PackedText(into, false, bytes);
  }

  /**
   * The text is no longer kept (its entry left the journal): its slab may hold another's once no
   * reader holds the journal across turns (`holdSlabs`); until then it still reads as written.
   */
  release(): void {
    if (this.slab === undefined) return;
    giveSlab(this.slab);
    this.slab = undefined;
  }

  /** The bytes kept as they are, in one buffer; undefined once deflated. */
  private plainBytes(): Buffer | undefined {
    if (this.data instanceof Block || this.deflated) return undefined;
    return Buffer.isBuffer(this.data) ? this.data : Buffer.concat(this.data as readonly Buffer[], this.bytes);
  }

  /** Deflates a long text kept as it is, when it shrinks enough; short ones are left to `packTogether`. */
  packAlone(): void {
    if (this.bytes < DEFLATE_FROM) return;
    const bytes = this.plainBytes();
    if (bytes === undefined) return;
    const middle = Math.max(0, Math.floor((bytes.length - SAMPLE_BYTES) / 2));
    if (bytes.length > 4 * SAMPLE_BYTES && !deflates(bytes.subarray(middle, middle + SAMPLE_BYTES))) return;
    const deflated = deflateRawSync(bytes, LEVEL);
    if (deflated.length > WORTH_IT * this.bytes) return;
    this.release();
    this.data = deflated;
    this.deflated = true;
  }

  /**
   * Deflates short texts kept as they are together, each then read from the block; the others are
   * left alone. A long text kept as it is did not deflate: joined, 32 of them (a megabyte each)
   * would hold the event loop for a deflate of 32 MB, for nothing.
   */
  static packTogether(texts: readonly PackedText[]): void {
    const plain = texts.filter((packed) => packed.bytes < DEFLATE_FROM && packed.plainBytes() !== undefined);
    const joined = Buffer.concat(plain.map((packed) => packed.plainBytes()!));
    const block = new Block(deflateRawSync(joined, LEVEL), joined.length);
    let at = 0;
    for (const packed of plain) {
      packed.data = block;
      packed.start = at;
      packed.end = at + packed.bytes;
      at += packed.bytes;
    }
  }

  get text(): string {
    return this.textOf(0, this.bytes);
  }

  /** The text of the bytes from `start` to `end`, which must lie between whole characters. */
  textOf(start: number, end: number): string {
    if (this.data instanceof Block) return this.data.bytes().toString('utf8', this.start + start, this.start + end);
    return (this.plainBytes() ?? inflateRawSync(this.data as Buffer)).toString('utf8', start, end);
  }

  /** What is really held: at most `bytes` (a block's bytes shared by its texts by length). */
  get heldBytes(): number {
    if (this.data instanceof Block) return Math.ceil((this.data.data.length * (this.end - this.start)) / Math.max(1, this.data.size));
    return this.deflated ? (this.data as Buffer).length : this.bytes;
  }
}
