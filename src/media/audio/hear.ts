// What an uploaded audio file is, as a transcription judges it: its kind (by the file name's
// extension, else by its first bytes), its length (read from its header by music-metadata, else
// estimated from its size), and the text it carries when the mock itself spoke it. A header or a
// tag says what it likes: the length is at most what the file's bytes can hold, the text at most
// what that length carries.
import { createHash } from 'node:crypto';
import { FASTEST_SPEED, MAX_SPOKEN_CHARACTERS, SECONDS_PER_WORD } from './tones.js';
import { VENDOR } from './vorbis-comment.js';

/** The kinds the vendor takes, by extension. */
export const AUDIO_KINDS = ['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'wav', 'webm'] as const;
export type AudioKind = (typeof AUDIO_KINDS)[number];

// A file of unknown kind is taken to run at 128 kbit/s, a common rate for recorded speech.
const ESTIMATED_BYTES_PER_SECOND = 16_000;
// The fewest bytes a second of any recording takes: 8 kbit/s, under the leanest speech codecs'
// settings and under every format the mock speaks (its Ogg Opus takes about 3,300).
const LEAST_BYTES_PER_SECOND = 1_000;

export interface HeardAudio {
  seconds: number;
  /** Whether `seconds` was read from the file rather than estimated from its size. */
  measured: boolean;
  /** The text the mock's own speech carries in its comment field. */
  spokenText?: string;
}

/** What `sha256:` fixtures match on. */
export function audioDigest(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function byContent(data: Buffer): AudioKind | undefined {
  const ascii = (from: number, to: number) => data.subarray(from, to).toString('latin1');
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (ascii(0, 4) === 'fLaC') return 'flac';
  if (ascii(0, 4) === 'OggS') return 'ogg';
  if (ascii(0, 3) === 'ID3' || (data[0] === 0xff && ((data[1] ?? 0) & 0xe0) === 0xe0)) return 'mp3';
  if (ascii(4, 8) === 'ftyp') return ascii(8, 11) === 'M4A' ? 'm4a' : 'mp4';
  if (data.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  return undefined;
}

/** The file's kind: its extension when it names one, else its content; undefined when neither tells. */
export function audioKind(filename: string, data: Buffer): AudioKind | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (extension && (AUDIO_KINDS as readonly string[]).includes(extension)) return extension as AudioKind;
  return data.length >= 12 ? byContent(data) : undefined;
}

interface Metadata {
  format: { duration?: number; tool?: string; codec?: string; sampleRate?: number; numberOfChannels?: number; bitsPerSample?: number };
  common: { comment?: Array<{ text?: string }>; encodedby?: string };
  native: Record<string, Array<{ id: string; value: unknown }>>;
}

/** Whether the tags say the mock made the file: its name as the encoder or the vendor string. */
function madeByMock({ format, common, native }: Metadata): boolean {
  if (format.tool === VENDOR || common.encodedby === VENDOR) return true;
  return Object.values(native).some((tags) => tags.some((tag) => tag.id.toUpperCase() === 'ENCODER' && tag.value === VENDOR));
}

/** The longest the file's bytes can play: PCM at its own rate, anything at the leanest rate. */
function longestSeconds(size: number, { codec, sampleRate, numberOfChannels, bitsPerSample }: Metadata['format']): number {
  const lean = size / LEAST_BYTES_PER_SECOND;
  if (codec !== 'PCM' || !sampleRate || !numberOfChannels || !bitsPerSample) return lean;
  return Math.min(lean, size / (sampleRate * numberOfChannels * Math.ceil(bitsPerSample / 8)));
}

/** The tag's text, cut to what the mock's speech of that length can say: its fastest words, its longest input. */
function spokenWithin(tag: string, seconds: number): string {
  const text = tag.slice(0, MAX_SPOKEN_CHARACTERS);
  // A word of slack: a container rounds its length to its own frames.
  const words = Math.ceil((seconds * FASTEST_SPEED) / SECONDS_PER_WORD) + 1;
  const word = /\S+/g;
  for (let count = 0; count < words; count++) if (!word.exec(text)) return text;
  return text.slice(0, word.lastIndex);
}

export async function hearAudio(data: Buffer): Promise<HeardAudio> {
  const estimate = { seconds: Math.max(1, data.length / ESTIMATED_BYTES_PER_SECOND), measured: false };
  let metadata: Metadata;
  try {
    // Loaded with the first upload: start-up does not pay for it.
    const { parseBuffer } = await import('music-metadata');
    metadata = (await parseBuffer(data, undefined, { duration: true })) as unknown as Metadata;
  } catch {
    // A file the reader cannot make out is still a file: the vendor would try to hear it too.
    return estimate;
  }
  const claimed = metadata.format.duration;
  const seconds = claimed !== undefined && Number.isFinite(claimed) && claimed > 0 ? Math.min(claimed, longestSeconds(data.length, metadata.format)) : undefined;
  const heard = seconds === undefined ? estimate : { ...estimate, seconds, measured: true };
  const tag = madeByMock(metadata) ? metadata.common.comment?.[0]?.text : undefined;
  return tag === undefined ? heard : { ...heard, spokenText: spokenWithin(tag, heard.seconds) };
}
