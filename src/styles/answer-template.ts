// A style's whole answer to a fixture's reply as a template: the JSON that every answer of that
// reply spells the same, with holes for what changes from one answer to the next (ids, times,
// usage, settings the request echoes). It is made from the style's own encoder, given marks in
// place of the holes' values, and checked once against the JSON of that encoder's real answer, so
// a filled template is the very bytes `JSON.stringify(style.encode(...))` makes, key order and
// escapes included. Filling it costs a few concatenations where the encoder built and serialised
// the whole object for every hit.
import { ENTRY_BYTES, textBytes } from '../conversation/caches.js';
import { Memo } from '../conversation/remember.js';
import type { ChatRequest, Reply } from '../conversation/types.js';

/** The values of an answer's holes by name, each a JSON value the encoder places as it is. */
export type Holes = Record<string, unknown>;

/** How a style's whole answer is made: from its holes and the rest, so that a template can be made of it. */
export interface AnswerShape<H extends Holes = Holes> {
  holes(reply: Reply, request: ChatRequest): H;
  /** The answer's object, each hole's value placed whole (never computed with). */
  whole(reply: Reply, request: ChatRequest, holes: H): unknown;
  /**
   * Everything else the answer's JSON is made of, compared one by one (`===`) with what its
   * template was made from; undefined for a reply no template is made for (calls, pictures,
   * speech, log probabilities: what would need holes of its own).
   */
  same(reply: Reply, request: ChatRequest): readonly unknown[] | undefined;
}

/** The style's `encode`: the whole answer with its holes' values in place. */
export function encodeWith<H extends Holes>(shape: AnswerShape<H>): (reply: Reply, request: ChatRequest) => unknown {
  return (reply, request) => shape.whole(reply, request, shape.holes(reply, request));
}

interface Template {
  readonly same: readonly unknown[];
  /**
   * The JSON between the holes: one more piece than there are holes (a hole may come twice).
   * Undefined until the same values come a second time (a fixture answered once, or answered
   * alike no more than once in a row, costs no template), or for good when the check refused it.
   */
  readonly pieces: readonly string[] | undefined;
  /** The hole in each gap between two pieces. */
  readonly gaps: readonly string[];
  /** Whether the template was made (or refused), rather than only its values noted. */
  readonly made: boolean;
}

const MARK_OPEN = '\u0000hole:';
const MARK_CLOSE = '\u0000';
/** A mark as JSON.stringify spells it inside the answer's JSON. */
const MARK_JSON_OPEN = JSON.stringify(MARK_OPEN).slice(0, -1);
const MARK_JSON_CLOSE = JSON.stringify(MARK_CLOSE).slice(1);

/** A template's bytes held: its pieces (slices of one text) and the values it was made for. */
function templateBytes(template: Template): number {
  let bytes = ENTRY_BYTES;
  for (const piece of template.pieces ?? []) bytes += textBytes(piece);
  for (const value of template.same) if (typeof value === 'string') bytes += textBytes(value);
  return bytes;
}

type ByStyle = Readonly<Record<string, Template>>;

function byStyleBytes(byStyle: ByStyle): number {
  let bytes = 0;
  for (const style in byStyle) bytes += templateBytes(byStyle[style]!);
  return bytes;
}

/**
 * The templates of a fixture (by its name, the same string hit after hit) by style, the last one
 * made of each: a fixture answered alike hit after hit keeps its template. Room for more fixtures
 * than an app answers in turn (at 1,024 entries, 2,000 fixtures answered in turn never kept a
 * template: 2-3 % more CPU a hit); past it, the fixtures met lately keep theirs (remember.ts). Its
 * bytes are counted among the process's caches, which the memory budget holds.
 */
const templates = new Memo<ByStyle>('answers', 16_384, byStyleBytes);

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The template's JSON with `holes` in their gaps, as one flat string: joined at once, not a tree of
 * concatenations that a journal entry keeping the answer would hold, and every collection copy.
 */
