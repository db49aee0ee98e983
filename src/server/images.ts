// The images endpoints: `POST /v1/images/generations`, `POST /v1/images/edits` (multipart) and
// the URLs that `response_format: url` answers point at.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { invalid, MockError } from '../conversation/errors.js';
import { firstMatch } from '../conversation/fixture.js';
import { promptSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import { imageOutputTokens, INPUT_IMAGE_TOKENS, pictureSeed } from '../media/images.js';
import { sniffImageType } from '../media/png.js';
import { parseImageSize, type Size } from '../media/sizes.js';
import { applyScenario, toFault } from '../scenarios/apply.js';
import { decodeImageRequest, type ImageRequest } from '../styles/images/decode.js';
import { encodeImages } from '../styles/images/encode.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import type { Mock, MockState } from './context.js';
import { mediaModel } from './media-model.js';
import { pictures, pictureUrl } from './pictures.js';
import { selfUrl } from './self-url.js';
import { bodyOf, takeUploads, type Upload } from './uploads.js';
import { write } from './writer.js';

const openaiStreamError = (error: MockError) => [{ data: openaiEnvelope(error).body }];

function sizeOf(size: string | undefined): Size {
  try {
    return parseImageSize(size);
  } catch (error) {
    throw invalid(`Invalid value for 'size': ${(error as Error).message}.`, 'size', 'invalid_size');
  }
}

/** Edits of different pictures differ, even with the same prompt. */
function digestOf(inputs: Upload[]): string {
  const hash = createHash('sha1');
  for (const input of inputs) hash.update(input.data);
  return inputs.length > 0 ? hash.digest('hex').slice(0, 16) : '';
}

async function answerImages(mock: Mock, ctx: Context, request: ImageRequest, inputs: Upload[] = []): Promise<void> {
  const state = ctx.state as MockState;
  const model = mediaModel(mock, request.model, 'image');
  state.notes.model = model.id;
  const size = sizeOf(request.size);
  const subject = promptSubject(model.id, request.prompt, ctx.headers as Record<string, string>);
  const outcome = await applyScenario(mock, ctx, subject);
  const fixture = firstMatch(mock.store.current.images, subject)?.fixture;
  state.notes.fixture = fixture?.name ?? null;
  const extra = digestOf(inputs);
  const made = pictures(mock, fixture, request.n, size, (index) => pictureSeed(mock.options.seed, request.prompt, index, extra));
  const shown = made[0]?.size ?? size;
  const quality = request.quality && request.quality !== 'auto' ? request.quality : 'high';
  const body = encodeImages({
    createdMs: mock.clock.now(),
    images: made.map((picture) =>
      request.responseFormat === 'url' ? { url: pictureUrl(mock, state.session, selfUrl(ctx), picture) } : { b64: picture.data.toString('base64') },
    ),
    size: `${shown.width}x${shown.height}`,
    quality,
    background: request.background === 'transparent' ? 'transparent' : 'opaque',
    usage: {
      textTokens: countTokens(request.prompt),
      imageInputTokens: inputs.length * INPUT_IMAGE_TOKENS,
      outputTokens: made.length * imageOutputTokens(shown, quality),
    },
  });
  await write(ctx, { kind: 'json', status: 200, headers: {}, body }, toFault(outcome.fault, openaiStreamError));
}

export function imageGenerations(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    await answerImages(mock, ctx, decodeImageRequest(bodyOf(ctx)));
  };
}

/** Uploads judged by their bytes, not their claimed type: a text file named x.png is refused. */
function checkedImages(uploads: Upload[] | undefined, field: string, required: boolean): Upload[] {
  if (!uploads || uploads.length === 0) {
    if (required) throw invalid(`Missing required parameter: '${field}' (an image file in a multipart/form-data body).`, field, 'missing_required_parameter');
    return [];
  }
  uploads.forEach((upload, index) => {
    if (!sniffImageType(upload.data)) {
      const name = uploads.length > 1 ? `${field}[${index}]` : field;
      throw invalid(
        `Invalid file '${upload.filename}' for '${name}': expected a PNG, JPEG, WebP or GIF image.`,
        name,
        'invalid_image_file',
      );
    }
  });
  return uploads;
}

export function imageEdits(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const uploads = takeUploads(ctx);
    if (!ctx.request.is('multipart')) {
      throw invalid("Image edits take a multipart/form-data body with the picture in 'image'.", 'image', 'invalid_content_type');
    }
    const request = decodeImageRequest(bodyOf(ctx));
    const images = checkedImages(uploads.get('image'), 'image', true);
    checkedImages(uploads.get('mask'), 'mask', false);
    await answerImages(mock, ctx, request, images);
  };
}

/** `GET /v1/images/files/{session}/{id}.{ext}`: a picture answered earlier as a `url`. */
export function imageFile(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const params = (ctx as unknown as { params: { session: string; file: string } }).params;
    const id = params.file.replace(/\.[a-z]+$/, '');
    const image = mock.sessions.peek(params.session)?.images.get(id);
    if (!image) throw new MockError('not_found', 'This image URL is unknown or has expired.', { code: 'image_not_found' });
    await write(ctx, { kind: 'binary', status: 200, headers: { 'cache-control': 'private, max-age=3600' }, contentType: image.mimeType, data: image.data });
  };
}
