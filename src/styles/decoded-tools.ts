// A request's tools, decoded once for a list equal to one decoded lately. An agent sends the same
// 25 tools with every request, and checking them (zod's copy of each, their names and schemas)
// was most of its decode. A list equal to one met lately, value for value and key for key in the
// same order (conversation/kept-json.ts), decodes alike: what was made of that one is given back,
// the very objects, never changed once made. A list that failed its checks is never kept.
import { kept, keptBytes, KeptNode, listKey, same } from '../conversation/kept-json.js';
import { Memo } from '../conversation/remember.js';

interface Decoded<T> {
  raw: KeptNode;
  decoded: T;
  bytes: number;
}

export class DecodedTools<T> {
  /** By `listKey`, as conversation/tools-json.ts keeps their text. */
  private readonly lists = new Memo<Decoded<T>>('schemas', 16, ({ bytes }) => bytes);

  /**
   * Lists that are shared and frozen: a large body's long members met lately are the very values
   * parsed then (server/json-members.ts), so the same list comes again and needs no comparing.
   */
  private readonly byList = new WeakMap<object, T>();

  /** What `raw`, a request's tools as sent, was decoded to, if an equal list was lately. */
  get(raw: unknown): T | undefined {
    const frozen = raw !== null && typeof raw === 'object' && Object.isFrozen(raw);
    const shared = frozen ? this.byList.get(raw) : undefined;
    if (shared !== undefined) return shared;
    const key = listKey(raw);
    const known = key === undefined ? undefined : this.lists.get(key);
    const decoded = known !== undefined && same(raw, known.raw) ? known.decoded : undefined;
    if (frozen && decoded !== undefined) this.byList.set(raw, decoded);
    return decoded;
  }

  /** `raw` decoded to `decoded`, which nobody changes from now on. */
  set(raw: unknown, decoded: T): void {
    if (raw !== null && typeof raw === 'object' && Object.isFrozen(raw)) this.byList.set(raw, decoded);
    const key = listKey(raw);
    const value = key === undefined ? undefined : kept(raw);
    if (key !== undefined && value instanceof KeptNode) this.lists.set(key, { raw: value, decoded, bytes: keptBytes(value) });
  }
}
