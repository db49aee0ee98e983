// The audio worker (see audio-thread.ts): makes each speech file asked of it, hears each upload,
// says what an unknown recording is taken to say, and sends the answer back, a file's bytes
// moved, not copied. A turn between slices lets speeches asked together go on side by side.
import { nextTurn } from '../../state/event-loop.js';
import { parentPort } from 'node:worker_threads';
import { hearAudio } from './hear.js';
import { encodeSpeech } from './speech-file.js';
import type { AudioTask } from './audio-thread.js';

const port = parentPort!;

async function answer(task: AudioTask): Promise<{ value: unknown; transfer: ArrayBuffer[] }> {
  if (task.kind === 'prose') {
    // Loaded with the first unknown recording: faker is not a speech's to pay for.
    const [{ seededRandom }, { spokenProse }] = await Promise.all([import('../../conversation/random.js'), import('../../conversation/spoken-prose.js')]);
    return { value: spokenProse(seededRandom(...task.seed), task.words), transfer: [] };
  }
  if (task.kind === 'hear') return { value: await hearAudio(Buffer.from(task.data.buffer, task.data.byteOffset, task.data.byteLength)), transfer: [] };
  const audio = await encodeSpeech(task.request, nextTurn);
  // Only a buffer the file has to itself can be moved; a small one may share a pool with others.
  const owned = audio.data.byteOffset === 0 && audio.data.buffer.byteLength === audio.data.byteLength;
  const data = owned ? audio.data : new Uint8Array(audio.data);
  return { value: { ...audio, data }, transfer: [data.buffer as ArrayBuffer] };
}

port.on('message', async ({ id, task }: { id: number; task: AudioTask }) => {
  try {
    const { value, transfer } = await answer(task);
    port.postMessage({ id, value }, transfer);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
