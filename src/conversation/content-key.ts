// The content key: a stable digest of what the model is asked, so the same request gets the same
// generated reply. Turns are read by side (user and tool results, or assistant) with call ids
// left out, so one conversation has one key in every style.
import { createHash, type Hash } from 'node:crypto';
import { partContent } from './fingerprint.js';
import { hashHex } from './random.js';
import { TurnPrefixes } from './turn-prefixes.js';
import type { ChatRequest, Part, Turn } from './types.js';

/**
 * Each part's content as JSON, made once: the turns a `previous_response_id` chain carries are the
 * same objects request after request, so a late turn does not serialise the whole chain again.
 */
const partJson = new WeakMap<Part, string | null>();

function partJsonOf(part: Part): string | null {
  let json = partJson.get(part);
  if (json === undefined) {
    const content = partContent(part);
    json = content === undefined ? null : JSON.stringify(content);
    partJson.set(part, json);
  }
  return json;
}

/** Where the sides' JSON stands after some turns: the side still open, and whether it has content yet. */
interface Sides {
  side: 'u' | 'a' | undefined;
  filled: boolean;
}

/** The JSON of `turns` from `from` on, going on from `sides` (which it moves along), sides left open. */
function sidesText(turns: readonly Turn[], from: number, sides: Sides): string {
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
      const json = partJsonOf(part);
      if (json === null) continue;
      text += sides.filled ? `,${json}` : json;
      sides.filled = true;
    }
  }
  return text;
}

/** What follows the turns: closing the sides, then the tools, the tool choice and the format. */
function tail(request: ChatRequest, sides: Sides): string {
  const { tools, toolChoice, responseFormat } = request;
  return `${sides.side ? ']]' : ''}],${[tools, toolChoice, responseFormat].map((value) => JSON.stringify(value)).join(',')}]`;
}

/** The digest so far of a carried conversation, by the model and system text it began with. */
const digests = new TurnPrefixes<{ hash: Hash; sides: Sides }>();

/**
 * The text digested is `JSON.stringify([model, system, sides, tools, toolChoice, responseFormat])`,
 * with `sides` as `[["u",[...]],["a",[...]]]`, assembled from the parts' cached JSON. A request
 * that continues a stored response digests only what the request before it had not.
 */
export function contentKey(request: ChatRequest): string {
  const { model, system, turns, carriedTurns } = request;
  const head = `[${JSON.stringify(model)},${JSON.stringify(system)},[`;
  if (carriedTurns === undefined) {
    const sides: Sides = { side: undefined, filled: false };
    return hashHex(head + sidesText(turns, 0, sides) + tail(request, sides));
  }
  const known = digests.resume(turns, carriedTurns, head);
  // SHA-1 fed in pieces gives the digest of the pieces joined: hashHex's, as one-shot.
  const hash = known ? known.state.hash.copy() : createHash('sha1').update(head);
  const sides: Sides = known ? { ...known.state.sides } : { side: undefined, filled: false };
  hash.update(sidesText(turns, known?.covered ?? 0, sides));
  digests.remember(turns, head, { hash: hash.copy(), sides: { ...sides } });
  return hash.update(tail(request, sides)).digest('hex').slice(0, 16);
}
