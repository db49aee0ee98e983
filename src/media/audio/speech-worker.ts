// The speech worker (see speech-thread.ts): makes each file asked of it and sends it back, its
// bytes moved, not copied. A turn between slices lets speeches asked together go on side by side.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parentPort } from 'node:worker_threads';
import { encodeSpeech, type SpeechRequest } from './speech-file.js';

const port = parentPort!;

port.on('message', async ({ id, request }: { id: number; request: SpeechRequest }) => {
  try {
    const audio = await encodeSpeech(request, nextTurn);
    // Only a buffer the file has to itself can be moved; a small one may share a pool with others.
    const owned = audio.data.byteOffset === 0 && audio.data.buffer.byteLength === audio.data.byteLength;
    const data = owned ? audio.data : new Uint8Array(audio.data);
    port.postMessage({ id, audio: { ...audio, data } }, [data.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
