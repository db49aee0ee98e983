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

/**
 * Whether the text the pieces join into holds `needle`, without joining them: megabytes joined
 * into a new string cost tens of milliseconds on a machine slow to hand out fresh memory. A needle
 * across a cut is looked for where the two pieces meet; one longer than some piece, in the join.
 */
export function piecesInclude(pieces: readonly string[], needle: string): boolean {
  const reach = needle.length - 1;
  if (pieces.some((piece, i) => piece.length < reach && i < pieces.length - 1)) return pieces.join('').includes(needle);
  for (let i = 0; i < pieces.length; i++) {
    if (pieces[i]!.includes(needle)) return true;
    if (reach > 0 && i + 1 < pieces.length && `${pieces[i]!.slice(-reach)}${pieces[i + 1]!.slice(0, reach)}`.includes(needle)) return true;
  }
  return false;
}
