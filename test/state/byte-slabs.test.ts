// Large journal payloads are kept in buffers used again once their entry has left the journal: a
// text still held reads as it was written, and a reader across turns never sees another's bytes.
import { describe, expect, it } from 'vitest';
import { holdSlabs, readIntoSlab } from '../../src/state/byte-slabs.js';
import { PackedText } from '../../src/state/packed-text.js';

/** A payload of a body of `bytes` of `letter` (in two chunks, as a socket gives it) and no response. */
const payload = (letter: string, bytes: number) => PackedText.opened([Buffer.from(letter.repeat(bytes >> 1)), Buffer.from(letter.repeat(bytes - (bytes >> 1)))], 'null');

describe('byte slabs', () => {
  it('gives a released text\'s buffer to the next text, which reads as written', () => {
    const first = payload('a', 100_000);
    first.release();
    const second = payload('b', 100_001);
    expect(second.text).toBe(`[${'b'.repeat(100_001)},null]`);
  });

  it('keeps a text released while a reader holds the journal until the reader is done', () => {
    const held = payload('c', 90_000);
    const done = holdSlabs();
    held.release();
    const meanwhile = payload('d', 90_000);
    expect(held.text).toBe(`[${'c'.repeat(90_000)},null]`);
    expect(meanwhile.text).toBe(`[${'d'.repeat(90_000)},null]`);
    done();
    done();
    const after = payload('e', 90_000);
    expect(after.text).toBe(`[${'e'.repeat(90_000)},null]`);
    expect(meanwhile.text).toBe(`[${'d'.repeat(90_000)},null]`);
  });

  it('keeps a short payload in a buffer of its own, not in the socket\'s chunks', () => {
    const chunks = [Buffer.from('{"q":"'), Buffer.from('ä€😀"}')];
    const short = PackedText.opened(chunks, '{"a":"ü€😀"}');
    // The socket's buffers are not the journal's: what becomes of them later is not its entry's.
    chunks[1]!.fill(0x20);
    short.release();
    expect(short.text).toBe('[{"q":"ä€😀"},{"a":"ü€😀"}]');
    expect(short.bytes).toBe(Buffer.byteLength('[{"q":"ä€😀"},{"a":"ü€😀"}]'));
  });

  it('keeps a body read into a slab in that very slab, and a cut one as a copy', () => {
    const chunks = [Buffer.from('{"a":"'), Buffer.from('g'.repeat(100_000)), Buffer.from('"}')];
    const body = readIntoSlab(chunks, 100_008);
    expect(body.toString()).toBe(`{"a":"${'g'.repeat(100_000)}"}`);
    const kept = PackedText.opened([body], 'null');
    expect(kept.text).toBe(`[{"a":"${'g'.repeat(100_000)}"},null]`);
    kept.release();
    // The slab given back is the body's own: the journal took no other.
    expect(readIntoSlab(chunks, 100_008).buffer).toBe(body.buffer);
    const cut = readIntoSlab(chunks, 100_008).subarray(1);
    expect(PackedText.opened([cut], 'null').text).toBe(`["a":"${'g'.repeat(100_000)}"},null]`);
  });
});
