// A long text's lower case made a piece at a time, so a request carrying megabytes of one message
// does not hold the event loop while every fixture's `contains` waits for it.
import type { Steps } from './steps.js';

/** About a millisecond of `toLowerCase` a piece. */
const PIECE = 64 * 1024;

const CAPITAL_SIGMA = '\u03a3';
const IGNORABLE = new Set([0x27, 0x2e, 0x3a, 0x5e, 0x60]);

/**
 * Where a piece may end so that the pieces lower-case as the whole text does. Lower-casing looks
 * at context only for a capital sigma (final or not, by the letters around it, across
 * case-ignorable characters): without one, anywhere but inside a surrogate pair; with one, only
 * between two ASCII characters that are not case-ignorable (`'`, `.`, `:`, `^`, `` ` ``).
 */
function safeCut(text: string, at: number, sigma: boolean): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  if (!sigma) return !(before >= 0xd800 && before <= 0xdbff);
  return before < 0x80 && after < 0x80 && !IGNORABLE.has(before) && !IGNORABLE.has(after);
}

/** `text.toLowerCase()`, a step between pieces of about PIECE characters. */
export function* lowerCaseSteps(text: string): Steps<string> {
  return (yield* lowerCasePieceSteps(text)).join('');
}

/** The pieces that joined are `text.toLowerCase()`, a step between pieces of about PIECE characters. */
export function* lowerCasePieceSteps(text: string): Steps<string[]> {
  const sigma = text.includes(CAPITAL_SIGMA);
  const pieces: string[] = [];
  let from = 0;
  while (text.length - from > PIECE) {
    let to = from + PIECE;
    // A text without such a place for a while is lower-cased in a longer piece.
    while (to < text.length && !safeCut(text, to, sigma)) to++;
    pieces.push(text.slice(from, to).toLowerCase());
    from = to;
    yield;
  }
  pieces.push(text.slice(from).toLowerCase());
  return pieces;
}
