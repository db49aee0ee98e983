// The shape of a parsed request body, measured once before anything else reads it: how deep it
// nests and roughly how large it is. Recursive code further on (decoders, JSON.stringify for
// seeds, the journal) would overflow the stack on a body nested thousands of levels deep.

/** Deeper than any request an SDK sends (a tool's JSON schema nests a few dozen levels at most). */
export const MAX_BODY_DEPTH = 128;

export interface BodyShape {
  /** False when some value nests deeper than MAX_BODY_DEPTH; the size is then not measured. */
  withinDepth: boolean;
  /** Characters of keys and strings plus one per other value: about the size of its JSON. */
  size: number;
}

/** Walks the body without recursion, so measuring it cannot overflow the stack either. */
export function measureBody(body: unknown): BodyShape {
  if (body === null || typeof body !== 'object') return { withinDepth: true, size: typeof body === 'string' ? body.length : 1 };
  let size = 0;
  const pending: Array<[value: unknown, depth: number]> = [[body, 1]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (typeof value === 'string') {
      size += value.length + 2;
      continue;
    }
    size += 1;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_BODY_DEPTH) return { withinDepth: false, size };
    for (const key of Object.keys(value)) {
      size += key.length + 3;
      pending.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return { withinDepth: true, size };
}
