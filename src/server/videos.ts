// Video tasks, OpenAI form: create, retrieve, list, delete and download (WIRE.md section 9).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'koa';
import { z } from 'zod';
import { invalid, MockError } from '../conversation/errors.js';
import type { Plan } from '../conversation/plan.js';
import { sniffImageType } from '../media/png.js';
import { EXPIRES_AFTER_MS, recordPoll, videoSnapshot } from '../media/progression.js';
import { videoPage } from '../media/video-tasks.js';
import { toFault, type FaultSpec } from '../scenarios/apply.js';
import type { VideoTask } from '../state/video-task.js';
import { formInt } from '../styles/form.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { parseBody } from '../styles/validate.js';
import { videoDeleted, videoList, videoObject } from '../styles/videos/encode.js';
import type { Mock, MockState } from './context.js';
import { createTask, findTask, taskScenario } from './video-tasks.js';
import { write } from './writer.js';

const openaiStreamError = (error: MockError) => [{ data: openaiEnvelope(error).body }];

const sample = (name: string): string => fileURLToPath(new URL(`../../fixtures/media/${name}`, import.meta.url));
const SAMPLES = {
  video: sample('sample.mp4'),
  thumbnail: sample('sample-thumbnail.webp'),
  spritesheet: sample('sample-spritesheet.jpg'),
};

const VIDEO_TYPES: Record<string, string> = { '.mp4': 'video/mp4', '.webm': 'video/webm', '.mov': 'video/quicktime' };

const notFound = (id: string) => new MockError('not_found', `Video '${id}' was not found.`, { param: 'video_id', code: 'video_not_found' });

function idParam(ctx: Context): string {
  return (ctx as unknown as { params: { id: string } }).params.id;
}

async function json(ctx: Context, body: unknown, fault: FaultSpec | undefined): Promise<void> {
  await write(ctx, { kind: 'json', status: 200, headers: {}, body }, toFault(fault, openaiStreamError));
}

export function createVideo(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const { task, fault } = await createTask(mock, ctx, 'video');
    await json(ctx, videoObject(videoSnapshot(task, mock.clock.now()), EXPIRES_AFTER_MS), fault);
  };
}

export function retrieveVideo(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const task = findTask(ctx, idParam(ctx), notFound);
    const fault = await taskScenario(mock, ctx, task);
    await json(ctx, videoObject(recordPoll(task, mock.clock.now()), EXPIRES_AFTER_MS), fault);
  };
}

const listQuery = z.looseObject({
  after: z.string().min(1).optional(),
  limit: formInt(1, 100).optional(),
  order: z.enum(['asc', 'desc']).optional(),
});

export function listVideos(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const query = parseBody(listQuery, { ...ctx.query });
    const fault = await taskScenario(mock, ctx, undefined);
    const tasks = (ctx.state as MockState).session.tasks.values();
    const page = videoPage(tasks, mock.clock.now(), { after: query.after, limit: query.limit ?? 20, order: query.order ?? 'desc' });
    if (!page) throw invalid(`Invalid value for 'after': no video '${query.after}' in this list.`, 'after');
    await json(ctx, videoList(page.items.map((item) => videoObject(item, EXPIRES_AFTER_MS)), page.hasMore), fault);
  };
}

export function deleteVideo(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const task = findTask(ctx, idParam(ctx), notFound);
    const fault = await taskScenario(mock, ctx, task);
    (ctx.state as MockState).session.tasks.delete(task.id);
    await json(ctx, videoDeleted(task.id), fault);
  };
}

const VARIANTS = ['video', 'thumbnail', 'spritesheet'] as const;
type Variant = (typeof VARIANTS)[number];

async function contentPlan(task: VideoTask, variant: Variant): Promise<Plan> {
  const path = (variant === 'video' ? task.files.video : variant === 'thumbnail' ? task.files.thumbnail : undefined) ?? SAMPLES[variant];
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    throw new MockError('server_error', `The ${variant} of video '${task.id}' cannot be read: ${(error as Error).message}`);
  }
  const contentType =
    variant === 'video' ? (VIDEO_TYPES[extname(path).toLowerCase()] ?? 'video/mp4') : (sniffImageType(data) ?? 'application/octet-stream');
  return { kind: 'binary', status: 200, headers: {}, contentType, data };
}

export function videoContent(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const variant = (ctx.query.variant ?? 'video') as Variant;
    if (!VARIANTS.includes(variant)) {
      throw invalid(`Invalid value for 'variant': expected one of ${VARIANTS.join(', ')}.`, 'variant');
    }
    const task = findTask(ctx, idParam(ctx), notFound);
    const fault = await taskScenario(mock, ctx, task);
    const { status } = videoSnapshot(task, mock.clock.now());
    if (status !== 'completed') {
      throw new MockError('invalid_request', `Video '${task.id}' is not ready for download: its status is ${status}.`, {
        code: 'video_not_ready',
      });
    }
    await write(ctx, await contentPlan(task, variant), toFault(fault, openaiStreamError));
  };
}
