import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { pngSize, renderPng, sniffImageType } from '../../src/media/png.js';

describe('renderPng', () => {
  it.each([
    [1024, 1024],
    [1536, 1024],
    [1024, 1536],
    [1344, 768],
    [64, 64],
    [1, 1],
    [333, 77],
    [4096, 4096],
  ])('declares exactly %ix%i in its header', (width, height) => {
    expect(pngSize(renderPng(width, height, 'seed'))).toEqual({ width, height });
  });

  it('gives the same bytes for the same seed and different bytes for another', () => {
    const a = renderPng(256, 256, 'seed|a red fox|0');
    expect(renderPng(256, 256, 'seed|a red fox|0').equals(a)).toBe(true);
    expect(renderPng(256, 256, 'seed|a red fox|1').equals(a)).toBe(false);
    expect(renderPng(256, 256, 'other|a red fox|0').equals(a)).toBe(false);
  });

  // Sizes at and above 2048 paint one row in several and mark the rest as copies of the row
  // above, so one of those is decoded too; 2050 rows leaves a short run at the bottom.
  it.each([
    [512, 384],
    [300, 2050],
  ])('decodes with pngjs at %ix%i into a smooth picture, not a flat colour or noise', (width, height) => {
    const image = PNG.sync.read(renderPng(width, height, `smooth ${width}`));
    expect([image.width, image.height]).toEqual([width, height]);

    const { data } = image;
    const colours = new Set<number>();
    let opaque = true;
    let steepest = 0;
    for (let i = 0; i < data.length; i += 4) {
      colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
      opaque &&= data[i + 3] === 255;
      const left = i % (width * 4) === 0 ? i : i - 4;
      const above = i < width * 4 ? i : i - width * 4;
      for (let c = 0; c < 3; c++) {
        steepest = Math.max(steepest, Math.abs(data[i + c]! - data[left + c]!), Math.abs(data[i + c]! - data[above + c]!));
      }
    }
    expect(opaque).toBe(true);
    expect(colours.size).toBeGreaterThan(100);
    expect(steepest).toBeLessThanOrEqual(3);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a side of %s', (side) => {
    expect(() => renderPng(side, 10, 's')).toThrow(RangeError);
    expect(() => renderPng(10, side, 's')).toThrow(RangeError);
  });
});

describe('pngSize', () => {
  it('reads nothing from what is not a PNG header', () => {
    const png = renderPng(20, 10, 's');
    expect(pngSize(png.subarray(0, 23))).toBeUndefined();
    expect(pngSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Array(30).fill(0)]))).toBeUndefined();
    expect(pngSize(new Uint8Array())).toBeUndefined();
    const renamed = Buffer.from(png);
    renamed.write('IDAT', 12, 'latin1');
    expect(pngSize(renamed)).toBeUndefined();
  });

  it('reads a header at an offset into a larger buffer', () => {
    const png = renderPng(20, 10, 's');
    const bigger = new Uint8Array(png.length + 7);
    bigger.set(png, 7);
    expect(pngSize(bigger.subarray(7))).toEqual({ width: 20, height: 10 });
  });
});

describe('sniffImageType', () => {
  const bytes = (...parts: (string | number[])[]): Uint8Array =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

  it.each([
    ['image/png', renderPng(8, 8, 's')],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF')],
    ['image/webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ')],
    ['image/gif', bytes('GIF89a', [1, 0, 1, 0])],
    ['image/gif', bytes('GIF87a', [1, 0, 1, 0])],
  ])('recognises %s', (type, data) => {
    expect(sniffImageType(data)).toBe(type);
  });

  it.each([
    ['empty', bytes()],
    ['text', bytes('hello, world')],
    ['a WAV file', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ')],
    ['a truncated PNG signature', bytes([0x89, 0x50, 0x4e, 0x47])],
    ['GIF of an unknown version', bytes('GIF90a')],
  ])('recognises nothing in %s', (_name, data) => {
    expect(sniffImageType(data)).toBeUndefined();
  });
});
