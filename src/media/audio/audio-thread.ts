// Audio work runs on one worker thread, started with the first speech or upload and kept: a
// codec's first load and compile, every slice of a long speech, the tag reader's load and parse
// of an upload, and the sentences a long recording is taken to say run there, so the server's event loop only hands the work over and takes
// the answer. The worker never keeps the process alive. Node's worker module is loaded with the
// first such task, not at start.
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { atFirstUse } from '../../conversation/first-use.js';
import { packageFile } from '../../package-root.js';
import type { HeardAudio } from './hear.js';
import type { SpeechRequest, SpokenAudio } from './speech-file.js';

export type AudioTask =
  | { kind: 'speak'; request: SpeechRequest }
  | { kind: 'hear'; data: Uint8Array }
  | { kind: 'prose'; seed: Array<string | number>; words: number };

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

type Answer = { id: number; value: unknown; error?: undefined } | { id: number; error: string };

let worker: Worker | undefined;
let lastId = 0;
const waiting = new Map<number, Waiting>();
const threads = atFirstUse<typeof import('node:worker_threads')>('node:worker_threads');

/**
 * The worker as tsc compiled it into dist/, wherever this module runs from (the bundled command's
 * chunks too); run from the TypeScript sources (the tests), the source through tsx.
 */
function startWorker(): Worker {
  const { Worker } = threads();
  if (!import.meta.url.endsWith('.ts')) return new Worker(packageFile('dist', 'media', 'audio', 'audio-worker.js'));
  const entry = pathToFileURL(packageFile('src', 'media', 'audio', 'audio-worker.ts')).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
}

/** Every task under way fails with the worker; the next task starts a new one. */
function lost(gone: Worker, error: Error): void {
  if (worker !== gone) return;
  worker = undefined;
  for (const { reject } of waiting.values()) reject(error);
  waiting.clear();
}

function running(): Worker {
  if (worker) return worker;
  const started = startWorker();
  started.on('message', (answer: Answer) => {
    const asked = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.error !== undefined) asked?.reject(new Error(`audio work failed: ${answer.error}`));
    else asked?.resolve(answer.value);
  });
  started.on('error', (error) => lost(started, error));
  started.on('exit', (code) => lost(started, new Error(`the audio worker stopped (exit code ${code})`)));
  // After the listeners: adding a 'message' listener takes the worker's port back into the loop.
  started.unref();
  return (worker = started);
}

function onWorker(task: AudioTask, transfer: ArrayBuffer[] = []): Promise<unknown> {
  const id = ++lastId;
  const thread = running();
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    thread.postMessage({ id, task }, transfer);
  });
}

export async function speakOnWorker(request: SpeechRequest): Promise<SpokenAudio> {
  const audio = (await onWorker({ kind: 'speak', request })) as Omit<SpokenAudio, 'data'> & { data: Uint8Array };
  return { ...audio, data: Buffer.from(audio.data.buffer, audio.data.byteOffset, audio.data.byteLength) };
}

/** `hearAudio` on the worker, given a copy of the upload (the request keeps its own bytes). */
export function hearOnWorker(data: Uint8Array): Promise<HeardAudio> {
  const copy = new Uint8Array(data);
  return onWorker({ kind: 'hear', data: copy }, [copy.buffer]) as Promise<HeardAudio>;
}

/** `spokenProse` on the worker, seeded by `seed`: an hour's words take the loop's whole second. */
export function proseOnWorker(seed: Array<string | number>, words: number): Promise<string> {
  return onWorker({ kind: 'prose', seed, words }) as Promise<string>;
}
