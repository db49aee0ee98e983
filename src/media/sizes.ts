// Which size strings clients may send for images and videos, and the pixels each one means.
// Every function throws a plain Error whose message lists the accepted forms; the caller knows
// which field it read and turns that into a 400 naming it.

export interface Size {
  width: number;
  height: number;
}

export interface VideoSize extends Size {
  /** The canonical "WxH" string the task object echoes back. */
  size: string;
}

const MIN_SIDE = 64;
const MAX_SIDE = 4096;

/** OpenAI image sizes: any "WxH" within 64..4096 (real models accept fewer), or "auto". */
export function parseImageSize(size: string | undefined, defaultSize = '1024x1024'): Size {
  const value = size ?? defaultSize;
  if (value === 'auto') return { width: 1024, height: 1024 };
  const parsed = parseWxH(value);
  if (!parsed || !inRange(parsed.width) || !inRange(parsed.height)) {
    throw new Error(
      `expected "auto" or WIDTHxHEIGHT with whole numbers from ${MIN_SIDE} to ${MAX_SIDE} ` +
        `(e.g. "1024x1024", "1536x1024"), got ${JSON.stringify(value)}`,
    );
  }
  return parsed;
}

/**
 * Pixels of all the pictures of one answer: one picture of the largest size (4096x4096, or
 * Gemini's 4K), or ten of the vendors' usual sizes. Painting costs about 80 ns a pixel, so 128
 * pictures at 4K held every session for half a minute and answered 90 MB.
 */
export const MAX_ANSWER_PIXELS = MAX_SIDE * MAX_SIDE;

/** Refuses `count` pictures of `size` when together they pass MAX_ANSWER_PIXELS. */
export function checkPictureCount(count: number, size: Size): void {
  const pixels = count * size.width * size.height;
  if (pixels <= MAX_ANSWER_PIXELS) return;
  throw new Error(
    `${count} pictures of ${size.width}x${size.height} are ${pixels} pixels; an answer may hold at most ${MAX_ANSWER_PIXELS} ` +
      `(at this size, at most ${Math.max(1, Math.floor(MAX_ANSWER_PIXELS / (size.width * size.height)))} pictures)`,
  );
}

function parseWxH(value: string): Size | undefined {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(value);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}

function inRange(side: number): boolean {
  return side >= MIN_SIDE && side <= MAX_SIDE;
}

// Gemini's published pixel table for its image models at 1K; 2K and 4K scale it exactly.
const GEMINI_1K = new Map<string, Size>([
  ['1:1', { width: 1024, height: 1024 }],
  ['16:9', { width: 1344, height: 768 }],
  ['9:16', { width: 768, height: 1344 }],
  ['4:3', { width: 1184, height: 864 }],
  ['3:4', { width: 864, height: 1184 }],
  ['3:2', { width: 1248, height: 832 }],
  ['2:3', { width: 832, height: 1248 }],
  ['5:4', { width: 1152, height: 896 }],
  ['4:5', { width: 896, height: 1152 }],
  ['21:9', { width: 1536, height: 672 }],
]);
// Upper-case K only, as the vendor documents: it rejects "1k".
const GEMINI_SCALE = new Map([
  ['1K', 1],
  ['2K', 2],
  ['4K', 4],
]);

export const GEMINI_ASPECT_RATIOS: readonly string[] = [...GEMINI_1K.keys()];
export const GEMINI_IMAGE_SIZES: readonly string[] = [...GEMINI_SCALE.keys()];

/** `imageConfig.aspectRatio` and `imageConfig.imageSize` (or their snake_case twins) to pixels. */
export function geminiImageSize(aspectRatio = '1:1', imageSize = '1K'): Size {
  const base = GEMINI_1K.get(aspectRatio);
  if (!base) {
    throw new Error(`aspect ratio must be one of ${GEMINI_ASPECT_RATIOS.join(', ')}; got ${JSON.stringify(aspectRatio)}`);
  }
  const scale = GEMINI_SCALE.get(imageSize);
  if (scale === undefined) {
    throw new Error(`image size must be one of ${GEMINI_IMAGE_SIZES.join(', ')}; got ${JSON.stringify(imageSize)}`);
  }
  return { width: base.width * scale, height: base.height * scale };
}

// OpenAI's video sizes, and the ratio/resolution pairs gateways take for other video vendors.
const OPENAI_VIDEO_SIZES = ['720x1280', '1280x720', '1024x1792', '1792x1024'];
const VIDEO_RATIOS = new Map<string, [number, number]>([
  ['16:9', [16, 9]],
  ['9:16', [9, 16]],
  ['1:1', [1, 1]],
  ['4:3', [4, 3]],
  ['3:4', [3, 4]],
]);
const VIDEO_RESOLUTIONS = new Map([
  ['480p', 480],
  ['720p', 720],
  ['1080p', 1080],
]);
// Every size a `size` field may name: OpenAI's, then each ratio at each resolution.
const VIDEO_SIZES: readonly string[] = [
  ...new Set([
    ...OPENAI_VIDEO_SIZES,
    ...[...VIDEO_RATIOS.values()].flatMap((shape) => [...VIDEO_RESOLUTIONS.values()].map((s) => frame(shape, s).size)),
  ]),
];

/**
 * A video task's frame size. `size` wins when given; otherwise `ratio` and `resolution` (each
 * defaulting to 16:9 and 720p when only the other is sent); with neither, 1280x720. A `size`
 * may be an OpenAI size or any size a ratio and resolution produce, so "1920x1080" works too.
 */
export function videoSize(size?: string, ratio?: string, resolution?: string): VideoSize {
  if (size !== undefined) {
    const parsed = VIDEO_SIZES.includes(size) ? parseWxH(size) : undefined;
    if (!parsed) throw new Error(`size must be one of ${VIDEO_SIZES.join(', ')}; got ${JSON.stringify(size)}`);
    return { ...parsed, size };
  }
  if (ratio === undefined && resolution === undefined) return { width: 1280, height: 720, size: '1280x720' };

  const shape = VIDEO_RATIOS.get(ratio ?? '16:9');
  if (!shape) {
    throw new Error(`ratio must be one of ${[...VIDEO_RATIOS.keys()].join(', ')}; got ${JSON.stringify(ratio)}`);
  }
  // Vendors differ on "1080P" versus "1080p"; both mean the same short side.
  const short = VIDEO_RESOLUTIONS.get((resolution ?? '720p').toLowerCase());
  if (short === undefined) {
    throw new Error(
      `resolution must be one of ${[...VIDEO_RESOLUTIONS.keys()].join(', ')}; got ${JSON.stringify(resolution)}`,
    );
  }
  return frame(shape, short);
}

// The short side is the resolution; the long side is rounded to an even number because H.264's
// 4:2:0 chroma needs even sides (16:9 at 480p is 854x480, not 853x480).
function frame([w, h]: [number, number], short: number): VideoSize {
  const long = Math.round((short * Math.max(w, h)) / Math.min(w, h) / 2) * 2;
  const width = w >= h ? long : short;
  const height = w >= h ? short : long;
  return { width, height, size: `${width}x${height}` };
}
