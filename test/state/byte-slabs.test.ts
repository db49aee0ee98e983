// Large journal payloads are kept in buffers used again once their entry has left the journal: a
// text still held reads as it was written, and a reader across turns never sees another's bytes.
import { describe, expect, it } from 'vitest';
import { holdSlabs, readIntoSlab } from '../../src/state/byte-slabs.js';
import { PackedText } from '../../src/state/packed-text.js';

const parts = (letter: string, bytes: number) => [Buffer.from('['), Buffer.from(letter.repeat(bytes)), Buffer.from(']')];

describe('byte slabs', () => {
  it('gives a released text\'s buffer to the next text, which reads as written', () => {
    const first = PackedText.joined(parts('a', 100_000));
    first.release();
    const second = PackedText.joined(parts('b', 100_001));
    expect(second.text).toBe(`[${'b'.repeat(100_001)}]`);
  });

  it('keeps a text released while a reader holds the journal until the reader is done', () => {
    const held = PackedText.joined(parts('c', 90_000));
    const done = holdSlabs();
    held.release();
    const meanwhile = PackedText.joined(parts('d', 90_000));
    expect(held.text).toBe(`[${'c'.repeat(90_000)}]`);
    expect(meanwhile.text).toBe(`[${'d'.repeat(90_000)}]`);
    done();
    done();
    const after = PackedText.joined(parts('e', 90_000));
    expect(after.text).toBe(`[${'e'.repeat(90_000)}]`);
    expect(meanwhile.text).toBe(`[${'d'.repeat(90_000)}]`);
  });

  it('keeps short texts in the chunks they came in', () => {
    const short = PackedText.joined(parts('f', 1000));
    short.release();
    expect(short.text).toBe(`[${'f'.repeat(1000)}]`);
  });

  it('keeps a body read into a slab in that very slab, and a cut one as a copy', () => {
    const chunks = [Buffer.from('{"a":"'), Buffer.from('g'.repeat(100_000)), Buffer.from('"}')];
    const body = readIntoSlab(chunks, 100_008);
    expect(body.toString()).toBe(`{"a":"${'g'.repeat(100_000)}"}`);
    const kept = PackedText.opened([body], Buffer.from(',null]'));
    expect(kept.text).toBe(`[{"a":"${'g'.repeat(100_000)}"},null]`);
    kept.release();
    // The slab given back is the body's own: the journal took no other.
    expect(readIntoSlab(chunks, 100_008).buffer).toBe(body.buffer);
    const cut = readIntoSlab(chunks, 100_008).subarray(1);
    expect(PackedText.opened([cut], Buffer.from(']')).text).toBe(`["a":"${'g'.repeat(100_000)}"}]`);
  });
});
