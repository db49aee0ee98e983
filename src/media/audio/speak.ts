// Speech for the server: made on the audio worker (audio-thread.ts), and remembered by what
// decides its bytes, within a byte budget.
import { RecentBytes } from '../recent-bytes.js';
import type { SpeechRequest, SpokenAudio } from './speech-file.js';
import { speakOnWorker } from './audio-thread.js';

/** The most the speech cache holds, and so the largest speech it keeps. */
export const SPEECH_CACHE_BYTES = 32 * 1024 * 1024;

const recent = new RecentBytes<SpokenAudio>('speech', 32, SPEECH_CACHE_BYTES);

export function speak(request: SpeechRequest): Promise<SpokenAudio> {
  const key = JSON.stringify([request.text, request.voice, request.format, request.speed, String(request.seed)]);
  return recent.remembered(key, () => speakOnWorker(request));
}
