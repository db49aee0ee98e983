// Synthetic PNGs for image replies, and the few byte-level checks uploads need.
// A picture is a seeded linear gradient under a few soft glows: calm enough for a frontend
// preview, cheap enough that a 4096x4096 reply costs a fraction of a second, and the same bytes
// for the same seed on every run (colours come from a SHA-256 of the seed, never Math.random).

import { createHash } from 'node:crypto';
import { constants, crc32, deflateSync } from 'node:zlib';

type Rgb = [number, number, number];

interface Glow {
  x: number;
  y: number;
  radius: number;
  strength: number;
  colour: Rgb;
}

/**
 * An RGB PNG of exactly width x height. The seed decides everything, so callers pass what should
 * tell pictures apart (e.g. `${seed}|${prompt}|${index}` for the n images of one request).
 */
export function renderPng(width: number, height: number, seed: string): Buffer {
  if (!isSide(width) || !isSide(height)) {
    throw new RangeError(`PNG sides must be positive integers, got ${width}x${height}`);
  }
  return encodeRgb(width, height, scanlines(width, height, design(width, height, seed)));
}

function isSide(n: number): boolean {
  return Number.isInteger(n) && n > 0;
}

interface Design {
  from: Rgb;
  to: Rgb;
  /** The gradient's direction, scaled so t runs 0..1 from one corner to the opposite one. */
  dx: number;
  dy: number;
  glows: Glow[];
}

function design(width: number, height: number, seed: string): Design {
  const digest = createHash('sha256').update(seed).digest();
  // Sixteen fractions in [0, 1), two bytes each: every visual choice below reads one.
  const u = (i: number): number => digest.readUInt16BE(i * 2) / 65536;

  // Neighbouring hues for the gradient and a near-complement for the glows: harmonious at any seed.
  const hue = u(0) * 360;
  const saturation = 0.55 + u(1) * 0.25;
  const from = hsl(hue, saturation, 0.6);
  const to = hsl(hue + 40 + u(2) * 80, saturation, 0.42 + u(3) * 0.1);
  const accent = hsl(hue + 150 + u(4) * 60, saturation, 0.72);

  const angle = u(5) * 2 * Math.PI;
  const extent = Math.abs(width * Math.cos(angle)) + Math.abs(height * Math.sin(angle));
  const reach = Math.hypot(width, height) / 2;
  const glow = (x: number, y: number, size: number, colour: Rgb): Glow => ({
    x: (0.1 + x * 0.8) * width,
    y: (0.1 + y * 0.8) * height,
    radius: (0.3 + size * 0.35) * reach,
    strength: 0.45 + u(15) * 0.3,
    colour,
  });
  return {
    from,
    to,
    dx: Math.cos(angle) / extent,
    dy: Math.sin(angle) / extent,
    glows: [
      glow(u(6), u(7), u(8), accent),
      glow(u(9), u(10), u(11), tint(from)),
      glow(u(12), u(13), u(14), tint(accent)),
    ],
  };
}

// The picture is written straight as PNG scanlines (a filter byte, then the row) rather than
// through pngjs's encoder, whose per-byte filter pass alone costs more than the painting.
function scanlines(width: number, height: number, d: Design): Buffer {
  const stride = width * 3 + 1;
  // Zeroed, so a row that repeats the one above is complete once its filter byte says Up.
  const out = Buffer.alloc(stride * height);
  // Neighbouring rows of a gradient this soft differ by a fraction of a colour level, so big
  // images paint one row in `repeat` and mark the rest as copies: a quarter of the work at 4K,
  // nothing visible, and runs of zeros that deflate almost for free.
  const repeat = Math.max(1, Math.floor(Math.max(width, height) / 1024));
  const row = new Float64Array(width * 3);
  for (let y = 0; y < height; y++) {
    if (y % repeat !== 0) {
      out[y * stride] = FILTER_UP;
      continue;
    }
    paintGradient(row, width, (-width / 2) * d.dx + (y - height / 2) * d.dy + 0.5, d);
    for (const g of d.glows) addGlow(row, width, y, g);
    writeSubRow(out, y * stride, row);
  }
  return out;
}

const FILTER_SUB = 1;
const FILTER_UP = 2;

/** Along a row the gradient is linear in x, so each channel is a running sum. */
function paintGradient(row: Float64Array, width: number, t0: number, d: Design): void {
  const { from, to } = d;
  let r = from[0] + (to[0] - from[0]) * t0;
  let g = from[1] + (to[1] - from[1]) * t0;
  let b = from[2] + (to[2] - from[2]) * t0;
  const dr = (to[0] - from[0]) * d.dx;
  const dg = (to[1] - from[1]) * d.dx;
  const db = (to[2] - from[2]) * d.dx;
  for (let i = 0; i < width * 3; i += 3) {
    row[i] = r;
    row[i + 1] = g;
    row[i + 2] = b;
    r += dr;
    g += dg;
    b += db;
  }
}

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

// A glow fades as (1 - d²/r²)², smooth at its rim, so only the span of the row inside the
// circle is touched and no square root is needed per pixel.
function addGlow(row: Float64Array, width: number, y: number, g: Glow): void {
  const dy2 = (y - g.y) ** 2;
  const r2 = g.radius * g.radius;
  if (dy2 >= r2) return;
  const span = Math.sqrt(r2 - dy2);
  const x0 = Math.max(0, Math.ceil(g.x - span));
  const x1 = Math.min(width - 1, Math.floor(g.x + span));
  const [r, gr, b] = g.colour;
  for (let x = x0; x <= x1; x++) {
    const f = 1 - ((x - g.x) ** 2 + dy2) / r2;
    const a = g.strength * f * f;
    const i = x * 3;
    row[i] = row[i]! + (r - row[i]!) * a;
    row[i + 1] = row[i + 1]! + (gr - row[i + 1]!) * a;
    row[i + 2] = row[i + 2]! + (b - row[i + 2]!) * a;
  }
}

/** Half way to white: a lighter glow of a colour already in the picture. */
function tint([r, g, b]: Rgb): Rgb {
  return [r + (255 - r) * 0.5, g + (255 - g) * 0.5, b + (255 - b) * 0.5];
}

function hsl(hue: number, s: number, l: number): Rgb {
  const h = (((hue % 360) + 360) % 360) / 60;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const m = l - c / 2;
  const [r, g, b]: Rgb =
    h < 1 ? [c, x, 0] : h < 2 ? [x, c, 0] : h < 3 ? [0, c, x] : h < 4 ? [0, x, c] : h < 5 ? [x, 0, c] : [c, 0, x];
  return [(r + m) * 255, (g + m) * 255, (b + m) * 255];
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

// 8-bit RGB, no alpha or palette: a header every decoder reads. Run-length deflate suits rows of
// small repeating differences and zeroed copies; measured, it is faster and smaller than plain
// level 1 here, and level 6 costs several times the time for a few percent.
function encodeRgb(width: number, height: number, scanlines: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // colour type RGB; compression, filter and interlace stay 0
  return Buffer.concat([
    Buffer.from(PNG_SIGNATURE),
    ...chunk('IHDR', header),
    ...chunk('IDAT', deflateSync(scanlines, { level: 1, strategy: constants.Z_RLE })),
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
