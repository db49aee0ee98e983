// A picture in the file format a client asked for (`output_format` png, jpeg or webp, with
// `output_compression`), and the rougher previews an image stream sends before it. Pure apart
// from the WebP codec's one-time load of its wasm file.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import webpEncode, { init as initWebp } from '@jsquash/webp/encode.js';
import { atFirstUse } from '../conversation/first-use.js';
import { renderPicture, type Picture } from './images.js';
import { painter, roughPainter, type RowPainter } from './painting.js';
import { rendered } from './picture-cache.js';
import { encodePng } from './png.js';
import type { Size } from './sizes.js';

/** jpeg-js, loaded with the first JPEG asked for. */
const jpegPackage = atFirstUse<typeof import('jpeg-js')>('jpeg-js');

export const PICTURE_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type PictureFormat = (typeof PICTURE_FORMATS)[number];

const MIME_TYPES: Record<PictureFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** RGBA bytes, as both lossy encoders take them. */
function rgbaOf({ width, height }: Size, paint: RowPainter): Uint8ClampedArray {
  const data = new Uint8ClampedArray(width * height * 4);
  const row = new Float64Array(width * 3);
  for (let y = 0; y < height; y++) {
    paint(y, row);
    for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
      data[o] = row[x * 3]!;
      data[o + 1] = row[x * 3 + 1]!;
      data[o + 2] = row[x * 3 + 2]!;
      data[o + 3] = 255;
    }
  }
  return data;
}

// Node reaches no URL the codec could fetch its wasm from, so it is read from the package once.
// Node 20 has wasm SIMD, which makes the codec pick its SIMD build: the binary must be that one.
let webpReady: Promise<unknown> | undefined;
function loadWebp(): Promise<unknown> {
  webpReady ??= readFile(createRequire(import.meta.url).resolve('@jsquash/webp/codec/enc/webp_enc_simd.wasm')).then((binary) =>
    initWebp({ wasmBinary: binary.buffer.slice(binary.byteOffset, binary.byteOffset + binary.byteLength) as ArrayBuffer }),
  );
  return webpReady;
}

/**
 * `compression` is the vendor's `output_compression` (0-100, default 100), which reads as the
 * encoder's quality: 100 keeps the most detail, lower values give smaller files. PNG ignores it.
 */
async function encode(size: Size, paint: RowPainter, format: PictureFormat, compression: number): Promise<Buffer> {
  if (format === 'png') return encodePng(size.width, size.height, paint);
  const data = rgbaOf(size, paint);
  if (format === 'jpeg') return jpegPackage().encode({ data, width: size.width, height: size.height }, compression).data;
  await loadWebp();
  // Method 0 is libwebp's fastest: a 1024x1024 picture in a tenth of a second instead of most of one.
  const bytes = await webpEncode({ data, width: size.width, height: size.height, colorSpace: 'srgb' }, { quality: compression, method: 0 });
  return Buffer.from(bytes);
}

export async function renderPictureAs(size: Size, seed: string, format: PictureFormat, compression = 100): Promise<Picture> {
  // The PNG path paints fewer rows on big pictures (see renderPng), so it keeps its own entry.
  if (format === 'png') return renderPicture(size, seed);
  const key = `${format}|${compression}|${size.width}x${size.height}|${seed}`;
  return rendered(key, async () => ({ mimeType: MIME_TYPES[format], data: await encode(size, painter(size.width, size.height, seed), format, compression), size }));
}

/**
 * The `count` partial pictures of a stream, roughest first: each is the final picture painted at
 * a fraction of its sides (1/16, 1/8, 1/4 for three) and shown at full size, in the same format.
 */
export async function partialPictures(size: Size, seed: string, count: number, format: PictureFormat, compression = 100): Promise<Picture[]> {
  const pictures: Picture[] = [];
  for (let index = 0; index < count; index++) {
    const factor = 2 ** (count - index + 1);
    const data = await encode(size, roughPainter(size.width, size.height, seed, factor), format, compression);
    pictures.push({ mimeType: MIME_TYPES[format], data, size });
  }
  return pictures;
}
