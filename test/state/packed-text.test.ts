// Journal payloads are kept deflated when long and compressible, and always read back as written.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFLATE_FROM, PackedText } from '../../src/state/packed-text.js';

describe('packed text', () => {
  it('keeps a long JSON text deflated, counted at its full size, and reads it back exactly', () => {
    const text = JSON.stringify({ model: 'gpt-4o-mini', padding: 'x'.repeat(512 * 1024), note: 'café ✓ 🙂 "quoted" \\ \u2028' });
    const packed = PackedText.of(text);
    expect(packed.text).toBe(text);
    expect(packed.bytes).toBe(Buffer.byteLength(text));
    expect(packed.heldBytes).toBeLessThan(packed.bytes / 100);
  });

  it('keeps short texts and incompressible ones as they are', () => {
    const short = JSON.stringify({ content: 'hello' });
    const base64 = JSON.stringify({ image: randomBytes(300 * 1024).toString('base64') });
    for (const text of [short, base64]) {
      const packed = PackedText.of(text);
      expect(packed.text).toBe(text);
      expect(packed.heldBytes).toBe(packed.bytes);
      expect(packed.bytes).toBe(text.length);
    }
    expect(short.length).toBeLessThan(DEFLATE_FROM);
  });

  it('reads back a text built by concatenation, lone surrogates escaped by JSON.stringify', () => {
    let text = '[';
    for (let i = 0; i < 2000; i += 1) text += `${JSON.stringify({ i, s: `\ud800 ${i} é` })},`;
    text += 'null]';
    const packed = PackedText.of(text);
    expect(packed.heldBytes).toBeLessThan(packed.bytes);
    expect(packed.text).toBe(text);
  });

  it('packs short texts together, each read back exactly, alike texts to a fraction of their size', () => {
    const texts = Array.from({ length: 32 }, (_, i) =>
      JSON.stringify([{ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `question ${i} é 🙂` }] }, { status: 200, headers: { 'x-request-id': `req_${i}` }, body: { text: `answer ${i}` } }]),
    );
    const long = JSON.stringify({ padding: 'x'.repeat(100_000) });
    const packed = [...texts, long].map((text) => PackedText.of(text));
    PackedText.packTogether(packed);
    expect(packed.map((p) => p.text)).toEqual([...texts, long]);
    const held = packed.slice(0, 32).reduce((sum, p) => sum + p.heldBytes, 0);
    const counted = packed.slice(0, 32).reduce((sum, p) => sum + p.bytes, 0);
    expect(held).toBeLessThan(counted / 4);
    // Read out of order too: the block is inflated again.
    expect(packed[5]!.text).toBe(texts[5]);
    expect(packed[32]!.text).toBe(long);
  });

  it('leaves long texts that did not deflate out of a block, so packing 32 of them deflates nothing again', () => {
    const short = PackedText.of(JSON.stringify({ content: 'hello' }));
    const images = Array.from({ length: 32 }, () => PackedText.of(JSON.stringify({ image: randomBytes(300 * 1024).toString('base64') })));
    const texts = images.map((packed) => packed.text);
    PackedText.packTogether([short, ...images]);
    for (const [i, packed] of images.entries()) {
      expect(packed.heldBytes).toBe(packed.bytes);
      expect(packed.text).toBe(texts[i]);
    }
    expect(short.text).toBe(JSON.stringify({ content: 'hello' }));
  });
});
