// Speech is made on one worker thread, started with the first speech and kept: a codec's first
// load and compile and every slice of a long speech run there, so the server's event loop only
// hands over the request and takes the finished bytes. The worker never keeps the process alive.
import { Worker } from 'node:worker_threads';
import type { SpeechRequest, SpokenAudio } from './speech-file.js';

interface Waiting {
  resolve(audio: SpokenAudio): void;
  reject(error: Error): void;
}

type Answer = { id: number; audio: Omit<SpokenAudio, 'data'> & { data: Uint8Array }; error?: undefined } | { id: number; error: string };

let worker: Worker | undefined;
let lastId = 0;
const waiting = new Map<number, Waiting>();

/** The compiled worker beside this file; run from the TypeScript sources (the tests), through tsx. */
function startWorker(): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSources ? './speech-worker.ts' : './speech-worker.js', import.meta.url);
  if (!fromSources) return new Worker(entry);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true });
}

/** Every speech under way fails with the worker; the next speech starts a new one. */
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
    if (answer.error !== undefined) asked?.reject(new Error(`speech failed: ${answer.error}`));
    else asked?.resolve({ ...answer.audio, data: Buffer.from(answer.audio.data.buffer, answer.audio.data.byteOffset, answer.audio.data.byteLength) });
  });
  started.on('error', (error) => lost(started, error));
  started.on('exit', (code) => lost(started, new Error(`the speech worker stopped (exit code ${code})`)));
  // After the listeners: adding a 'message' listener takes the worker's port back into the loop.
  started.unref();
  return (worker = started);
}

export function speakOnWorker(request: SpeechRequest): Promise<SpokenAudio> {
  const id = ++lastId;
  const thread = running();
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    thread.postMessage({ id, request });
  });
}
