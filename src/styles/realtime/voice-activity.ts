// Server VAD from the audio's own silence: input PCM16 (24 kHz unless told) is read 20 ms at a time,
// a frame loud enough is speech, and speech followed by the session's silence is a finished utterance.
// Pure: the detector is a value the socket feeds and reads.

export const INPUT_RATE = 24_000;
/** The vendors' silence that ends an utterance when the session does not say. */
export const DEFAULT_SILENCE_MS = 500;
/** Peak amplitude above which a frame is speech: far over a quiet room's noise, far under a voice. */
const SPEECH_PEAK = 1_000;

export interface Detection {
  /** Set once speech begins: ms from the buffer's start. */
  startedMs?: number;
  /** Set once the speech has been followed by enough silence: ms from the buffer's start. */
  stoppedMs?: number;
}

export interface VoiceActivity {
  /** Reads `pcm` (appended to what came before) and says what changed; `silenceMs` of quiet after speech end it (the session's setting, which may change between appends). */
  hear(pcm: Buffer, silenceMs: number): Detection;
  reset(): void;
}

export function voiceActivity(rate = INPUT_RATE): VoiceActivity {
  const FRAME_SAMPLES = rate / 50;
  let samples = 0;
  let started: number | undefined;
  let lastSpeech = 0;
  let carry = Buffer.alloc(0);
  return {
    hear(pcm, silenceMs) {
      const change: Detection = {};
      let data = Buffer.concat([carry, pcm]);
      const whole = data.length - (data.length % (FRAME_SAMPLES * 2));
      carry = data.subarray(whole);
      data = data.subarray(0, whole);
      for (let frame = 0; frame < data.length; frame += FRAME_SAMPLES * 2) {
        let peak = 0;
        for (let at = frame; at < frame + FRAME_SAMPLES * 2; at += 2) peak = Math.max(peak, Math.abs(data.readInt16LE(at)));
        const ms = Math.round((samples * 1000) / rate);
        samples += FRAME_SAMPLES;
        if (peak >= SPEECH_PEAK) {
          if (started === undefined) change.startedMs = started = ms;
          lastSpeech = ms + 20;
        } else if (started !== undefined && ms + 20 - lastSpeech >= silenceMs) {
          change.stoppedMs = lastSpeech;
          started = undefined;
        }
      }
      return change;
    },
    reset() {
      samples = 0;
      started = undefined;
      lastSpeech = 0;
      carry = Buffer.alloc(0);
    },
  };
}
