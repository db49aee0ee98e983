// The body nearly every request has, JSON in UTF-8, parsed in one step from the bytes the wire
// reader kept. koa-body spends more on it than the parsing costs (four content-type checks, a copy
// of co-body's options, a pass through inflation); bourne keeps its behaviour: strict JSON (an
// object or an array), `__proto__` keys refused. Other charsets, forms, text and multipart stay
// koa-body's. A large body is parsed a span at a time (json-slices.ts), the loop given back between.
import { StringDecoder } from 'node:string_decoder';
import bourne from '@hapi/bourne';
import { failure, type MockError } from '../conversation/errors.js';
import { DEPTH_LOOKED_CHARS, MAX_BODY_DEPTH, tooDeepToParse } from '../conversation/json-text.js';
import { inSlices } from '../state/event-loop.js';
import { noteText } from '../styles/parsed-bodies.js';
import { parsedByMembers } from './json-members.js';
import { jsonSteps, TooDeep, Unfollowed } from './json-slices.js';

const PLAIN_JSON = /^application\/json\s*(?:;\s*charset="?utf-?8"?\s*)?$/i;
/** co-body's strict mode: only an object or an array. */
const STRICT_JSON = /^[\x20\x09\x0a\x0d]*[[{]/;
/** As co-body decodes it: UTF-8, a byte order mark dropped. */
const UTF8 = new TextDecoder('utf-8');

/** The types read as JSON (koa-body's own list, given to it): plain UTF-8 JSON is parsed here, the rest by koa-body. */
export const JSON_TYPES = ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report', 'application/reports+json'];

export function isPlainJson(contentType: string | undefined): boolean {
  return contentType !== undefined && PLAIN_JSON.test(contentType);
}

/** Past this many characters a body is parsed in slices: JSON.parse of 512 KB takes 5-35 ms. */
const SLICED_CHARS = 512 * 1024;
/** From this many characters a body's long members met lately are not parsed again (json-members.ts). */
const MEMBERS_CHARS = 64 * 1024;

/**
 * Whether a JSON text may spell a `__proto__` key, for bourne's pattern to look: a plain one holds
 * `__`, and the only escape that spells a letter of it is `\u` (`\r`, `\t` are other characters).
 * The two searches cost a third of the pattern's scan of an agent's 126 KB.
 */
const mayNameProto = (text: string): boolean => text.includes('__') || text.includes('\\u');

export interface ParsedJson {
  body: unknown;
  text: string;
}

/** The parsed body and its text; an empty body is `{}`, as koa-body has it. */
export function parseJson(bytes: Uint8Array): ParsedJson | Promise<ParsedJson> {
  return parseJsonText(UTF8.decode(bytes));
}

/** The refusal of a body nested deeper than a request may: before it is parsed when it is large, after when not. */
export function nestedTooDeep(): MockError {
  return failure('invalid_body', `The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);
}

/**
 * As `parseJson`, from the body's text, already decoded; a large one in slices. A large body nested
 * too deep is refused unparsed (JSON.parse of 2 MB of brackets held the loop for over a second),
 * even when something after its depth is malformed.
 */
export function parseJsonText(text: string): ParsedJson | Promise<ParsedJson> {
  if (!STRICT_JSON.test(text)) return parsedWhole(text);
  if (text.length >= SLICED_CHARS) return parsedInSlices(text);
  if (tooDeepToParse(text)) throw nestedTooDeep();
  return (text.length >= MEMBERS_CHARS && byMembers(text)) || parsedWhole(text);
}

/** As bourne parses it: JSON.parse, refusing a `__proto__` key. */
const bourneParse = (text: string): unknown => (mayNameProto(text) ? bourne.parse(text, { protoAction: 'error' }) : JSON.parse(text));

/** The body parsed a member at a time, or undefined for the whole parse to give its value or its error. */
function byMembers(text: string): ParsedJson | undefined {
  try {
    const body = parsedByMembers(text, bourneParse);
    return body && { body, text };
  } catch {
    return undefined;
  }
}

function parsedWhole(text: string): ParsedJson {
  if (text === '') return { body: {}, text };
  if (!STRICT_JSON.test(text)) throw new SyntaxError('invalid JSON, only supports object and array');
  const body = bourneParse(text);
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) noteText(body, text);
  return { body, text };
}

/** What JSON.parse and bourne make of the text, or the error they throw, worded as theirs. */
async function parsedInSlices(text: string): Promise<ParsedJson> {
  try {
    return { body: await inSlices(jsonSteps(text, MAX_BODY_DEPTH)), text };
  } catch (error) {
    if (error instanceof Unfollowed) return parsedWhole(text);
    if (error instanceof TooDeep) throw nestedTooDeep();
    throw error;
  }
}

/**
 * A JSON body koa-body parses (another charset, a `+json` type) goes to JSON.parse whole, decoded
 * as UTF-8 whatever its charset says (co-body's way): a large one is looked at first, and refused
 * if nested too deep. Otherwise koa-body parses it as before.
 */
export function refuseDeepJson(chunks: readonly Buffer[]): void {
  // UTF-8 spends a byte or more a character: fewer bytes than the look's bound are fewer characters.
  if (chunks.reduce((bytes, chunk) => bytes + chunk.length, 0) < DEPTH_LOOKED_CHARS) return;
  const decoder = new StringDecoder('utf8');
  const text = chunks.map((chunk) => decoder.write(chunk)).join('') + decoder.end();
  if (tooDeepToParse(text)) throw nestedTooDeep();
}
