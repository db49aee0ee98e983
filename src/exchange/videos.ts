// Video tasks, OpenAI form: create, retrieve, list, delete and download (WIRE.md section 9).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { failure, invalid, MockError } from '../conversation/errors.js';
import { readConfined } from '../config/files.js';
import type { Plan } from '../conversation/plan.js';
import { sniffImageType } from '../media/png.js';
import { EXPIRES_AFTER_MS, recordPoll, videoSnapshot } from '../media/progression.js';
import { videoPage } from '../media/video-tasks.js';
import { toFault, type ScenarioDecision } from '../scenarios/apply.js';
import type { VideoTask } from '../state/video-task.js';
import { forget } from '../state/session.js';
import { formInt } from '../styles/form.js';
import { openaiEnvelope, openaiStreamError } from '../styles/openai-envelope.js';
import { parseBody } from '../styles/validate.js';
import { videoDeleted, videoList, videoObject } from '../styles/videos/encode.js';
import { newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { rememberTask, videoRecorder } from './upstream/record-videos.js';
import { relay } from './upstream/relay.js';
import { createTask, findTask, taskScenario, upstreamTask } from './video-tasks.js';

const sample = (name: string): string => fileURLToPath(new URL(`../../fixtures/media/${name}`, import.meta.url));
const SAMPLES = {
  video: sample('sample.mp4'),
  thumbnail: sample('sample-thumbnail.webp'),
  spritesheet: sample('sample-spritesheet.jpg'),
};

const VIDEO_TYPES: Record<string, string> = { '.mp4': 'video/mp4', '.webm': 'video/webm', '.mov': 'video/quicktime' };

export const videoNotFound = (id: string) => failure('video_not_found', `Video '${id}' was not found.`, { param: 'video_id' });

/** A JSON answer, or the scenario's error. */
export function videoAnswer(decision: ScenarioDecision, body: () => unknown): { plan: Plan; fault?: ReturnType<typeof toFault> } | { error: MockError; waitMs?: number } {
  if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
  return { plan: { kind: 'json', status: 200, headers: {}, body: body() }, fault: toFault(decision.fault, openaiStreamError) };
}

export function createVideo(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('videos'), async (notes, headers) => {
    const { task, decision, forward } = createTask(mock, exchange, openaiEnvelope, 'video', notes, headers);
    if (forward) return relay(mock, exchange, notes, rememberTask(exchange.session, forward.model.id, forward.prompt, mock.clock.now()));
    return videoAnswer(decision, () => videoObject(videoSnapshot(task!, mock.clock.now()), EXPIRES_AFTER_MS));
  });
}

export function retrieveVideo(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('videos'), async (notes, headers) => {
    if (upstreamTask(exchange, exchange.params.id!)) return relay(mock, exchange, notes);
    const task = findTask(exchange, exchange.params.id!, videoNotFound, notes);
    const decision = taskScenario(mock, exchange, openaiEnvelope, task, notes, headers);
    return videoAnswer(decision, () => videoObject(recordPoll(task, mock.clock.now()), EXPIRES_AFTER_MS));
  });
}

const listQuery = z.looseObject({
  after: z.string().min(1).optional(),
  limit: formInt(1, 100).optional(),
  order: z.enum(['asc', 'desc']).optional(),
});

export function listVideos(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('videos'), async (notes, headers) => {
    const query = parseBody(listQuery, { ...exchange.query });
    const decision = taskScenario(mock, exchange, openaiEnvelope, undefined, notes, headers);
    if (decision.error) return videoAnswer(decision, () => null);
    const page = videoPage(exchange.session.tasks.values(), mock.clock.now(), { after: query.after, limit: query.limit ?? 20, order: query.order ?? 'desc' });
    if (!page) throw invalid(`Invalid value for 'after': no video '${query.after}' in this list.`, 'after');
    return videoAnswer(decision, () => videoList(page.items.map((item) => videoObject(item, EXPIRES_AFTER_MS)), page.hasMore));
  });
}

export function deleteVideo(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('videos'), async (notes, headers) => {
    if (upstreamTask(exchange, exchange.params.id!)) return relay(mock, exchange, notes);
    const task = findTask(exchange, exchange.params.id!, videoNotFound, notes);
    const decision = taskScenario(mock, exchange, openaiEnvelope, task, notes, headers);
    if (decision.error) return videoAnswer(decision, () => null);
    forget(exchange.session, 'tasks', task.id);
    return videoAnswer(decision, () => videoDeleted(task.id));
  });
}

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

export function videoContent(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('videos'), async (notes, headers) => {
    const variant = (exchange.query.variant ?? 'video') as Variant;
    if (!VARIANTS.includes(variant)) throw invalid(`Invalid value for 'variant': expected one of ${VARIANTS.join(', ')}.`, 'variant');
    if (upstreamTask(exchange, exchange.params.id!)) {
      return relay(mock, exchange, notes, variant === 'video' ? videoRecorder(exchange.session, exchange.params.id!, mock.clock.now()) : undefined);
    }
    const task = findTask(exchange, exchange.params.id!, videoNotFound, notes);
    const decision = taskScenario(mock, exchange, openaiEnvelope, task, notes, headers);
    if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
    const { status } = videoSnapshot(task, mock.clock.now());
    if (status !== 'completed') {
      throw failure('video_not_ready', `Video '${task.id}' is not ready for download: its status is ${status}.`);
    }
    return { plan: await contentPlan(task, variant), fault: toFault(decision.fault, openaiStreamError) };
  });
}
