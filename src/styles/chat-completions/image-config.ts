// Image output asked of the chat-completions style: `extra_body.<vendor>.image_config` with
// snake_case `aspect_ratio` and `image_size` (also accepted without the `extra_body` wrapper,
// which the JS SDKs cannot send), or `modalities` naming `image`. camelCase spellings are refused
// as the gateway refuses them, naming the snake_case key to use.
import { invalid } from '../../conversation/errors.js';
import type { ImageOutputRequest } from '../../conversation/types.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

const SNAKE: Record<string, string> = { imageConfig: 'image_config', aspectRatio: 'aspect_ratio', imageSize: 'image_size' };

/** The first vendor block in `scope` that holds an image config, and its path. */
function blockIn(scope: Json, prefix: string): { block: Json; path: string } | undefined {
  for (const vendor in scope) {
    const block = scope[vendor];
    if (isObject(block) && ('image_config' in block || 'imageConfig' in block)) return { block, path: `${prefix}${vendor}` };
  }
  return undefined;
}

/** The vendor block that holds an image config, and its path: under extra_body first, then at the top. */
function vendorBlock(body: Json): { block: Json; path: string } | undefined {
  // Read on every chat request: a loop over keys, no arrays of scopes or entries made.
  return (isObject(body.extra_body) ? blockIn(body.extra_body, 'extra_body.') : undefined) ?? blockIn(body, '');
}

function refuseCamel(object: Json, path: string): void {
  for (const key of Object.keys(object)) {
    const snake = SNAKE[key];
    if (snake) throw invalid(`'${path}.${key}' is not supported, use '${path}.${snake}' instead.`, `${path}.${key}`);
  }
}

function text(config: Json, key: string, path: string): string | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`Invalid value for '${path}.${key}': expected a string.`, `${path}.${key}`);
  return value;
}

const NO_MODALITIES: readonly unknown[] = [];

export function imageOutputOf(body: Json): ImageOutputRequest | undefined {
  const modalities: readonly unknown[] = Array.isArray(body.modalities) ? body.modalities : NO_MODALITIES;
  const withText = modalities.includes('text');
  const found = vendorBlock(body);
  if (!found) return modalities.includes('image') ? { withText } : undefined;
  refuseCamel(found.block, found.path);
  const path = `${found.path}.image_config`;
  const config = found.block.image_config;
  if (!isObject(config)) throw invalid(`Invalid value for '${path}': expected an object.`, path);
  refuseCamel(config, path);
  return {
    aspectRatio: text(config, 'aspect_ratio', path),
    imageSize: text(config, 'image_size', path),
    withText,
    fields: { aspectRatio: `${path}.aspect_ratio`, imageSize: `${path}.image_size` },
  };
}
