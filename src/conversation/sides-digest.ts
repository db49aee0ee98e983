// A digest of a conversation read by side (user and tool results, or assistant): the JSON
// `[head..., [["u",[...]],["a",[...]]], tail...]` hashed with SHA-1, each part's content given by
// the caller. The content key and the fingerprint are two such digests. A request that continues
// a stored response digests only the turns the request before it had not: the SHA-1 state after
// its turns is remembered by the turn they ended with. A conversation of megabytes is spelled and
// hashed a piece at a time, as steps (conversation/steps.ts), into the digest spelling it whole gives.
import { createHash, type Hash } from 'node:crypto';
import { hashHex } from './random.js';
import type { Steps } from './steps.js';
import { textPieces } from './text-pieces.js';
import { TurnPrefixes } from './turn-prefixes.js';
import type { Part, Turn } from './types.js';

/** Characters of JSON spelled and hashed a step: about a millisecond of work. */
const PIECE = 256 * 1024;

/** Where the sides' JSON stands after some turns: the side still open, and whether it has content yet. */
interface Sides {
  side: 'u' | 'a' | undefined;
  filled: boolean;
}

const isLong = (value: unknown): boolean => typeof value === 'string' && value.length > PIECE;

/** `JSON.stringify(value)` in pieces: a long string, alone or in an array, a piece at a time. */
function* jsonPieces(value: unknown): Generator<string> {
  if (isLong(value)) {
    yield '"';
    // Cut never inside a surrogate pair, each piece escapes as it does within the whole.
    for (const piece of textPieces(value as string, PIECE)) yield JSON.stringify(piece).slice(1, -1);
    yield '"';
  } else if (Array.isArray(value) && value.some(isLong)) {
    yield '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) yield ',';
      yield* jsonPieces(value[index] ?? null);
    }
    yield ']';
  } else yield JSON.stringify(value);
}

/** JSON text on its way into a digest: kept until it is long, then hashed a piece a step. */
class Feed {
  private text = '';

  constructor(private hash?: Hash) {}

  /** Adds `json`; true when a step's worth of it was hashed. */
  add(json: string): boolean {
    this.text += json;
    if (this.text.length < PIECE) return false;
    this.flushed();
    return true;
  }

  /** The hash of all that was added. */
  flushed(): Hash {
    this.hash ??= createHash('sha1');
    if (this.text !== '') this.hash.update(this.text);
    this.text = '';
    return this.hash;
  }

  /** Sixteen hex digits of the digest of all that was added and `last`: a short text's in one shot, as `hashHex`. */
  digest(last: string): string {
    if (!this.hash) return hashHex(this.text + last);
    // SHA-1 fed in pieces gives the digest of the pieces joined, as hashHex's one-shot does.
    return this.hash.update(this.text + last).digest('hex').slice(0, 16);
  }
}

export class SidesDigest {
  private readonly carried = new TurnPrefixes<{ hash: Hash; sides: Sides }>();

  /**
   * `content`: what a part says (serialised as JSON), or undefined for a part the digest leaves
   * out. Not kept: a carried part is spelled once, by the request that brought it, and keeping
   * its JSON would copy every text held.
   */
  constructor(private readonly content: (part: Part) => unknown) {}

  /** The JSON of `turns` from `from` on, going on from `sides` (which it moves along), the last side left open. */
  private *sidesJson(turns: readonly Turn[], from: number, sides: Sides): Generator<string> {
    for (let index = from; index < turns.length; index += 1) {
      const turn = turns[index]!;
      const side = turn.role === 'assistant' ? 'a' : 'u';
      if (side !== sides.side) {
        yield `${sides.side ? ']],' : ''}["${side}",[`;
        sides.side = side;
        sides.filled = false;
      }
      for (const part of turn.parts) {
        const content = this.content(part);
        if (content === undefined) continue;
        if (sides.filled) yield ',';
        yield* jsonPieces(content);
        sides.filled = true;
      }
    }
  }

  /**
   * `head`: the JSON before the sides, ending in their opening `[`; `after`: what follows them,
   * from `,`. `carriedTurns`: how many turns came from a stored response, or undefined for a
   * style that carries none (then nothing is remembered). Sixteen hex digits, as `hashHex`; a step
   * between pieces of a long conversation.
   */
  *digestSteps(head: string, turns: readonly Turn[], carriedTurns: number | undefined, after: string): Steps<string> {
    const sides: Sides = { side: undefined, filled: false };
    const known = carriedTurns === undefined ? undefined : this.carried.resume(turns, carriedTurns, head);
    // A style that carries turns keeps a Hash, whose state is remembered; the others hash short texts in one shot.
    const feed = new Feed(carriedTurns === undefined ? undefined : known ? known.state.hash.copy() : createHash('sha1'));
    if (known) Object.assign(sides, known.state.sides);
    else if (feed.add(head)) yield;
    for (const json of this.sidesJson(turns, known?.covered ?? 0, sides)) if (feed.add(json)) yield;
    if (carriedTurns !== undefined) {
      const hash = feed.flushed();
      this.carried.remember(turns, head, known?.covered, () => ({ hash: hash.copy(), sides: { ...sides } }));
    }
    return feed.digest(close(sides) + after);
  }
}

function close(sides: Sides): string {
  return `${sides.side ? ']]' : ''}]`;
}
