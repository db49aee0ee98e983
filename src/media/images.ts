// Pictures for image replies: rendered from a seed, or taken from a fixture's file, and what
// they cost in tokens. The same prompt, seed and index always give the same picture.
import { rendered } from './picture-cache.js';
import { paintPng, pngSize, sniffImageType } from './png.js';
import type { Size } from './sizes.js';

export interface Picture {
  mimeType: string;
  data: Buffer;
  /** Known for PNGs, which is everything the mock renders. */
  size?: Size;
}

/** What tells the n pictures of one request apart, and keeps them the same from run to run. */
export function pictureSeed(seed: number, prompt: string, index: number, extra = ''): string {
  return `${seed}|${prompt}|${index}${extra ? `|${extra}` : ''}`;
}

export function renderPicture(size: Size, seed: string): Promise<Picture> {
  return rendered(`png|${size.width}x${size.height}|${seed}`, async () => ({ mimeType: 'image/png', data: await paintPng(size.width, size.height, seed), size }));
}

/** A fixture file as a picture; undefined when its bytes are not a PNG, JPEG, WebP or GIF. */
export function filePicture(data: Buffer): Picture | undefined {
  const mimeType = sniffImageType(data);
  return mimeType && { mimeType, data, size: pngSize(data) };
}

// gpt-image-1's published output tokens for a 1024x1024 picture; other sizes scale by area.
const OUTPUT_TOKENS_1024: Record<string, number> = { low: 272, medium: 1056, high: 4160 };

export function imageOutputTokens(size: Size, quality: string): number {
  const base = OUTPUT_TOKENS_1024[quality] ?? OUTPUT_TOKENS_1024.high!;
  return Math.round((base * size.width * size.height) / (1024 * 1024));
}

/** Input tokens of one picture sent to an edit, a flat figure near what vendors bill at 1024x1024. */
export const INPUT_IMAGE_TOKENS = 323;

/** Output tokens of one picture made by a chat model (the Gemini image models' flat figure). */
export const CHAT_IMAGE_TOKENS = 1290;
