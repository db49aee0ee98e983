// The pictures of an image reply: an `images:` fixture's file, its error, or rendered pictures.
// The one place that reads fixture files for images, shared by the images endpoints and by
// image output in the chat styles.
import { readFileSync } from 'node:fs';
import { MockError } from '../conversation/errors.js';
import { resolveInside } from '../config/files.js';
import type { ImageFixtureSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';
import { filePicture, renderPicture, type Picture } from './images.js';
import type { Size } from './sizes.js';
import { keep, type Session } from '../state/session.js';

function fixturePicture(fixturesDir: string, fixture: Compiled<ImageFixtureSpec>, file: string): Picture {
  let data: Buffer;
  try {
    data = readFileSync(resolveInside(fixturesDir, file));
  } catch (error) {
    throw new MockError('server_error', `The images fixture "${fixture.name}" names ${file}, which cannot be read: ${(error as Error).message}`);
  }
  const picture = filePicture(data);
  if (!picture) throw new MockError('server_error', `The images fixture "${fixture.name}" names ${file}, which is not a PNG, JPEG, WebP or GIF image.`);
  return picture;
}

/** `count` pictures of `size`, the i-th rendered from `seedOf(i)`, unless the fixture says otherwise. */
export function pictures(
  fixturesDir: string,
  fixture: Compiled<ImageFixtureSpec> | undefined,
  count: number,
  size: Size,
  seedOf: (index: number) => string,
): Picture[] {
  const reply = fixture?.spec.reply;
  if (fixture && reply && 'error' in reply) {
    throw new MockError(reply.error, reply.message ?? `The images fixture "${fixture.name}" refused this request.`, { status: reply.status });
  }
  if (fixture && reply && 'file' in reply) {
    const picture = fixturePicture(fixturesDir, fixture, reply.file);
    return Array.from({ length: count }, () => picture);
  }
  return Array.from({ length: count }, (_, index) => renderPicture(size, seedOf(index)));
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

/** Keeps a picture in the session under `id` and returns the URL the mock serves it at (no key needed, as with signed URLs). */
export function pictureUrl(session: Session, id: string, origin: string, picture: Picture): string {
  keep(session, 'pictures', id, { mimeType: picture.mimeType, data: picture.data }, picture.data.byteLength + 256);
  return `${origin}/v1/images/files/${encodeURIComponent(session.id)}/${id}.${EXTENSIONS[picture.mimeType] ?? 'png'}`;
}
