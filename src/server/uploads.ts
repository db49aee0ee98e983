// Multipart uploads as the operations take them (the body parser keeps files in memory, never in
// the temp directory). Field names lose the array brackets SDKs add (`image[]` is `image`).
import type { ShellContext } from './shell-context.js';
import type { Upload } from '../media/upload.js';
import { uploadedBytes } from './body.js';

interface ParsedFile {
  originalFilename?: string | null;
}

function baseName(field: string): string {
  return field.replace(/\[\d*\]$/, '');
}

const NONE: ReadonlyMap<string, Upload[]> = new Map();

/** Every uploaded file of the request, by field. */
export function takeUploads(ctx: ShellContext): ReadonlyMap<string, Upload[]> {
  const files = ctx.request.files;
  if (!files) return NONE;
  const uploads = new Map<string, Upload[]>();
  for (const [field, value] of Object.entries(files)) {
    for (const file of (Array.isArray(value) ? value : [value]) as ParsedFile[]) {
      const name = baseName(field);
      uploads.set(name, [...(uploads.get(name) ?? []), { filename: file.originalFilename ?? name, data: uploadedBytes(file) }]);
    }
  }
  return uploads;
}
