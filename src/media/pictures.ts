// The pictures of an image reply: an `images:` fixture's file, its error, or rendered pictures.
// The one place that reads fixture files for images, shared by the images endpoints and by
// image output in the chat styles.
import { failure, MockError } from '../conversation/errors.js';
import { readConfined } from '../config/files.js';
import type { ImageFixtureSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';
import { filePicture, renderPicture, type Picture } from './images.js';
import { partialPictures, renderPictureAs, type PictureFormat } from './formats.js';
import type { Size } from './sizes.js';
import { keep, type Session } from '../state/session.js';

function fixturePicture(fixture: Compiled<ImageFixtureSpec>, file: string): Picture {
  let data: Buffer;
  try {
    data = readConfined(fixture.dir, file);
  } catch (error) {
    throw failure('file_refused', `The images fixture "${fixture.name}" names ${file}, which is not served: ${(error as Error).message}`);
  }
  const picture = filePicture(data);
  if (!picture) throw new MockError('server_error', `The images fixture "${fixture.name}" names ${file}, which is not a PNG, JPEG, WebP or GIF image.`);
  return picture;
}

/** What an `images:` fixture decides: its error (thrown), its file, or nothing (render them). */
function fixtureChoice(fixture: Compiled<ImageFixtureSpec> | undefined): Picture | undefined {
  const reply = fixture?.spec.reply;
  if (fixture && reply && 'error' in reply) {
    throw new MockError(reply.error, reply.message ?? `The images fixture "${fixture.name}" refused this request.`, { status: reply.status });
  }
  return fixture && reply && 'file' in reply ? fixturePicture(fixture, reply.file) : undefined;
}

/** `count` PNG pictures of `size`, the i-th rendered from `seedOf(i)`, unless the fixture says otherwise. */
export async function pictures(
  fixture: Compiled<ImageFixtureSpec> | undefined,
  count: number,
  size: Size,
  seedOf: (index: number) => string,
): Promise<Picture[]> {
  const file = fixtureChoice(fixture);
  const made: Picture[] = [];
  for (let index = 0; index < count; index++) made.push(file ?? (await renderPicture(size, seedOf(index))));
  return made;
}

export interface PictureOrder {
  count: number;
  size: Size;
  seedOf: (index: number) => string;
  format: PictureFormat;
  compression: number;
  /** Rougher previews wanted before each picture (an image stream's `partial_images`). */
  partials: number;
}

export interface MadePicture {
  picture: Picture;
  partials: Picture[];
}

/**
 * The pictures of an images endpoint in the format asked for, each with its previews. A
 * fixture's file is served as it is, in its own format, and stands in for its own previews:
 * the mock does not decode files to paint them rougher.
 */
export async function picturesAs(fixture: Compiled<ImageFixtureSpec> | undefined, order: PictureOrder): Promise<MadePicture[]> {
  const file = fixtureChoice(fixture);
  const made: MadePicture[] = [];
  for (let index = 0; index < order.count; index++) {
    if (file) {
      made.push({ picture: file, partials: Array.from({ length: order.partials }, () => file) });
      continue;
    }
    const seed = order.seedOf(index);
    made.push({
      picture: await renderPictureAs(order.size, seed, order.format, order.compression),
      partials: await partialPictures(order.size, seed, order.partials, order.format, order.compression),
    });
  }
  return made;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

/** Keeps a picture in the session under `id` and returns the URL the mock serves it at (no key needed, as with signed URLs). */
export function pictureUrl(session: Session, id: string, origin: string, picture: Picture): string {
  keep(session, 'pictures', id, { mimeType: picture.mimeType, data: picture.data }, picture.data.byteLength + 256);
  return `${origin}/v1/images/files/${encodeURIComponent(session.id)}/${id}.${EXTENSIONS[picture.mimeType] ?? 'png'}`;
}