function filled(template: Template, pieces: readonly string[], holes: Holes): string {
  const gaps = template.gaps;
  const parts = new Array<string>(2 * gaps.length + 1);
  parts[0] = pieces[0]!;
  for (let i = 0; i < gaps.length; i++) {
    const value = holes[gaps[i]!];
    // A finite number's JSON is its string, made faster without the serialiser.
    parts[2 * i + 1] = typeof value === 'number' && Number.isFinite(value) ? String(value) : JSON.stringify(value);
    parts[2 * i + 2] = pieces[i + 1]!;
  }
  return parts.join('');
}

/** The JSON of `shape`'s answer cut at its holes' marks; without pieces when, filled, it is not the encoder's own JSON. */
function made<H extends Holes>(shape: AnswerShape<H>, reply: Reply, request: ChatRequest, holes: H, same: readonly unknown[]): Template {
  const marks = {} as Holes;
  for (const name in holes) marks[name] = `${MARK_OPEN}${name}${MARK_CLOSE}`;
  const json = JSON.stringify(shape.whole(reply, request, marks as H));
  const pieces: string[] = [];
  const gaps: string[] = [];
  let from = 0;
  for (let at = json.indexOf(MARK_JSON_OPEN); at >= 0; at = json.indexOf(MARK_JSON_OPEN, from)) {
    const close = json.indexOf(MARK_JSON_CLOSE, at + MARK_JSON_OPEN.length);
    if (close < 0) break;
    pieces.push(json.slice(from, at));
    gaps.push(json.slice(at + MARK_JSON_OPEN.length, close));
    from = close + MARK_JSON_CLOSE.length;
  }
  pieces.push(json.slice(from));
  const template: Template = { same, pieces, gaps, made: true };
  // A text that spells a mark itself, or an encoder that computes with a hole, is caught here:
  // such a reply is answered by its encoder, every time.
  const real = JSON.stringify(shape.whole(reply, request, holes));
  return filled(template, pieces, holes) === real ? template : { ...template, pieces: undefined };
}

/**
 * The JSON of `style`'s whole answer to `reply`, from the fixture's template (made at its second
 * answer alike, and again when the answer is made of other values twice in a row); undefined for
 * a generated reply, one its shape makes no template for, or one not yet templated: the encoder
 * answers those.
 */
export function templatedAnswer<H extends Holes>(style: string, shape: AnswerShape<H>, reply: Reply, request: ChatRequest): string | undefined {
  if (reply.fixture === undefined) return undefined;
  const same = shape.same(reply, request);
  if (same === undefined) return undefined;
  const byStyle = templates.get(reply.fixture);
  let template = byStyle?.[style];
  if (template === undefined || !sameValues(template.same, same)) {
    // Only noted: a fixture met once, or answered each time with other values, is not worth a template.
    templates.set(reply.fixture, { ...byStyle, [style]: { same, pieces: undefined, gaps: [], made: false } });
    return undefined;
  }
  const holes = shape.holes(reply, request);
  if (!template.made) templates.set(reply.fixture, { ...byStyle, [style]: (template = made(shape, reply, request, holes, same)) });
  return template.pieces && filled(template, template.pieces, holes);
}

/**
 * `settings`, then what a reply of text alone says (each choice's text, thinking and end), for a
 * shape's `same`; undefined for a reply with calls, pictures or speech, which its encoder answers.
 */
export function textReplyValues(reply: Reply, ...settings: unknown[]): unknown[] | undefined {
  if (reply.promptBlocked) return undefined;
  settings.push(reply.choices.length);
  for (const choice of reply.choices) {
    if (choice.toolCalls.length > 0 || choice.images.length > 0 || choice.audio) return undefined;
    settings.push(choice.text, choice.reasoning, choice.finishReason, choice.stopSequence);
  }
  return settings;
}
