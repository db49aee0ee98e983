// The fields of `POST /v1/audio/transcriptions` and `/translations` (multipart, so numbers and
// booleans arrive as strings; `timestamp_granularities[]`, `include[]` and `known_speaker_names[]`
// as lists). The file is judged apart.
import * as z from 'zod';
import { formBool } from '../form.js';
import { parseBody } from '../validate.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';

export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** The body's schema, made at the first transcription request: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const granularity = z.enum(['word', 'segment']);
  /** A form sends a list of one as a plain field. */
  const listOf = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]).transform((value) => (Array.isArray(value) ? value : [value]) as Array<z.infer<T>>);

  const body = z.looseObject({
    model: z.string().min(1),
    language: z.string().nullish(),
    prompt: z.string().nullish(),
    response_format: z.enum(TRANSCRIPT_FORMATS).nullish(),
    temperature: z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/).transform(Number)]).pipe(z.number().min(0).max(1)).nullish(),
    timestamp_granularities: listOf(granularity).nullish(),
    include: listOf(z.enum(['logprobs'])).nullish(),
    known_speaker_names: listOf(z.string().min(1)).pipe(z.array(z.string()).max(4)).nullish(),
    stream: formBool().nullish(),
  });
  return { body };
});

export interface TranscriptionBody {
  model: string;
  language?: string;
  prompt?: string;
  format: TranscriptFormat;
  granularities: ReadonlyArray<'word' | 'segment'>;
  stream: boolean;
  /** `include: ["logprobs"]`. */
  logprobs: boolean;
  /** `known_speaker_names`: the labels a diarized transcript gives its speakers, in order. */
  speakers: string[];
}

export function decodeTranscription(input: unknown): TranscriptionBody {
  const data = parseBody(schemas().body, input);
  const granularities = data.timestamp_granularities;
  return {
    model: data.model,
    language: data.language ?? undefined,
    prompt: data.prompt ?? undefined,
    format: data.response_format ?? 'json',
    // Without `timestamp_granularities`, verbose_json carries segments, as the vendor's does.
    granularities: granularities ?? ['segment'],
    stream: data.stream === true,
    logprobs: data.include?.includes('logprobs') === true,
    speakers: data.known_speaker_names ?? [],
  };
}
