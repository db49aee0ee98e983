// The images response (WIRE.md section 8): the pictures as `b64_json` or `url`, the size and
// quality they were made at, and usage split into text and image tokens; streamed, each picture
// as its partial-image events and then its completed event.
import type { StreamEvent } from '../../conversation/plan.js';

export interface ImageUsage {
  textTokens: number;
  /** Tokens of the pictures sent to an edit. */
  imageInputTokens: number;
  outputTokens: number;
}

/** What every picture of one answer shares. */
export interface ImageSettings {
  createdMs: number;
  /** `WxH` of the pictures. */
  size: string;
  quality: string;
  background: string;
  outputFormat: string;
}

export interface ImageResult extends ImageSettings {
  images: Array<{ b64: string } | { url: string }>;
  usage: ImageUsage;
}

function usageOf(usage: ImageUsage) {
  const input = usage.textTokens + usage.imageInputTokens;
  return {
    input_tokens: input,
    input_tokens_details: { text_tokens: usage.textTokens, image_tokens: usage.imageInputTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { image_tokens: usage.outputTokens, text_tokens: 0 },
    total_tokens: input + usage.outputTokens,
  };
}

export function encodeImages(result: ImageResult): unknown {
  return {
    created: Math.floor(result.createdMs / 1000),
    data: result.images.map((image) => ('b64' in image ? { b64_json: image.b64 } : { url: image.url })),
    background: result.background,
    output_format: result.outputFormat,
    quality: result.quality,
    size: result.size,
    usage: usageOf(result.usage),
  };
}

/** A variation answers the pictures alone, as the vendor's variations endpoint does. */
export function encodeVariations(result: Pick<ImageResult, 'createdMs' | 'images'>): unknown {
  return {
    created: Math.floor(result.createdMs / 1000),
    data: result.images.map((image) => ('b64' in image ? { b64_json: image.b64 } : { url: image.url })),
  };
}

export interface StreamedPicture {
  /** The rougher previews, roughest first, base64. */
  partials: string[];
  final: string;
}

/**
 * The events of an image stream (`image_generation.*`, or `image_edit.*` for edits): for each
 * picture its partial images numbered from 0, then its completed event with the request's usage.
 */
export function imageStreamEvents(kind: 'image_generation' | 'image_edit', settings: ImageSettings, pictures: StreamedPicture[], usage: ImageUsage): StreamEvent[] {
  const shared = {
    background: settings.background,
    created_at: Math.floor(settings.createdMs / 1000),
    output_format: settings.outputFormat,
    quality: settings.quality,
    size: settings.size,
  };
  const event = (type: string, fields: Record<string, unknown>): StreamEvent => ({ event: type, data: { type, ...fields, ...shared }, paced: true });
  return pictures.flatMap((picture) => [
    ...picture.partials.map((b64, index) => event(`${kind}.partial_image`, { b64_json: b64, partial_image_index: index })),
    event(`${kind}.completed`, { b64_json: picture.final, usage: usageOf(usage) }),
  ]);
}
