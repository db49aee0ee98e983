// A body's schema check remembered by the body's text. A load test sends the same body again and
// again (300 streams of one prompt), and zod's check of a chat body was the largest single piece of
// a fresh server's request path; what it gives depends on the body alone, and the body on its text.
// Only a plain JSON body has its text noted (server/json-body.ts), and only a short one is kept.
import type * as z from 'zod';
import { Memo } from '../conversation/remember.js';
import { textBytes } from '../conversation/caches.js';

/** A body's text, as its JSON reader noted it: the key its check is remembered by. */
const texts = new WeakMap<object, string>();
/** Longer texts are checked each time: a long body seldom repeats, and would hold memory. */
const KEPT_CHARS = 4096;
/** Texts remembered a schema, a generation (remember.ts: the one before is still read). */
const KEPT_TEXTS = 64;

interface Checked {
  value: unknown;
  /** The text's bytes: the value holds its objects and strings, about three times that (json-members.ts). */
  bytes: number;
}

const checked = new WeakMap<z.ZodType, Memo<Checked>>();

/** Notes that `body` was parsed from `text` (a JSON object, parsed whole). */
export function noteText(body: object, text: string): void {
  if (text.length <= KEPT_CHARS) texts.set(body, text);
}

/**
 * What `schema` gave for a body of the same text before, or undefined. The value is shared by the
 * requests that sent that text: like every decoded body, it is read, never written.
 */
export function checkedBefore(schema: z.ZodType, body: object): unknown {
  const text = texts.get(body);
  return text === undefined ? undefined : checked.get(schema)?.get(text)?.value;
}

/** Remembers what `schema` gave for `body`, when its text was noted. */
export function rememberChecked(schema: z.ZodType, body: object, value: unknown): void {
  const text = texts.get(body);
  if (text === undefined) return;
  let memo = checked.get(schema);
  if (memo === undefined) checked.set(schema, (memo = new Memo<Checked>('bodies', KEPT_TEXTS, ({ bytes }) => 3 * bytes)));
  memo.set(text, { value, bytes: textBytes(text) });
}
