// The shape of a parsed request body, measured once before anything else reads it: how deep it
// nests and roughly how large it is. Recursive code further on (decoders, JSON.stringify for
// seeds, the journal) would overflow the stack on a body nested thousands of levels deep.

import { MAX_BODY_DEPTH } from '../conversation/json-text.js';

export interface BodyShape {
  /** False when some value nests deeper than MAX_BODY_DEPTH (or the depth asked); the size is then not measured. */
  withinDepth: boolean;
  /** Characters of keys and strings plus one per other value: about the size of its JSON. */
  size: number;
}

/** What a leaf adds to the size: a string its characters and quotes, any other value one. */
const leafSize = (value: unknown): number => (typeof value === 'string' ? value.length + 2 : 1);

/** The digits of the indices 0 to count - 1, and three for each. */
function indicesSize(count: number): number {
  let size = 3 * count;
  for (let from = 1; from <= count; from *= 10) size += count - from + (from === 1 ? 1 : 0);
  return size;
}

/**
 * Walks the body without recursion, so measuring it cannot overflow the stack either; `maxDepth`
 * for what is not a request (an upstream's answer). Leaves are counted where they are met, never
 * queued: a body of 200,000 short strings queued each with its depth took 200 ms. Keys are read
 * with `for...in`, not `Object.keys` and `Object.values`: the two arrays made per object were half
 * the walk of an agent's 126 KB request.
 */
export function measureBody(body: unknown, maxDepth = MAX_BODY_DEPTH): BodyShape {
  if (body === null || typeof body !== 'object') return { withinDepth: true, size: typeof body === 'string' ? body.length : 1 };
  let size = 0;
  const objects: object[] = [body];
  const depths: number[] = [1];
  const enter = (child: unknown, depth: number): number => {
    if (child === null || typeof child !== 'object') return leafSize(child);
    objects.push(child);
    depths.push(depth + 1);
    return 0;
  };
  while (objects.length > 0) {
    const value = objects.pop()!;
    const depth = depths.pop()!;
    size += 1;
    if (depth > maxDepth) return { withinDepth: false, size };
    if (Array.isArray(value)) {
      // An array's indices count as keys, as they always have: the size is the journal's figure.
      size += indicesSize(value.length);
      for (let index = 0; index < value.length; index++) size += enter(value[index], depth);
    } else {
      // A parsed body's objects inherit nothing enumerable: `for...in` meets their own keys only.
      const entries = value as Record<string, unknown>;
      for (const key in entries) size += key.length + 3 + enter(entries[key], depth);
    }
  }
  return { withinDepth: true, size };
}

/** Past this many characters a body's shape is measured on the parsed value: scanning the text costs more. */
const SCANNED_CHARS = 64 * 1024;

/**
 * Whether `text` holds at most `most` of `{` and `[`, counted with `indexOf`, which jumps from one
 * to the next: a loop over every character read a fresh server's 130-character body in the
 * interpreter, and 50 KB took 360 µs warm against 6. A text no longer than `most` holds no more.
 */
function bracketsAtMost(text: string, most: number): boolean {
  if (text.length <= most) return true;
  // Inside strings too: counting too many only sends the body to the full walk.
  let brackets = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) if (++brackets > most) return false;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) if (++brackets > most) return false;
  return true;
}

/**
 * The shape of a body parsed from JSON `text`: a text with no more brackets than MAX_BODY_DEPTH
 * cannot nest deeper, and its size is its length, so the usual request needs no walk.
 */
export function measureJson(text: string, body: unknown): BodyShape {
  if (text.length <= SCANNED_CHARS && bracketsAtMost(text, MAX_BODY_DEPTH)) return { withinDepth: true, size: text.length };
  return measureBody(body);
}
