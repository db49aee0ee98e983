// PNG bytes for image replies (the seeded picture of painting.ts, or any RGBA raster), and the
// few byte-level checks uploads need.
import { promisify } from 'node:util';
import { constants, crc32, deflate, deflateSync } from 'node:zlib';
import { Slice } from '../state/event-loop.js';
import { painter, type RowPainter } from './painting.js';

const deflated = promisify(deflate);

/**
 * An RGB PNG of exactly width x height. The seed decides everything, so callers pass what should
 * tell pictures apart (e.g. `${seed}|${prompt}|${index}` for the n images of one request).
 */
export function renderPng(width: number, height: number, seed: string): Buffer {
  return encodePng(width, height, painter(width, height, seed), repeatOf(width, height));
}

/**
 * The same bytes as `renderPng`, painted a slice at a time and deflated off the event loop: a
 * 4096x4096 picture held every session for over a second in one turn.
 */
export async function paintPng(width: number, height: number, seed: string): Promise<Buffer> {
  const repeat = repeatOf(width, height);
  const paint = painter(width, height, seed);
  const lines = scanlineBuffer(width, height);
  const row = new Float64Array(width * 3);
  const slice = new Slice();
  for (let y = 0; y < height; y++) {
    if (slice.over) await slice.next();
    scanline(lines, width, y, row, paint, repeat);
  }
  return pngOf(width, height, await deflated(lines, DEFLATE));
}

/**
 * Neighbouring rows of a gradient this soft differ by a fraction of a colour level, so big images
 * paint one row in `repeat` and mark the rest as copies: a quarter of the work at 4K, nothing
 * visible, and runs of zeros that deflate almost for free.
 */
function repeatOf(width: number, height: number): number {
  if (!isSide(width) || !isSide(height)) {
    throw new RangeError(`PNG sides must be positive integers, got ${width}x${height}`);
  }
  return Math.max(1, Math.floor(Math.max(width, height) / 1024));
}

/** A PNG of any painted rows; with `repeat` n, only every n-th row is painted and the rest copy it. */
export function encodePng(width: number, height: number, paint: RowPainter, repeat = 1): Buffer {
  return encodeRgb(width, height, scanlines(width, height, paint, repeat));
}

function isSide(n: number): boolean {
  return Number.isInteger(n) && n > 0;
}

// The picture is written straight as PNG scanlines (a filter byte, then the row) rather than
// through pngjs's encoder, whose per-byte filter pass alone costs more than the painting.
function scanlines(width: number, height: number, paint: RowPainter, repeat: number): Buffer {
  const out = scanlineBuffer(width, height);
  const row = new Float64Array(width * 3);
  for (let y = 0; y < height; y++) scanline(out, width, y, row, paint, repeat);
  return out;
}

/** Zeroed, so a row that repeats the one above is complete once its filter byte says Up. */
const scanlineBuffer = (width: number, height: number): Buffer => Buffer.alloc((width * 3 + 1) * height);

/** Row `y`: painted (in `row`) and written, or marked as a copy of the one above. */
function scanline(out: Buffer, width: number, y: number, row: Float64Array, paint: RowPainter, repeat: number): void {
  const start = y * (width * 3 + 1);
  if (y % repeat !== 0) {
    out[start] = FILTER_UP;
    return;
  }
  paint(y, row);
  writeSubRow(out, start, row);
}

const FILTER_SUB = 1;
const FILTER_UP = 2;

/** Sub filter: each byte minus the same channel one pixel left, small numbers on a gradient. */
function writeSubRow(out: Buffer, start: number, row: Float64Array): void {
  out[start] = FILTER_SUB;
  let pr = 0;
  let pg = 0;
  let pb = 0;
  for (let i = 0, o = start + 1; i < row.length; i += 3, o += 3) {
    const r = (row[i]! + 0.5) | 0;
    const g = (row[i + 1]! + 0.5) | 0;
    const b = (row[i + 2]! + 0.5) | 0;
    // A Uint8Array store wraps negatives modulo 256, which is exactly the filter's arithmetic.
    out[o] = r - pr;
    out[o + 1] = g - pg;
    out[o + 2] = b - pb;
    pr = r;
    pg = g;
    pb = b;
  }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

// 8-bit RGB, no alpha or palette: a header every decoder reads. Run-length deflate suits rows of
// small repeating differences and zeroed copies; measured, it is faster and smaller than plain
// level 1 here, and level 6 costs several times the time for a few percent.
const DEFLATE = { level: 1, strategy: constants.Z_RLE };

function encodeRgb(width: number, height: number, scanlines: Buffer): Buffer {
  return pngOf(width, height, deflateSync(scanlines, DEFLATE));
}

/** The PNG around deflated scanlines. */
function pngOf(width: number, height: number, idat: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // colour type RGB; compression, filter and interlace stay 0
  return Buffer.concat([
    Buffer.from(PNG_SIGNATURE),
    ...chunk('IHDR', header),
    ...chunk('IDAT', idat),
    ...chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, body: Buffer): Buffer[] {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body, crc32(head.subarray(4))), 0);
  return [head, body, crc];
}

/** Width and height from the IHDR chunk, which the PNG format requires to come first. */
export function pngSize(data: Uint8Array): { width: number; height: number } | undefined {
  if (data.length < 24 || !startsWith(data, PNG_SIGNATURE) || ascii(data, 12, 4) !== 'IHDR') return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** The image type from magic bytes; uploads are judged by content, not by their claimed type. */
export function sniffImageType(data: Uint8Array): 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | undefined {
  if (startsWith(data, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 4) === 'WEBP') return 'image/webp';
  const gif = ascii(data, 0, 6);
  if (gif === 'GIF87a' || gif === 'GIF89a') return 'image/gif';
  return undefined;
}

function startsWith(data: Uint8Array, bytes: readonly number[]): boolean {
  return data.length >= bytes.length && bytes.every((b, i) => data[i] === b);
}

function ascii(data: Uint8Array, offset: number, length: number): string {
  if (data.length < offset + length) return '';
  return String.fromCharCode(...data.subarray(offset, offset + length));
}
