// The JSON form of an image edit (`POST /v1/images/edits` with `images: [{ image_url | file_id }]`
// and an optional `mask` the same way), the form a batch line can carry: each reference becomes the
// upload the multipart form would have sent.
import * as z from 'zod';
import { madeAtFirstUse } from '../conversation/first-use.js';
import { invalid } from '../conversation/errors.js';
import { checkedImages, type Upload } from '../media/upload.js';
import type { Session } from '../state/session.js';
import { parseBody } from '../styles/validate.js';
import { findFile } from './files.js';

/** Made at the first edit asked so: a start that serves none builds none. */
const references = madeAtFirstUse(() => {
  const reference = z.looseObject({ image_url: z.string().min(1).nullish(), file_id: z.string().min(1).nullish() });
  return z.looseObject({ images: z.array(reference).min(1).max(16), mask: reference.nullish() });
});
type Reference = z.infer<ReturnType<typeof references>>['images'][number];

const DATA_URL = /^data:[^;,]*;base64,/;

/**
 * A reference's picture: a data URL's bytes or an uploaded file's, checked as an upload is. A web
 * address is not fetched (the mock stays offline): its text stands for the picture, to seed by.
 */
function referenced(session: Session, ref: Reference, field: string): Upload {
  if ((ref.image_url == null) === (ref.file_id == null)) throw invalid(`Invalid value for '${field}': give exactly one of image_url or file_id.`, field);
  if (ref.file_id != null) {
    const file = findFile(session, ref.file_id, `${field}.file_id`);
    return checkedImages([{ filename: file.filename, data: file.data }], `${field}.file_id`, true)[0]!;
  }
  const url = ref.image_url!;
  if (DATA_URL.test(url)) return checkedImages([{ filename: 'image', data: Buffer.from(url.replace(DATA_URL, ''), 'base64') }], `${field}.image_url`, true)[0]!;
  if (/^https?:\/\//.test(url)) return { filename: url, data: Buffer.from(url) };
  throw invalid(`Invalid value for '${field}.image_url': expected a URL or a base64 data URL.`, `${field}.image_url`);
}

/** The pictures an edit's JSON body names, in order; the mask is checked and not drawn on. */
export function referencedImages(session: Session, body: unknown): Upload[] {
  const data = parseBody(references(), body);
  if (data.mask) referenced(session, data.mask, 'mask');
  return data.images.map((ref, index) => referenced(session, ref, `images[${index}]`));
}
