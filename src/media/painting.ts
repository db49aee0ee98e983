// The seeded picture every image reply shows: a linear gradient under a few soft glows, calm
// enough for a frontend preview and cheap enough to paint at 4096x4096. It is painted a row at a
// time, so each encoder (PNG, JPEG, WebP) takes the rows as it needs them. Colours come from a
// SHA-256 of the seed, never Math.random: the same seed gives the same picture on every run.
import { createHash } from 'node:crypto';

type Rgb = [number, number, number];

interface Glow {
  x: number;
  y: number;
  radius: number;
  strength: number;
  colour: Rgb;
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

/** Paints row `y` of the picture into `row` (RGB, 0..255 floats, width * 3 long). */
export type RowPainter = (y: number, row: Float64Array) => void;

export function painter(width: number, height: number, seed: string): RowPainter {
  const d = design(width, height, seed);
  return (y, row) => {
    paintGradient(row, width, (-width / 2) * d.dx + (y - height / 2) * d.dy + 0.5, d);
    for (const g of d.glows) addGlow(row, width, y, g);
  };
}

/**
 * The same picture, rougher: painted at 1/`factor` of its sides, then each of those pixels drawn
 * as a `factor` x `factor` block, as the early previews of an image stream look.
 */
export function roughPainter(width: number, height: number, seed: string, factor: number): RowPainter {
  const small = { width: Math.ceil(width / factor), height: Math.ceil(height / factor) };
  const paintSmall = painter(small.width, small.height, seed);
  const smallRow = new Float64Array(small.width * 3);
  let painted = -1;
  return (y, row) => {
    const sy = Math.floor(y / factor);
    if (sy !== painted) paintSmall(sy, smallRow);
    painted = sy;
    for (let x = 0; x < width; x++) {
      const from = Math.floor(x / factor) * 3;
      row[x * 3] = smallRow[from]!;
      row[x * 3 + 1] = smallRow[from + 1]!;
      row[x * 3 + 2] = smallRow[from + 2]!;
    }
  };
}

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

