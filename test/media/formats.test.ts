// The picture formats decoded by independent decoders: jpeg-js for JPEG, libwebp's own decoder for
// WebP, pngjs for PNG. Each must be a valid file of the asked size, the same picture in every
// format, and partial pictures rougher renderings of the final one.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import webpDecode, { init as initWebpDecoder } from '@jsquash/webp/decode.js';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { partialPictures, renderPictureAs, type PictureFormat } from '../../src/media/formats.js';
import type { Picture } from '../../src/media/images.js';
import { sniffImageType } from '../../src/media/png.js';

interface Decoded {
  width: number;
  height: number;
  data: Uint8Array;
}

async function decode(picture: Picture): Promise<Decoded> {
  if (picture.mimeType === 'image/jpeg') return jpeg.decode(picture.data, { useTArray: true });
  if (picture.mimeType === 'image/webp') {
    const bytes = picture.data.buffer.slice(picture.data.byteOffset, picture.data.byteOffset + picture.data.byteLength) as ArrayBuffer;
    const image = await webpDecode(bytes);
    return { width: image.width, height: image.height, data: new Uint8Array(image.data.buffer) };
  }
  const png = PNG.sync.read(picture.data);
  return { width: png.width, height: png.height, data: png.data };
}

/** Mean absolute difference of the colour channels, 0..255. */
function distance(a: Decoded, b: Decoded): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    sum += Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!);
  }
  return sum / ((a.data.length / 4) * 3);
}

const SIZE = { width: 160, height: 96 };
const FORMATS: PictureFormat[] = ['png', 'jpeg', 'webp'];

beforeAll(async () => {
  const wasm = await readFile(createRequire(import.meta.url).resolve('@jsquash/webp/codec/dec/webp_dec.wasm'));
  await initWebpDecoder({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer });
});

describe('renderPictureAs', () => {
  it.each(FORMATS)('gives a valid %s file of exactly the asked size, the same picture as the PNG', async (format) => {
    const picture = await renderPictureAs(SIZE, 'seed|a red fox|0', format);
    expect(picture.mimeType).toBe(`image/${format}`);
    expect(sniffImageType(picture.data)).toBe(`image/${format}`);
    const decoded = await decode(picture);
    expect({ width: decoded.width, height: decoded.height }).toEqual(SIZE);
    const png = await decode(await renderPictureAs(SIZE, 'seed|a red fox|0', 'png'));
    const other = await decode(await renderPictureAs(SIZE, 'seed|a blue whale|0', 'png'));
    // Lossy, yet far closer to its own picture than to another seed's.
    expect(distance(decoded, png)).toBeLessThan(4);
    expect(distance(other, png)).toBeGreaterThan(10);
  });

  it.each(['jpeg', 'webp'] as const)('honours output_compression in %s: lower gives a smaller, coarser file', async (format) => {
    const fine = await renderPictureAs(SIZE, 'seed|detail', format, 100);
    const coarse = await renderPictureAs(SIZE, 'seed|detail', format, 5);
    expect(coarse.data.length).toBeLessThan(fine.data.length);
    const reference = await decode(await renderPictureAs(SIZE, 'seed|detail', 'png'));
    expect(distance(await decode(coarse), reference)).toBeGreaterThan(distance(await decode(fine), reference));
  });
});

describe('partialPictures', () => {
  it.each(FORMATS)('renders %s partials at full size, each closer to the final picture than the one before', async (format) => {
    const partials = await partialPictures(SIZE, 'seed|a red fox|0', 3, format);
    expect(partials).toHaveLength(3);
    const final = await decode(await renderPictureAs(SIZE, 'seed|a red fox|0', 'png'));
    const decoded = await Promise.all(partials.map(decode));
    for (const partial of decoded) expect({ width: partial.width, height: partial.height }).toEqual(SIZE);
    const distances = decoded.map((partial) => distance(partial, final));
    expect(distances[0]).toBeGreaterThan(distances[1]!);
    expect(distances[1]).toBeGreaterThan(distances[2]!);
    expect(distances[2]).toBeGreaterThan(0);
    // Rough, but of the same picture: nearer to it than a picture of another seed is.
    const other = await decode(await renderPictureAs(SIZE, 'seed|a blue whale|0', 'png'));
    expect(distances[0]).toBeLessThan(distance(other, final));
  });

  it('gives none for zero partials', async () => {
    expect(await partialPictures(SIZE, 'seed', 0, 'png')).toEqual([]);
  });
});
