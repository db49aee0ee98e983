// A request's tools, decoded once for a list equal to one decoded lately. An agent sends the same
// 25 tools with every request, and checking them (zod's copy of each, their names and schemas)
// was most of its decode. A list equal to one met lately, value for value and key for key in the
// same order (conversation/kept-json.ts), decodes alike: what was made of that one is given back,
// the very objects, never changed once made. A list that failed its checks is never kept.
import { kept, keptBytes, KeptNode, same } from '../conversation/kept-json.js';
import { Memo } from '../conversation/remember.js';

interface Decoded<T> {
  raw: KeptNode;
  decoded: T;
  bytes: number;
}

export class DecodedTools<T> {
  /** By their length and first name, as conversation/tools-json.ts keeps their text. */
  private readonly lists = new Memo<Decoded<T>>('schemas', 16, ({ bytes }) => bytes);

  private static keyOf(raw: unknown): string | undefined {
    if (!Array.isArray(raw) || raw.length === 0) return undefined;
    const first: unknown = raw[0];
    const name = first !== null && typeof first === 'object' ? (first as { name?: unknown }).name : undefined;
    return `${raw.length}:${typeof name === 'string' ? name : ''}`;
  }

  /** What `raw`, a request's tools as sent, was decoded to, if an equal list was lately. */
  get(raw: unknown): T | undefined {
    const key = DecodedTools.keyOf(raw);
    const known = key === undefined ? undefined : this.lists.get(key);
    return known !== undefined && same(raw, known.raw) ? known.decoded : undefined;
  }

  /** `raw` decoded to `decoded`, which nobody changes from now on. */
  set(raw: unknown, decoded: T): void {
    const key = DecodedTools.keyOf(raw);
    const value = key === undefined ? undefined : kept(raw);
    if (key !== undefined && value instanceof KeptNode) this.lists.set(key, { raw: value, decoded, bytes: keptBytes(value) });
  }
}
