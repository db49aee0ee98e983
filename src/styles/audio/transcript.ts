// A transcript laid over the audio's length: every word gets an equal share of the time (the
// mock's own speech gives each word the same time, so its words land on its tones), sentences
// become segments, and the formats the vendor offers are written from that one timeline.
export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

export interface Segment {
  id: number;
  start: number;
  end: number;
  text: string;
}

export interface Timeline {
  text: string;
  duration: number;
  words: TimedWord[];
  segments: Segment[];
}

/** Times to the millisecond, as the vendor's JSON shows them. */
const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

export function timeline(text: string, duration: number): Timeline {
  const spoken = text.split(/\s+/).filter(Boolean);
  const share = duration / Math.max(1, spoken.length);
  const words = spoken.map((word, index) => ({
    word: word.replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '') || word,
    start: round(index * share),
    end: round(index === spoken.length - 1 ? duration : (index + 1) * share),
  }));
  const segments: Segment[] = [];
  let first = 0;
  spoken.forEach((word, index) => {
    const last = index === spoken.length - 1;
    if (!last && !/[.!?]["')\]]*$/.test(word)) return;
    segments.push({ id: segments.length, start: words[first]!.start, end: words[index]!.end, text: ` ${spoken.slice(first, index + 1).join(' ')}` });
    first = index + 1;
  });
  if (segments.length === 0) segments.push({ id: 0, start: 0, end: round(duration), text: text ? ` ${text}` : '' });
  return { text, duration: round(duration), words, segments };
}

function clock(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

export function srt({ segments }: Timeline): string {
  return segments.map((s, i) => `${i + 1}\n${clock(s.start, ',')} --> ${clock(s.end, ',')}\n${s.text.trim()}\n`).join('\n');
}

export function vtt({ segments }: Timeline): string {
  return `WEBVTT\n\n${segments.map((s) => `${clock(s.start, '.')} --> ${clock(s.end, '.')}\n${s.text.trim()}\n`).join('\n')}`;
}

/** `verbose_json`'s segments, with the fields the vendor fills in (a confident, clean hearing). */
export function verboseSegments({ segments }: Timeline): object[] {
  return segments.map((s) => ({
    id: s.id,
    seek: 0,
    start: s.start,
    end: s.end,
    text: s.text,
    tokens: [],
    temperature: 0,
    avg_logprob: -0.25,
    compression_ratio: 1.2,
    no_speech_prob: 0.01,
  }));
}

/** The SDK's `TranscriptionDiarizedSegment`. */
export interface DiarizedSegment {
  type: 'transcript.text.segment';
  id: string;
  start: number;
  end: number;
  speaker: string;
  text: string;
}

/**
 * A diarized transcript's segments: one a sentence, the speakers taking turns sentence by
 * sentence (the known speakers' names in order, else `A` and `B`, as the vendor labels unknown
 * ones), so a client sees a conversation it can group by speaker.
 */
export function diarizedSegments({ segments }: Timeline, known: readonly string[]): DiarizedSegment[] {
  const speakers = known.length > 0 ? known : ['A', 'B'];
  return segments.map((s) => ({
    type: 'transcript.text.segment',
    id: `seg_${s.id}`,
    start: s.start,
    end: s.end,
    speaker: speakers[s.id % speakers.length]!,
    text: s.text.trim(),
  }));
}
