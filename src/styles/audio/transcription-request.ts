// The fields of `POST /v1/audio/transcriptions` and `/translations` (multipart, so numbers and
// booleans arrive as strings; `timestamp_granularities[]` as a list). The file is judged apart.
import * as z from 'zod';
import { formBool } from '../form.js';
import { parseBody } from '../validate.js';

export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

const granularity = z.enum(['word', 'segment']);

const body = z.looseObject({
  model: z.string().min(1),
  language: z.string().nullish(),
  prompt: z.string().nullish(),
  response_format: z.enum(TRANSCRIPT_FORMATS).nullish(),
  temperature: z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/).transform(Number)]).pipe(z.number().min(0).max(1)).nullish(),
  timestamp_granularities: z.union([granularity, z.array(granularity)]).nullish(),
  stream: formBool.nullish(),
});

export interface TranscriptionBody {
  model: string;
  language?: string;
  prompt?: string;
  format: TranscriptFormat;
  granularities: ReadonlyArray<'word' | 'segment'>;
  stream: boolean;
}

export function decodeTranscription(input: unknown): TranscriptionBody {
  const data = parseBody(body, input);
  const granularities = data.timestamp_granularities;
  return {
    model: data.model,
    language: data.language ?? undefined,
    prompt: data.prompt ?? undefined,
    format: data.response_format ?? 'json',
    // Without `timestamp_granularities`, verbose_json carries segments, as the vendor's does.
    granularities: granularities == null ? ['segment'] : Array.isArray(granularities) ? granularities : [granularities],
    stream: data.stream === true,
  };
}
