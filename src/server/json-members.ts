// An agent sends the same long members with every request (its system prompt, its tools: 100 KB and
// more) around a short new turn, in whatever order its client writes them. A large body's
// top-level members met lately, text for text, are taken as they were parsed then; JSON.parse
// reads only what is new. The values are shared by every body that has them, so they are frozen.
import { QUOTE, stringEnd } from '../conversation/json-text.js';
import { Memo } from '../conversation/remember.js';
import { skipMember, skipSpace } from './json-slices.js';

/** A member as its body spelled it (`"key":value`), and what JSON.parse made of it. */
interface Member {
  text: string;
  key: string;
  value: unknown;
}

/** A shorter member is parsed again: finding it costs about what parsing it does. */
const KEPT_CHARS = 4 * 1024;
/** The members kept under one key: an agent's few sessions' prompts and tool lists. */
const PER_KEY = 4;

/** By the key as spelled, quotes included; the latest first. */
const kept = new Memo<Member[]>('members', 64, (members) => members.reduce((bytes, member) => bytes + 3 * member.text.length, 0));

/** Freezes `value` and all it holds, without recursion (a body below the depth look may nest deep). */
function freezeAll(value: unknown): void {
  const open: unknown[] = [value];
  while (open.length > 0) {
    const next = open.pop();
    if (next === null || typeof next !== 'object' || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const inner of Object.values(next)) open.push(inner);
  }
}

/** The member kept that the text spells at `at`, whole, if any. */
function knownAt(text: string, at: number, candidates: readonly Member[]): Member | undefined {
  for (const member of candidates) {
    const end = at + member.text.length;
    if (end > text.length || text.slice(at, end) !== member.text) continue;
    const next = text.charCodeAt(skipSpace(text, end));
    // A comma or the closing brace: the value ends where the kept one did.
    if (next === 0x2c || next === 0x7d) return member;
  }
  return undefined;
}

/** Assigns what `{run}` parses to, in order; false when it holds a `__proto__` key (the whole parse refuses it). */
function addRun(body: Record<string, unknown>, run: string, parse: (json: string) => unknown): boolean {
  const values = parse(`{${run}}`) as Record<string, unknown>;
  for (const key of Object.keys(values)) {
    // Here a `__proto__` key would set the body's prototype.
    if (key === '__proto__') return false;
    body[key] = values[key];
  }
  return true;
}

/**
 * The object JSON `text` spells, its long members met lately taken as they were parsed; undefined
 * when the text is not a plain object or anything in it is not as expected (the caller parses it
 * whole, for its value or its error). `parse` parses members' text between braces: each run of
 * short members between long ones in one call, so a body of many small keys costs one parse.
 */
export function parsedByMembers(text: string, parse: (json: string) => unknown): Record<string, unknown> | undefined {
  let at = skipSpace(text, 0);
  if (text.charCodeAt(at) !== 0x7b) return undefined;
  at = skipSpace(text, at + 1);
  const body: Record<string, unknown> = {};
  if (text.charCodeAt(at) === 0x7d) return undefined;
  // The short members not yet parsed: text.slice(runStart, runEnd).
  let runStart = -1;
  let runEnd = -1;
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) return undefined;
    const keyEnd = stringEnd(text, at);
    if (keyEnd < 0) return undefined;
    const spelled = text.slice(at, keyEnd);
    const candidates = kept.get(spelled) ?? [];
    let member = knownAt(text, at, candidates);
    let end = at + (member?.text.length ?? 0);
    if (member === undefined) {
      end = skipMember(text, at, Infinity);
      if (end < 0) return undefined;
    }
    if (member !== undefined || end - at >= KEPT_CHARS) {
      if (runStart >= 0 && !addRun(body, text.slice(runStart, runEnd), parse)) return undefined;
      if (member === undefined) {
        const one = parse(`{${text.slice(at, end)}}`) as Record<string, unknown>;
        const key = Object.keys(one)[0];
        if (key === undefined || key === '__proto__') return undefined;
        // Its own copy (a slice of a flattened concatenation): a slice alone would hold the whole body's text.
        member = { text: ` ${text.slice(at, end)}`.slice(1), key, value: one[key] };
        freezeAll(member.value);
        kept.set(spelled, [member, ...candidates.filter((other) => other.text !== member!.text)].slice(0, PER_KEY));
      }
      body[member.key] = member.value;
      runStart = -1;
    } else if (runStart < 0) runStart = at;
    runEnd = end;
    at = skipSpace(text, end);
    const next = text.charCodeAt(at);
    if (next === 0x7d) {
      if (skipSpace(text, at + 1) !== text.length) return undefined;
      return runStart < 0 || addRun(body, text.slice(runStart, runEnd), parse) ? body : undefined;
    }
    if (next !== 0x2c) return undefined;
    at = skipSpace(text, at + 1);
  }
}
