// Transcription and translation answers in each `response_format`, whole or as the transcript
// stream, with usage counted per model: tokens for the gpt-4o transcribe models, seconds for
// whisper-1. Logprobs (when `include` asks) and the diarized form come from the same text, so
// a stream's pieces join to the whole answer's.
import { audioTokens } from '../../conversation/audio-tokens.js';
import { tokenLogprobs } from '../../conversation/logprobs.js';
import type { Metered } from '../../conversation/usage.js';
import type { StreamEvent } from '../../conversation/plan.js';
import { chunkText } from '../../conversation/token-chunks.js';
import { countTokens } from '../../conversation/tokens.js';
import type { TranscriptFormat } from './transcription-request.js';
import { diarizedSegments, srt, timeline, verboseSegments, vtt, type DiarizedSegment } from './transcript.js';

export interface Transcript {
  task: 'transcribe' | 'translate';
  model: string;
  text: string;
  /** A language name (`english`). */
  language: string;
  seconds: number;
  prompt?: string;
  granularities: ReadonlyArray<'word' | 'segment'>;
  /** The seed of the tokens' logprobs, when `include` asks for them. */
  logprobsSeed?: string;
  /** The speakers' labels of a diarizing model (`known_speaker_names`, else `A`, `B`). */
  speakers?: readonly string[];
}

/** The model that labels speakers, the one `diarized_json` is for. */
export const DIARIZING_MODEL = 'gpt-4o-transcribe-diarize';

/** Whether the model bills tokens (and streams): the gpt-4o family; whisper-1 bills seconds. */
export function tokenBilled(model: string): boolean {
  return model.startsWith('gpt-4o');
}

/** What the transcript is billed by: its tokens (gpt-4o models), else its whole seconds, at least one. */
export function transcriptMetered({ model, text, seconds, prompt }: Transcript): Metered {
  if (!tokenBilled(model)) return { minutes: Math.max(1, Math.round(seconds)) / 60 };
  const input = (prompt ? countTokens(prompt) : 0) + audioTokens(seconds);
  const output = countTokens(text);
  return { tokens: { input_tokens: input, cached_input_tokens: 0, output_tokens: output, reasoning_tokens: 0 } };
}

function usage({ model, text, seconds, prompt }: Transcript): object {
  if (!tokenBilled(model)) return { type: 'duration', seconds: Math.max(1, Math.round(seconds)) };
  const textTokens = prompt ? countTokens(prompt) : 0;
  const audio = audioTokens(seconds);
  const output = countTokens(text);
  return {
    type: 'tokens',
    input_tokens: textTokens + audio,
    input_token_details: { text_tokens: textTokens, audio_tokens: audio },
    output_tokens: output,
    total_tokens: textTokens + audio + output,
  };
}

/** The SDK's `Transcription.Logprob`: token, logprob, bytes; no alternatives. */
function logprobs(transcript: Transcript, text: string, offset = 0): object {
  if (transcript.logprobsSeed === undefined) return {};
  return { logprobs: tokenLogprobs(text, transcript.logprobsSeed, 0, offset).map(({ token, logprob, bytes }) => ({ token, logprob, bytes })) };
}

function diarized(transcript: Transcript): DiarizedSegment[] {
  return diarizedSegments(timeline(transcript.text, transcript.seconds), transcript.speakers ?? []);
}

export type TranscriptBody = { json: object } | { text: string; contentType: string };

export function encodeTranscript(transcript: Transcript, format: TranscriptFormat): TranscriptBody {
  const line = timeline(transcript.text, transcript.seconds);
  switch (format) {
    case 'json':
      return { json: transcript.task === 'transcribe' ? { text: transcript.text, ...logprobs(transcript, transcript.text), usage: usage(transcript) } : { text: transcript.text } };
    case 'text':
      return { text: `${transcript.text}\n`, contentType: 'text/plain; charset=utf-8' };
    case 'srt':
      return { text: srt(line), contentType: 'text/plain; charset=utf-8' };
    case 'vtt':
      return { text: vtt(line), contentType: 'text/vtt; charset=utf-8' };
    case 'verbose_json':
      return {
        json: {
          task: transcript.task,
          language: transcript.language,
          duration: line.duration,
          text: transcript.text,
          ...(transcript.granularities.includes('segment') ? { segments: verboseSegments(line) } : {}),
          ...(transcript.granularities.includes('word') ? { words: line.words } : {}),
          usage: usage(transcript),
        },
      };
    case 'diarized_json':
      return { json: { task: 'transcribe', duration: line.duration, text: transcript.text, segments: diarized(transcript), usage: usage(transcript) } };
  }
}

/** A piece of text as `transcript.text.delta` events a token at a time, starting at `offset` in the transcript. */
function deltas(transcript: Transcript, text: string, offset: number, segment: object = {}): StreamEvent[] {
  let at = offset;
  return chunkText(text, 'token').map((delta) => {
    const event = { data: { type: 'transcript.text.delta', delta, ...logprobs(transcript, delta, at), ...segment }, paced: true };
    at += delta.length;
    return event;
  });
}

/**
 * `transcript.text.delta` events a token at a time, then `transcript.text.done` with usage; a
 * diarizing model's deltas name their segment, and each segment follows its deltas as a
 * `transcript.text.segment` event.
 */
export function transcriptEvents(transcript: Transcript): StreamEvent[] {
  const done = { data: { type: 'transcript.text.done', text: transcript.text, ...logprobs(transcript, transcript.text), usage: usage(transcript) } };
  if (transcript.speakers === undefined) return [...deltas(transcript, transcript.text, 0), done];
  const segments = diarized(transcript).flatMap((segment, index) => [
    ...deltas(transcript, index === 0 ? segment.text : ` ${segment.text}`, 0, { segment_id: segment.id }),
    { data: segment },
  ]);
  return [...segments, done];
}
