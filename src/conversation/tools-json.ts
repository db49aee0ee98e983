// The JSON text of a request's tools, for their token count. An agent sends the same 25 tools with
// every request, and JSON.stringify made their 29 KB again each time (75 µs of its request). A list
// equal to one met lately, value for value and key for key in the same order, stringifies alike,
// so it is given the text made then: comparing costs a quarter of stringifying, and allocates nothing.
import { textBytes } from './caches.js';
import { Memo } from './remember.js';
import { kept, KeptNode, listKey, same } from './kept-json.js';
import type { ToolDef } from './types.js';

interface KeptTools {
  tools: KeptNode;
  json: string;
}

/** Lists met lately, by `listKey`; the kept values hold about what their text does. */
const lists = new Memo<KeptTools>('tokens', 16, ({ json }) => 2 * textBytes(json));

/**
 * The text of lists met as they are: a style gives back the very list it decoded for tools equal
 * to ones met lately (styles/decoded-tools.ts), never changed once made, so it is not compared again.
 */
const byList = new WeakMap<readonly ToolDef[], string>();

/** `JSON.stringify(tools)`: the very text made for an equal list met lately, if any. */
export function toolsJson(tools: readonly ToolDef[]): string {
  const made = byList.get(tools);
  if (made !== undefined) return made;
  const key = listKey(tools);
  const known = key === undefined ? undefined : lists.get(key);
  let json: string;
  if (known !== undefined && same(tools, known.tools)) json = known.json;
  else {
    json = JSON.stringify(tools);
    const value = kept(tools);
    if (key !== undefined && value instanceof KeptNode) lists.set(key, { tools: value, json });
  }
  byList.set(tools, json);
  return json;
}
