// Videos made from other videos (OpenAI form): `POST /v1/videos/{id}/remix`, `/v1/videos/edits`
// and `/v1/videos/extensions`. Each starts a new task that progresses on the clock like any
// other; a source named by id must be a completed video of the session.
import { failure, invalid } from '../conversation/errors.js';
import { clipSeconds } from '../media/clip.js';
import { EXPIRES_AFTER_MS, videoSnapshot } from '../media/progression.js';
import { videoSize } from '../media/sizes.js';
import { checkedClip } from '../media/upload.js';
import type { VideoTask } from '../state/video-task.js';
import { decodeEdit, decodeExtension, decodeRemix, type DerivedVideoRequest } from '../styles/videos/derive.js';
import { videoObject } from '../styles/videos/encode.js';
import { json, type Exchange } from './exchange.js';
import type { Mock } from './mock.js';
import { mediaModel } from './request.js';
import { taskCreation, type TaskOrder } from './video-tasks.js';
import { videoNotFound } from './videos.js';

function completedSource(mock: Mock, exchange: Exchange, id: string, making: string): VideoTask {
  const task = exchange.session.tasks.get(id);
  if (!task) throw videoNotFound(id);
  const { status } = videoSnapshot(task, mock.clock.now());
  if (status !== 'completed') throw failure('video_not_ready', `Video '${id}' cannot be used for ${making}: its status is ${status}; only a completed video can.`);
  return task;
}

/** What the new video inherits: model, length and frame from a video of the session, or an uploaded clip. */
function sourceOf(mock: Mock, exchange: Exchange, request: DerivedVideoRequest, making: string): Omit<TaskOrder, 'prompt'> {
  if (request.sourceId) {
    const source = completedSource(mock, exchange, request.sourceId, making);
    return { model: mediaModel(mock, source.model, 'video'), seconds: source.seconds, size: source.size };
  }
  const clip = checkedClip(exchange.uploads.get('video'), 'video');
  if (!clip) throw invalid("Missing required parameter: 'video' (a video file, or video[id] naming a completed video).", 'video', 'missing_required_parameter');
  return { model: mediaModel(mock, undefined, 'video'), seconds: String(clipSeconds(clip.data) ?? 4), size: videoSize().size };
}

function derive(order: (mock: Mock, exchange: Exchange, request: DerivedVideoRequest) => TaskOrder, decode: (body: unknown) => DerivedVideoRequest) {
  return taskCreation({
    prefix: 'video',
    derived: true,
    order: (mock, exchange) => order(mock, exchange, decode(exchange.body)),
    answer: (mock, _exchange, task) => json(videoObject(videoSnapshot(task, mock.clock.now()), EXPIRES_AFTER_MS)),
  });
}

export const remixVideo = derive((mock, exchange, request) => {
  const id = exchange.params.id!;
  const source = completedSource(mock, exchange, id, 'a remix');
  return { model: mediaModel(mock, source.model, 'video'), prompt: request.prompt, seconds: source.seconds, size: source.size, remixedFromId: id };
}, decodeRemix);

export const editVideo = derive((mock, exchange, request) => ({ ...sourceOf(mock, exchange, request, 'an edit'), prompt: request.prompt }), decodeEdit);

/** An extension's `seconds` is the stitched whole: the source's length and the new part's. */
export const extendVideo = derive((mock, exchange, request) => {
  const source = sourceOf(mock, exchange, request, 'an extension');
  return { ...source, prompt: request.prompt, seconds: String(Number(source.seconds) + request.seconds!) };
}, decodeExtension);
