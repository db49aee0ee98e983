// What every speech format's encoder offers: samples in, a slice at a time, then the whole file.
export interface SampleEncoder {
  encode(samples: Int16Array): void;
  /** The finished file; the encoder is spent after it. */
  finish(): Buffer;
}

export interface SpeechTags {
  /** The text spoken, carried in the container's comment field. */
  text: string;
  totalSamples: number;
}

/** Opens an encoder for one file, loading its codec on first use. */
export type OpenEncoder = (tags: SpeechTags) => Promise<SampleEncoder>;

/** Collects the parts of a file as they come. */
export function collector(): { parts: Buffer[]; add(bytes: Uint8Array): void; bytes(): Buffer } {
  const parts: Buffer[] = [];
  return { parts, add: (bytes) => parts.push(Buffer.from(bytes)), bytes: () => Buffer.concat(parts) };
}
