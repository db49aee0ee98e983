// `stream_format: sse` speech: the audio in base64 pieces, then the usage.
import type { StreamEvent } from '../../conversation/plan.js';

const PIECE_BYTES = 12 * 1024; // a multiple of 3: each piece is whole base64

export interface SpeechUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export function speechEvents(audio: Buffer, usage: SpeechUsage): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (let at = 0; at < audio.length; at += PIECE_BYTES) {
    events.push({ data: { type: 'speech.audio.delta', audio: audio.subarray(at, at + PIECE_BYTES).toString('base64') }, paced: true });
  }
  events.push({ data: { type: 'speech.audio.done', usage } });
  return events;
}
