// `stream_format: sse` speech: the audio in base64 pieces, then the usage.
import type { StreamEvent } from '../../conversation/plan.js';

const PIECE_BYTES = 12 * 1024; // a multiple of 3: each piece is whole base64

export interface SpeechUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

/**
 * One piece of the audio, serialized when the writer reaches it: a 4,096-character speech is 15
 * MB of base64, which made at once held the event loop about 30 ms before the first byte; the
 * writer's slices spread it instead.
 */
class AudioDelta implements StreamEvent {
  readonly paced = true;
  private text: string | undefined;

  constructor(private readonly audio: Buffer) {}

  get json(): string {
    // base64 holds no character JSON escapes.
    return (this.text ??= `{"type":"speech.audio.delta","audio":"${this.audio.toString('base64')}"}`);
  }

  get data(): unknown {
    return JSON.parse(this.json);
  }
}

export function speechEvents(audio: Buffer, usage: SpeechUsage): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (let at = 0; at < audio.length; at += PIECE_BYTES) events.push(new AudioDelta(audio.subarray(at, at + PIECE_BYTES)));
  events.push({ data: { type: 'speech.audio.done', usage } });
  return events;
}
