// A video clip judged by its bytes (the source of an edit or an extension, a character's
// footage, a reference): an MP4 or QuickTime file, its length read from the movie header.

export function isClip(data: Buffer): boolean {
  return data.length >= 8 && data.toString('latin1', 4, 8) === 'ftyp';
}

/** The clip's whole seconds from its `mvhd` box (rounded, at least 1); undefined without one. */
export function clipSeconds(data: Buffer): number | undefined {
  const at = data.indexOf('mvhd', 0, 'latin1');
  if (at < 0) return undefined;
  const version = data[at + 4];
  const fields = version === 1 ? at + 24 : at + 16;
  if (fields + (version === 1 ? 12 : 8) > data.length) return undefined;
  const timescale = data.readUInt32BE(fields);
  const duration = version === 1 ? Number(data.readBigUInt64BE(fields + 4)) : data.readUInt32BE(fields + 4);
  return timescale > 0 ? Math.max(1, Math.round(duration / timescale)) : undefined;
}
