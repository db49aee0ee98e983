// The images endpoints: `POST /v1/images/generations`, `POST /v1/images/edits` (multipart) and
// the URLs that `response_format: url` answers point at.
import { failure, invalid } from '../conversation/errors.js';
import { firstMatch } from '../conversation/fixture.js';
import { promptSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import { imageOutputTokens, INPUT_IMAGE_TOKENS, pictureSeed } from '../media/images.js';
import { pictures, pictureUrl } from '../media/pictures.js';
import { parseImageSize, type Size } from '../media/sizes.js';
import { checkedImages, uploadsDigest, type Upload } from '../media/upload.js';
import { toFault } from '../scenarios/apply.js';
import { decodeImageRequest, type ImageRequest } from '../styles/images/decode.js';
import { encodeImages } from '../styles/images/encode.js';
import { openaiEnvelope, openaiStreamError } from '../styles/openai-envelope.js';
import { json, newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { mediaModel, nextId } from './request.js';
import { scenarioStep } from './scenario.js';

function sizeOf(size: string | undefined): Size {
  try {
    return parseImageSize(size);
  } catch (error) {
    throw invalid(`Invalid value for 'size': ${(error as Error).message}.`, 'size', 'invalid_size');
  }
}

function answerImages(mock: Mock, exchange: Exchange, read: () => { request: ImageRequest; inputs: Upload[] }): Promise<Outcome> {
  return settle(newNotes('images'), async (notes, headers) => {
    const { request, inputs } = read();
    const model = mediaModel(mock, request.model, 'image');
    notes.model = model.id;
    const size = sizeOf(request.size);
    const subject = promptSubject(model.id, request.prompt, exchange.headers);
    const decision = scenarioStep(mock, exchange, openaiEnvelope, subject, notes, headers);
    if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
    const config = mock.store.current;
    const fixture = firstMatch(config.images, subject)?.fixture;
    notes.fixture = fixture?.name ?? null;
    const extra = uploadsDigest(inputs);
    const made = pictures(fixture, request.n, size, (index) => pictureSeed(mock.options.seed, request.prompt, index, extra));
    const shown = made[0]?.size ?? size;
    const quality = request.quality && request.quality !== 'auto' ? request.quality : 'high';
    const session = exchange.session;
    const body = encodeImages({
      createdMs: mock.clock.now(),
      images: made.map((picture) =>
        request.responseFormat === 'url'
          ? { url: pictureUrl(session, `img_${nextId(mock, session)}`, exchange.origin, picture) }
          : { b64: picture.data.toString('base64') },
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
    return { ...json(body), fault: toFault(decision.fault, openaiStreamError) };
  });
}

export function imageGenerations(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return answerImages(mock, exchange, () => ({ request: decodeImageRequest(exchange.body), inputs: [] }));
}

export function imageEdits(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return answerImages(mock, exchange, () => {
    if (!exchange.multipart) {
      throw invalid("Image edits take a multipart/form-data body with the picture in 'image'.", 'image', 'invalid_content_type');
    }
    const request = decodeImageRequest(exchange.body);
    const inputs = checkedImages(exchange.uploads.get('image'), 'image', true);
    checkedImages(exchange.uploads.get('mask'), 'mask', false);
    return { request, inputs };
  });
}

/** `GET /v1/images/files/{session}/{id}.{ext}`: a picture answered earlier as a `url`. */
export function imageFile(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('images'), async () => {
    const id = exchange.params.file!.replace(/\.[a-z]+$/, '');
    const image = mock.sessions.peek(exchange.params.session!)?.images.get(id);
    if (!image) throw failure('image_not_found', 'This image URL is unknown or has expired.');
    return { plan: { kind: 'binary', status: 200, headers: { 'cache-control': 'private, max-age=3600' }, contentType: image.mimeType, data: image.data } };
  });
}
