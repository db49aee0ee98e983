// Speech for the server: made on the audio worker (audio-thread.ts), and remembered by what
// decides its bytes, within a byte budget. Raw PCM the mock spoke is remembered by its samples
// too, so a client that sends it back (a voice agent's test feeding the mock its own voice) is
// heard saying its text.
import { textBytes } from '../../conversation/caches.js';
import { Memo } from '../../conversation/remember.js';
import { RecentBytes } from '../recent-bytes.js';
import { audioDigest } from './hear.js';
import type { SpeechRequest, SpokenAudio } from './speech-file.js';
import { speakOnWorker } from './audio-thread.js';

/** The most the speech cache holds, and so the largest speech it keeps. */
export const SPEECH_CACHE_BYTES = 32 * 1024 * 1024;

const recent = new RecentBytes<SpokenAudio>('speech', 32, SPEECH_CACHE_BYTES);
const spokenPcm = new Memo<string>('speech', 4096, textBytes);

/** The samples before trailing silence: what a client appends after the speech (the quiet that ends its turn) is no part of it. */
function voiced(pcm: Uint8Array): Buffer {
  let end = pcm.length - (pcm.length % 2);
  while (end >= 2 && pcm[end - 1] === 0 && pcm[end - 2] === 0) end -= 2;
  return Buffer.from(pcm.buffer, pcm.byteOffset, end);
}

export function speak(request: SpeechRequest): Promise<SpokenAudio> {
  const key = JSON.stringify([request.text, request.voice, request.format, request.speed, String(request.seed)]);
  return recent.remembered(key, async () => {
    const spoken = await speakOnWorker(request);
    if (request.format === 'pcm') spokenPcm.set(audioDigest(voiced(spoken.data)), request.text);
    return spoken;
  });
}

/** The text of PCM16 the mock itself spoke, whatever silence follows it; undefined for any other audio. */
export function spokenTextOf(pcm: Buffer): string | undefined {
  return spokenPcm.get(audioDigest(voiced(pcm)));
}
