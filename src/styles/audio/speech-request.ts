// `POST /v1/audio/speech` bodies, checked as the vendor checks them: 400 naming the field.
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { invalid } from '../../conversation/errors.js';
import { parseBody } from '../validate.js';

/** The voices the installed openai SDK documents for `audio.speech.create`. */
export const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', 'verse', 'marin', 'cedar'] as const;
export const SPEECH_RESPONSE_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export const MAX_SPEECH_INPUT = 4096;

/** The body's schema, made at the first speech asked: a start that serves none builds none. */
const body = madeAtFirstUse(() =>
  z.looseObject({
    model: z.string().min(1),
    input: z.string(),
    voice: z.union([z.enum(VOICES), z.strictObject({ id: z.string().min(1) })]),
    response_format: z.enum(SPEECH_RESPONSE_FORMATS).nullish(),
    speed: z.number().min(0.25).max(4).nullish(),
    instructions: z.string().nullish(),
    stream_format: z.enum(['audio', 'sse']).nullish(),
  }),
);

export interface SpeechBody {
  model: string;
  input: string;
  /** A built-in voice's name, or a custom voice's id. */
  voice: string;
  format: (typeof SPEECH_RESPONSE_FORMATS)[number];
  speed: number;
  instructions?: string;
  sse: boolean;
}

/** Whether a model takes `instructions` and `stream_format: sse` (the gpt-4o-mini-tts family). */
export function steerable(model: string): boolean {
  return model.startsWith('gpt-4o-mini-tts');
}

export function decodeSpeech(input: unknown): SpeechBody {
  const data = parseBody(body(), input);
  if (data.input.length === 0 || data.input.length > MAX_SPEECH_INPUT) {
    throw invalid(`Invalid value for 'input': it must be 1 to ${MAX_SPEECH_INPUT} characters long, got ${data.input.length}.`, 'input', 'invalid_value');
  }
  if (data.instructions != null && !steerable(data.model)) {
    throw invalid(`Invalid value for 'instructions': the model '${data.model}' does not take instructions; gpt-4o-mini-tts does.`, 'instructions', 'invalid_value');
  }
  if (data.stream_format === 'sse' && !steerable(data.model)) {
    throw invalid(`Invalid value for 'stream_format': 'sse' is not supported for '${data.model}'; gpt-4o-mini-tts streams events.`, 'stream_format', 'invalid_value');
  }
  return {
    model: data.model,
    input: data.input,
    voice: typeof data.voice === 'string' ? data.voice : data.voice.id,
    format: data.response_format ?? 'mp3',
    speed: data.speed ?? 1,
    instructions: data.instructions ?? undefined,
    sse: data.stream_format === 'sse',
  };
}
