// Video tasks, OpenAI form: create, retrieve, list, delete and download (WIRE.md section 9).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import * as z from 'zod';
import { madeAtFirstUse } from '../conversation/first-use.js';
import { failure, invalid, MockError } from '../conversation/errors.js';
import { readConfined } from '../config/files.js';
import type { Plan } from '../conversation/plan.js';
import { sniffImageType } from '../media/png.js';
import { EXPIRES_AFTER_MS, recordPoll, videoSnapshot } from '../media/progression.js';
import { videoPage } from '../media/video-tasks.js';
import type { VideoTask } from '../state/video-task.js';
import { forget } from '../state/session.js';
import { formInt } from '../styles/form.js';
import { parseBody } from '../styles/validate.js';
import { videoDeleted, videoList, videoObject } from '../styles/videos/encode.js';
import { promptSubject } from '../conversation/subject.js';
import { json, type Exchange } from './exchange.js';
import { modelOperation } from './operation.js';
import { rememberTask, videoRecorder } from './upstream/record-videos.js';
import { createdOrder, taskCreation, taskQuestion } from './video-tasks.js';
import { packageFile } from '../package-root.js';

const sample = (name: string): string => packageFile('fixtures', 'media', name);
const SAMPLES = {
  video: sample('sample.mp4'),
  thumbnail: sample('sample-thumbnail.webp'),
  spritesheet: sample('sample-spritesheet.jpg'),
};

const VIDEO_TYPES: Record<string, string> = { '.mp4': 'video/mp4', '.webm': 'video/webm', '.mov': 'video/quicktime' };

export const videoNotFound = (id: string) => failure('video_not_found', `Video '${id}' was not found.`, { param: 'video_id' });

export const createVideo = taskCreation({
  prefix: 'video',
  order: createdOrder,
  recorder: (mock, exchange, order) => rememberTask(exchange.session, order.model.id, order.prompt, mock.clock.now()),
  answer: (mock, _exchange, task) => json(videoObject(videoSnapshot(task, mock.clock.now()), EXPIRES_AFTER_MS)),
});

const videoId = (exchange: Exchange): string => exchange.params.id!;

export const retrieveVideo = taskQuestion({
  id: videoId,
  notFound: videoNotFound,
  answer: (mock, _exchange, task) => json(videoObject(recordPoll(task, mock.clock.now()), EXPIRES_AFTER_MS)),
});

const listQuery = madeAtFirstUse(() =>
  z.looseObject({
    after: z.string().min(1).optional(),
    limit: formInt(1, 100).optional(),
    order: z.enum(['asc', 'desc']).optional(),
  }),
);

/** The session's videos: only this mock holds its list. */
export const listVideos = modelOperation({
  held: true,
  read: (_mock, exchange) => ({ model: null, query: parseBody(listQuery(), { ...exchange.query }) }),
  ask: (_mock, exchange, { query }) => ({ query, model: null, subject: promptSubject('', '', exchange.headers), mockOnly: true }),
  build: (mock, exchange, { query }) => {
    const page = videoPage(exchange.session.tasks.values(), mock.clock.now(), { after: query.after, limit: query.limit ?? 20, order: query.order ?? 'desc' });
    if (!page) throw invalid(`Invalid value for 'after': no video '${query.after}' in this list.`, 'after');
    return json(videoList(page.items.map((item) => videoObject(item, EXPIRES_AFTER_MS)), page.hasMore));
  },
});

export const deleteVideo = taskQuestion({
  id: videoId,
  notFound: videoNotFound,
  answer: (_mock, exchange, task) => {
    forget(exchange.session, 'tasks', task.id);
    return json(videoDeleted(task.id));
  },
});

const VARIANTS = ['video', 'thumbnail', 'spritesheet'] as const;
type Variant = (typeof VARIANTS)[number];

/** A fixture's file is confined again as it is read (links and files swapped since the task began); the samples are the package's own. */
async function contentBytes(task: VideoTask, variant: Variant, fixtureFile: string | undefined, path: string): Promise<Buffer> {
  if (fixtureFile !== undefined && task.files.root !== undefined) {
    try {
      return readConfined(task.files.root, fixtureFile);
    } catch (error) {
      throw failure('file_refused', `The ${variant} of video '${task.id}' is not served: ${(error as Error).message}`);
    }
  }
  try {
    return await readFile(path);
  } catch (error) {
    throw new MockError('server_error', `The ${variant} of video '${task.id}' cannot be read: ${(error as Error).message}`);
  }
}

async function contentPlan(task: VideoTask, variant: Variant): Promise<Plan> {
  const fixtureFile = variant === 'video' ? task.files.video : variant === 'thumbnail' ? task.files.thumbnail : undefined;
  const path = fixtureFile ?? SAMPLES[variant];
  const data = await contentBytes(task, variant, fixtureFile, path);
  const contentType =
    variant === 'video' ? (VIDEO_TYPES[extname(path).toLowerCase()] ?? 'video/mp4') : (sniffImageType(data) ?? 'application/octet-stream');
  return { kind: 'binary', status: 200, headers: {}, contentType, data };
}

export const videoContent = taskQuestion({
  id: videoId,
  notFound: videoNotFound,
  check: (exchange) => {
    const variant = exchange.query.variant ?? 'video';
    if (!(VARIANTS as readonly string[]).includes(variant)) throw invalid(`Invalid value for 'variant': expected one of ${VARIANTS.join(', ')}.`, 'variant');
  },
  recorder: (mock, exchange) => ((exchange.query.variant ?? 'video') === 'video' ? videoRecorder(exchange.session, videoId(exchange), mock.clock.now()) : undefined),
  answer: async (mock, exchange, task) => {
    const { status } = videoSnapshot(task, mock.clock.now());
    if (status !== 'completed') throw failure('video_not_ready', `Video '${task.id}' is not ready for download: its status is ${status}.`);
    return { plan: await contentPlan(task, (exchange.query.variant ?? 'video') as Variant) };
  },
});
