// A digest of a conversation read by side (user and tool results, or assistant): the JSON
// `[head..., [["u",[...]],["a",[...]]], tail...]` hashed with SHA-1, each part spelled by the
// caller. The content key and the fingerprint are two such digests. A request that continues a
// stored response digests only the turns the request before it had not: the SHA-1 state after
// its turns is remembered by the turn they ended with.
import { createHash, type Hash } from 'node:crypto';
import { hashHex } from './random.js';
import { TurnPrefixes } from './turn-prefixes.js';
import type { Part, Turn } from './types.js';

/** Where the sides' JSON stands after some turns: the side still open, and whether it has content yet. */
interface Sides {
  side: 'u' | 'a' | undefined;
  filled: boolean;
}

export class SidesDigest {
  private readonly carried = new TurnPrefixes<{ hash: Hash; sides: Sides }>();

  /**
   * `spell`: a part's JSON, or null for a part the digest leaves out. Not kept: a carried part is
   * spelled once, by the request that brought it, and keeping its JSON would copy every text held.
   */
  constructor(private readonly spell: (part: Part) => string | null) {}

  /** The JSON of `turns` from `from` on, going on from `sides` (which it moves along), the last side left open. */
  private sidesText(turns: readonly Turn[], from: number, sides: Sides): string {
    let text = '';
    for (let index = from; index < turns.length; index += 1) {
      const turn = turns[index]!;
      const side = turn.role === 'assistant' ? 'a' : 'u';
      if (side !== sides.side) {
        text += `${sides.side ? ']],' : ''}["${side}",[`;
        sides.side = side;
        sides.filled = false;
      }
      for (const part of turn.parts) {
        const json = this.spell(part);
        if (json === null) continue;
        text += sides.filled ? `,${json}` : json;
        sides.filled = true;
      }
    }
    return text;
  }

  /**
   * `head`: the JSON before the sides, ending in their opening `[`; `after`: what follows them,
   * from `,`. `carriedTurns`: how many turns came from a stored response, or undefined for a
   * style that carries none (then nothing is remembered). Sixteen hex digits, as `hashHex`.
   */
  digest(head: string, turns: readonly Turn[], carriedTurns: number | undefined, after: string): string {
    const sides: Sides = { side: undefined, filled: false };
    if (carriedTurns === undefined) return hashHex(head + this.sidesText(turns, 0, sides) + close(sides) + after);
    const known = this.carried.resume(turns, carriedTurns, head);
    // SHA-1 fed in pieces gives the digest of the pieces joined, as hashHex's one-shot does.
    const hash = known ? known.state.hash.copy() : createHash('sha1').update(head);
    if (known) Object.assign(sides, known.state.sides);
    hash.update(this.sidesText(turns, known?.covered ?? 0, sides));
    this.carried.remember(turns, head, known?.covered, () => ({ hash: hash.copy(), sides: { ...sides } }));
    return hash.update(close(sides) + after).digest('hex').slice(0, 16);
  }
}

function close(sides: Sides): string {
  return `${sides.side ? ']]' : ''}]`;
}
