// An uploaded file of a multipart body, as the media decisions judge it: by its bytes, not its
// claimed type.
import { createHash } from 'node:crypto';
import { invalid } from '../conversation/errors.js';
import { isClip } from './clip.js';
import { sniffImageType } from './png.js';

export interface Upload {
  filename: string;
  data: Buffer;
}

/** Uploads judged by their bytes: a text file named x.png is refused, naming the field. */
export function checkedImages(uploads: Upload[] | undefined, field: string, required: boolean): Upload[] {
  if (!uploads || uploads.length === 0) {
    if (required) throw invalid(`Missing required parameter: '${field}' (an image file in a multipart/form-data body).`, field, 'missing_required_parameter');
    return [];
  }
  uploads.forEach((upload, index) => {
    if (!sniffImageType(upload.data)) {
      const name = uploads.length > 1 ? `${field}[${index}]` : field;
      throw invalid(`Invalid file '${upload.filename}' for '${name}': expected a PNG, JPEG, WebP or GIF image.`, name, 'invalid_image_file');
    }
  });
  return uploads;
}

/** A video reference must be a picture or an MP4/QuickTime clip. */
export function checkReference(uploads: Upload[] | undefined): void {
  for (const upload of uploads ?? []) {
    if (!isClip(upload.data) && !sniffImageType(upload.data)) {
      throw invalid(
        `Invalid file '${upload.filename}' for 'input_reference': expected a PNG, JPEG, WebP or GIF image or an MP4 video.`,
        'input_reference',
        'invalid_file',
      );
    }
  }
}

/** Edits of different pictures differ, even with the same prompt. */
export function uploadsDigest(inputs: readonly Upload[]): string {
  const hash = createHash('sha1');
  for (const input of inputs) hash.update(input.data);
  return inputs.length > 0 ? hash.digest('hex').slice(0, 16) : '';
}

/** The one clip a multipart field carries, refused (naming the field) unless it is an MP4. */
export function checkedClip(uploads: Upload[] | undefined, field: string): Upload | undefined {
  if (!uploads || uploads.length === 0) return undefined;
  if (uploads.length > 1) throw invalid(`'${field}' takes one video file.`, field);
  const clip = uploads[0]!;
  if (!isClip(clip.data)) throw invalid(`Invalid file '${clip.filename}' for '${field}': expected an MP4 video.`, field, 'invalid_file');
  return clip;
}
