// A Vorbis comment block (vendor string, then KEY=value fields, little-endian lengths), the tag
// format FLAC and Ogg Opus share.
export const VENDOR = 'model-gateway-mock';

export function vorbisComment(fields: ReadonlyArray<readonly [string, string]>): Buffer {
  const parts: Buffer[] = [];
  const add = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(bytes.length);
    parts.push(length, bytes);
  };
  add(VENDOR);
  const count = Buffer.alloc(4);
  count.writeUInt32LE(fields.length);
  parts.push(count);
  for (const [key, value] of fields) add(`${key}=${value}`);
  return Buffer.concat(parts);
}
