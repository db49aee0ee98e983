// What every live door does with a reply: speak it as 24 kHz PCM16 cut into 100 ms chunks, and
// send its events in order on the --latency clock, stopping as soon as the turn is cut short.
import { setTimeout as wait } from 'node:timers/promises';
import type { Pacing } from '../../conversation/types.js';
import type { Mock } from '../../exchange/mock.js';
import { speak } from '../../media/audio/speak.js';

/** 100 ms of 24 kHz PCM16. */
const AUDIO_CHUNK_BYTES = 4_800;

export interface Spoken {
  /** Base64 chunks of the speech, 100 ms each. */
  chunks: string[];
  seconds: number;
}

export async function spokenChunks(mock: Mock, text: string): Promise<Spoken> {
  const spoken = await speak({ text, voice: 'alloy', format: 'pcm', speed: 1, seed: mock.options.seed });
  const chunks: string[] = [];
  for (let at = 0; at < spoken.data.length; at += AUDIO_CHUNK_BYTES) chunks.push(Buffer.from(spoken.data.subarray(at, at + AUDIO_CHUNK_BYTES)).toString('base64'));
  return { chunks, seconds: spoken.seconds };
}

/** Sends `events`, pausing before each paced one (the first paced one longest); says how many were sent before `stopped()`. */
export async function play<T>(events: readonly T[], paced: (event: T) => boolean, pacing: Pacing, stopped: () => boolean, send: (event: T) => void): Promise<number> {
  let sent = 0;
  let first = true;
  for (const event of events) {
    if (paced(event)) {
      const pause = first ? pacing.firstChunkMs : pacing.chunkMs;
      first = false;
      if (pause > 0) await wait(pause);
    }
    if (stopped()) break;
    send(event);
    sent++;
  }
  return sent;
}
