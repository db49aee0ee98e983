// A long text cut into pieces for work done a piece at a time (hashed, spelled as JSON, converted
// to bytes): never between the two halves of a surrogate pair, where each piece alone would hold
// a lone surrogate and hash, escape or encode differently from the whole text.

/** Where a piece of at most `size` characters starting at `from` ends. */
export function pieceEnd(text: string, from: number, size: number): number {
  const end = Math.min(from + size, text.length);
  const last = text.charCodeAt(end - 1);
  return end < text.length && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/** The text in pieces of at most `size` characters, which joined are the text. */
export function* textPieces(text: string, size: number): Generator<string> {
  for (let from = 0; from < text.length; ) {
    const end = pieceEnd(text, from, size);
    yield text.slice(from, end);
    from = end;
  }
}

/** The characters of a text, whole or in the pieces that joined make it. */
export function lengthOf(text: string | readonly string[]): number {
  if (typeof text === 'string') return text.length;
  let length = 0;
  for (const piece of text) length += piece.length;
  return length;
}
