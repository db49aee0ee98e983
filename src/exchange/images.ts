// The images endpoints: `POST /v1/images/generations`, `POST /v1/images/edits` and
// `POST /v1/images/variations` (multipart), whole or streamed with partial images, and the URLs
// that `response_format: url` answers point at.
import { failure, invalid } from '../conversation/errors.js';
import type { ImageFixtureSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';
import { firstMatch } from '../conversation/fixture.js';
import type { Plan } from '../conversation/plan.js';
import { promptSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import { requireGatewayImages } from '../media/image-output.js';
import { imageOutputTokens, INPUT_IMAGE_TOKENS, pictureSeed, type Picture } from '../media/images.js';
import { pictureUrl, picturesAs, type MadePicture } from '../media/pictures.js';
import { checkPictureCount, parseImageSize, type Size } from '../media/sizes.js';
import { checkedImages, uploadsDigest, type Upload } from '../media/upload.js';
import { referencedImages } from './image-references.js';
import { decodeImageRequest, decodeVariationRequest, type ImageRequest } from '../styles/images/decode.js';
import { encodeImages, encodeVariations, imageStreamEvents, type ImageSettings, type ImageUsage } from '../styles/images/encode.js';
import { openaiStreamError } from '../styles/openai-envelope.js';
import { GATEWAY_IMAGES } from '../styles/registry.js';
import { json, type Exchange, type Operation } from './exchange.js';
import type { Mock } from './mock.js';
import { pacingFor } from './pacing.js';
import { mediaModel, nextId } from './request.js';
import { modelOperation, plainOperation, type Asked } from './operation.js';
import { imagesRecorder } from './upstream/record-images.js';

type ImageKind = 'generation' | 'edit' | 'variation';
type ImageFixture = Compiled<ImageFixtureSpec>;

const FORMAT_OF: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' };

function sizeOf({ size, n }: ImageRequest): Size {
  let parsed: Size;
  try {
    parsed = parseImageSize(size);
  } catch (error) {
    throw invalid(`Invalid value for 'size': ${(error as Error).message}.`, 'size', 'invalid_size');
  }
  try {
    checkPictureCount(n, parsed);
  } catch (error) {
    throw invalid(`Invalid value for 'n': ${(error as Error).message}.`, 'n', 'invalid_value');
  }
  return parsed;
}

function streamPlan(mock: Mock, exchange: Exchange, kind: ImageKind, settings: ImageSettings, made: MadePicture[], usage: ImageUsage): Plan {
  const base64 = (picture: Picture) => picture.data.toString('base64');
  const pictures = made.map(({ picture, partials }) => ({ partials: partials.map(base64), final: base64(picture) }));
  const events = imageStreamEvents(kind === 'edit' ? 'image_edit' : 'image_generation', settings, pictures, usage);
  const pacing = pacingFor(exchange.headers['x-mock-latency'] || undefined, undefined, mock.options.latency);
  return { kind: 'stream', status: 200, headers: {}, events, pacing, streamError: openaiStreamError };
}

interface AskedImages extends Asked {
  request: ImageRequest;
  inputs: Upload[];
  model: string;
  size: Size;
}

function answerImages(kind: ImageKind, read: (exchange: Exchange) => { request: ImageRequest; inputs: Upload[] }): Operation {
  return modelOperation<{ model: string | null; request: ImageRequest; inputs: Upload[] }, AskedImages, ImageFixture>({
    read: (mock, exchange) => {
      requireGatewayImages(GATEWAY_IMAGES, exchange.caller.group, mock.store.current.chatCompletionsOnlyGroups, `${exchange.method} ${exchange.path}`);
      const made = read(exchange);
      return { ...made, model: made.request.model ?? null };
    },
    ask: (mock, exchange, { request, inputs }) => {
      const model = mediaModel(mock, request.model, 'image').id;
      const size = sizeOf(request);
      return { request, inputs, model, size, subject: promptSubject(model, request.prompt, exchange.headers) };
    },
    find: (mock, _exchange, { subject }) => {
      const fixture = firstMatch(mock.store.current.images, subject)?.fixture;
      return { found: fixture, notes: { fixture: fixture?.name ?? null } };
    },
    recorder: (_mock, _exchange, { model, request }) => (kind === 'generation' ? imagesRecorder(model, request.prompt) : undefined),
    build: async (mock, exchange, { request, inputs, size }, fixture) => {
      const extra = uploadsDigest(inputs);
      const made = await picturesAs(fixture, {
        count: request.n,
        size,
        seedOf: (index) => pictureSeed(mock.options.seed, request.prompt, index, extra),
        format: request.format,
        compression: request.compression,
        partials: request.stream ? request.partialImages : 0,
      });
      const first = made[0]!.picture;
      const shown = first.size ?? size;
      const quality = request.quality && request.quality !== 'auto' ? request.quality : 'high';
      const settings: ImageSettings = {
        createdMs: mock.clock.now(),
        size: `${shown.width}x${shown.height}`,
        quality,
        background: request.background === 'transparent' ? 'transparent' : 'opaque',
        outputFormat: FORMAT_OF[first.mimeType] ?? request.format,
      };
      const usage: ImageUsage = {
        textTokens: countTokens(request.prompt),
        imageInputTokens: inputs.length * INPUT_IMAGE_TOKENS,
        outputTokens: made.length * imageOutputTokens(shown, quality),
      };
      const notes = {
        metered: {
          tokens: { input_tokens: usage.textTokens + usage.imageInputTokens, cached_input_tokens: 0, output_tokens: usage.outputTokens, reasoning_tokens: 0 },
          images: { count: made.length, size: settings.size },
        },
      };
      if (request.stream) return { plan: streamPlan(mock, exchange, kind, settings, made, usage), notes };
      const session = exchange.session;
      const images = made.map(({ picture }) =>
        request.responseFormat === 'url'
          ? { url: pictureUrl(session, `img_${nextId(mock, session)}`, exchange.origin, picture) }
          : { b64: picture.data.toString('base64') },
      );
      const body = kind === 'variation' ? encodeVariations({ createdMs: settings.createdMs, images }) : encodeImages({ ...settings, images, usage });
      return { ...json(body), notes };
    },
  });
}

function multipartOnly(exchange: Exchange, endpoint: string): void {
  if (!exchange.multipart) {
    throw invalid(`Image ${endpoint} take a multipart/form-data body with the picture in 'image'.`, 'image', 'invalid_content_type');
  }
}

export const imageGenerations = answerImages('generation', (exchange) => ({ request: decodeImageRequest(exchange.body), inputs: [] }));

/** `POST /v1/images/edits`: the pictures uploaded, or named by URL or file id in a JSON body (as a batch line does). */
export const imageEdits = answerImages('edit', (exchange) => {
    const request = decodeImageRequest(exchange.body);
    if (!exchange.multipart) return { request, inputs: referencedImages(exchange.session, exchange.body) };
    const inputs = checkedImages(exchange.uploads.get('image'), 'image', true);
    checkedImages(exchange.uploads.get('mask'), 'mask', false);
    return { request, inputs };
});

/** `POST /v1/images/variations`: pictures like the one uploaded, seeded by its bytes. */
export const imageVariations = answerImages('variation', (exchange) => {
    multipartOnly(exchange, 'variations');
    const request = decodeVariationRequest(exchange.body);
    const inputs = checkedImages(exchange.uploads.get('image'), 'image', true);
    if (inputs.length > 1) throw invalid("A variation takes exactly one picture in 'image'.", 'image');
    return { request, inputs };
});

/** `GET /v1/images/files/{session}/{id}.{ext}`: a picture answered earlier as a `url`. */
export const imageFile = plainOperation((mock, exchange) => {
  const id = exchange.params.file!.replace(/\.[a-z]+$/, '');
  const image = mock.sessions.peek(exchange.params.session!)?.images.get(id);
  if (!image) throw failure('image_not_found', 'This image URL is unknown or has expired.');
  return { plan: { kind: 'binary', status: 200, headers: { 'cache-control': 'private, max-age=3600' }, contentType: image.mimeType, data: image.data } };
});
