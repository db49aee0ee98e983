// Media parts as the OpenAI-shaped styles send them: data URLs carry their type and payload,
// remote URLs only a guess at the type.
import type { Part } from '../conversation/types.js';

const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?,(.*)$/s;

export function urlPart(url: string, fallbackType = 'image/*'): Part {
  const data = DATA_URL.exec(url);
  if (data) return { kind: 'media', mimeType: data[1] ?? fallbackType, data: data[2] };
  return { kind: 'media', mimeType: fallbackType, url };
}
