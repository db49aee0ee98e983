// The images response (WIRE.md section 8): the pictures as `b64_json` or `url`, the size and
// quality they were made at, and usage split into text and image tokens.

export interface ImageUsage {
  textTokens: number;
  /** Tokens of the pictures sent to an edit. */
  imageInputTokens: number;
  outputTokens: number;
}

export interface ImageResult {
  createdMs: number;
  images: Array<{ b64: string } | { url: string }>;
  /** `WxH` of the pictures. */
  size: string;
  quality: string;
  background: string;
  usage: ImageUsage;
}

export function encodeImages(result: ImageResult): unknown {
  const { usage } = result;
  const input = usage.textTokens + usage.imageInputTokens;
  return {
    created: Math.floor(result.createdMs / 1000),
    data: result.images.map((image) => ('b64' in image ? { b64_json: image.b64 } : { url: image.url })),
    background: result.background,
    output_format: 'png',
    quality: result.quality,
    size: result.size,
    usage: {
      input_tokens: input,
      input_tokens_details: { text_tokens: usage.textTokens, image_tokens: usage.imageInputTokens },
      output_tokens: usage.outputTokens,
      output_tokens_details: { image_tokens: usage.outputTokens, text_tokens: 0 },
      total_tokens: input + usage.outputTokens,
    },
  };
}
