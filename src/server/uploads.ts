// Multipart uploads as the media handlers use them (the body parser keeps files in memory, never
// in the temp directory). Field names lose the array brackets SDKs add (`image[]` is `image`).
import type { Context } from 'koa';
import { unflattenForm } from '../styles/form.js';
import { uploadedBytes } from './body.js';

export interface Upload {
  filename: string;
  data: Buffer;
}

interface ParsedFile {
  originalFilename?: string | null;
}

function baseName(field: string): string {
  return field.replace(/\[\d*\]$/, '');
}

/** Every uploaded file of the request, by field. */
export function takeUploads(ctx: Context): Map<string, Upload[]> {
  const uploads = new Map<string, Upload[]>();
  for (const [field, value] of Object.entries(ctx.request.files ?? {})) {
    for (const file of (Array.isArray(value) ? value : [value]) as ParsedFile[]) {
      const name = baseName(field);
      uploads.set(name, [...(uploads.get(name) ?? []), { filename: file.originalFilename ?? name, data: uploadedBytes(file) }]);
    }
  }
  return uploads;
}

/** The body as JSON would carry it: a multipart form's bracketed names nested again. */
export function bodyOf(ctx: Context): unknown {
  const body = ctx.request.body;
  if (!ctx.request.is('multipart') || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return unflattenForm(body as Record<string, string | string[]>);
}
