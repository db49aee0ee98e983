// One journal entry per request (admin requests and preflights excepted): what was asked,
// what answered it, and for an unmatched chat request the closest fixture.
import { randomUUID } from 'node:crypto';
import { interned, Memo } from '../conversation/remember.js';
import type { EntryUsage } from '../conversation/usage.js';
import { PackedText } from './packed-text.js';
import { shownEvents, type KeptEvents } from './piece-runs.js';

export interface NearMiss {
  fixture: string;
  file: string;
  failed: string[];
}

/** A stream event as the client received it: the SSE event name (or null) and its data. */
export interface SentEvent {
  event: string | null;
  /** The JSON the event carried, or its text when it is not JSON (`[DONE]`). */
  data: unknown;
}

/**
 * What was answered, as written: a whole body (JSON as an object, other text as a string, binary
 * as its type and size) or a stream's events; `truncated` when cut to keep the entry under 1 MB.
 */
export type SentResponse = {
  status: number;
  headers: Record<string, unknown>;
  truncated?: true;
} & ({ body: unknown } | { events: SentEvent[] });

export interface JournalEntry {
  id: string;
  time: string;
  session: string;
  method: string;
  path: string;
  style: string | null;
  model: string | null;
  status: number;
  fixture: string | null;
  scenario: string | null;
  duration_ms: number;
  body: unknown;
  near_miss: NearMiss | null;
  /** Where the answer came from, as the `x-mock-source` header says it. */
  source: string;
  scenario_step: number | null;
  fault: string | null;
  /** Null when nothing was written (a dropped socket, a client gone before the answer). */
  response: SentResponse | null;
  upstream: { url: string; status: number; duration_ms: number } | null;
  /** Why a request that could have been forwarded was not (a page of another site). */
  upstream_refused: string | null;
  recorded: string | null;
  /** The tokens the answer counted; null when it counted none. */
  usage: EntryUsage | null;
  /** What the answer cost at the model's catalog pricing; null without pricing. */
  cost_usd: number | null;
  /** The batch a line was answered for; null for a request sent alone. */
  batch: string | null;
  /** A call of a fake MCP server's tool (SPEC 22); null for every other request. */
  mcp: ToolCallEntry | null;
}

/** A tool call as the journal shows it: `arguments` and `result` are read from its body and response. */
export interface ToolCallEntry {
  server: string;
  tool: string;
  arguments: unknown;
  result: unknown;
  is_error: boolean;
}

/** What an entry keeps of its tool call besides its body and response. */
export type ToolCallKept = Pick<ToolCallEntry, 'server' | 'tool' | 'is_error'>;

/** What a request said, read from its decoded form when it was answered, for `verify` filters. */
export interface Said {
  /** The last user message (an image or video prompt). */
  text: string;
  tools: readonly string[];
  toolResults: readonly string[];
}

/** An entry's fields but its request body and response, and what the request said. */
export type EntryFields = Omit<JournalEntry, 'body' | 'response' | 'mcp'> & { said: Said | null; mcp: ToolCallKept | null };

/**
 * A journal entry as a session keeps it: its small fields as they are, its request body and
 * response as the JSON text `[body,response]`, deflated when long. As objects they took several
 * times their JSON's size (a string, an object or an array slot each), and the writer's answer
 * already exists as text.
 */
export interface KeptEntry extends EntryFields {
  readonly payload: PackedText;
  /** The length in bytes of the request body's JSON at the start of the payload, so it is read without the response. */
  readonly bodyBytes: number;
  /** Whether that JSON is the client's own text, kept as sent, rather than JSON.stringify's. */
  readonly bodyAsSent: boolean;
}

/** A journal entry keeps a body up to this size; a session keeps up to --journal-max entries. */
export const JOURNAL_BODY_MAX = 1024 * 1024;

// What a kept entry holds besides its payload: the object and its fields' strings (ids, times,
// names, a near miss), its slot in the journal and its line in the session's holdings.
const ENTRY_BYTES = 640;

const SHARED_ENTRIES = 1024;
/** A near miss's object and its list of failed keys (its names are the fixture's own strings). */
const missBytes = (miss: NearMiss): number => 64 + 16 * miss.failed.length;

/**
 * What repeats from entry to entry is one object shared by the entries that have it (a path, a
 * model, a near miss, no tools): a full collection marks every object the sessions keep, and an
 * entry was about fifteen of them, seven of them these. Never changed once kept.
 */
const paths = new Memo<string>('journal', SHARED_ENTRIES);
const models = new Memo<string>('journal', SHARED_ENTRIES);
const misses = new Memo<NearMiss>('journal', SHARED_ENTRIES, missBytes);
const NONE: readonly string[] = Object.freeze([]);

function sharedMiss(miss: NearMiss): NearMiss {
  // JSON, so that no name with a separator in it can pass for another.
  const key = JSON.stringify([miss.fixture, miss.file, miss.failed]);
  const known = misses.get(key);
  if (known) return known;
  misses.set(key, miss);
  return miss;
}

/** What a request said, as its entry keeps it: no tools and no results are the one shared empty list. */
export function saidOf(text: string, tools: ReadonlySet<string>, toolResults: readonly string[]): Said {
  return { text, tools: tools.size > 0 ? [...tools] : NONE, toolResults: toolResults.length > 0 ? toolResults : NONE };
}

/**
 * `body`: the request body's JSON, JSON.stringify's text or the client's own bytes; `response`:
 * the JSON text of what was sent (`null` when nothing was).
 */
export function keptEntry(f: EntryFields, body: string | readonly Buffer[], response: string): KeptEntry {
  // Spelled out, not spread: spread entries each got a hidden class of their own (500 bytes apiece).
  return {
    id: f.id,
    time: f.time,
    session: f.session,
    method: f.method,
    path: interned(paths, f.path),
    style: f.style,
    model: f.model === null ? null : interned(models, f.model),
    status: f.status,
    fixture: f.fixture,
    scenario: f.scenario,
    duration_ms: f.duration_ms,
    near_miss: f.near_miss && sharedMiss(f.near_miss),
    source: f.source,
    scenario_step: f.scenario_step,
    fault: f.fault,
    upstream: f.upstream,
    upstream_refused: f.upstream_refused,
    recorded: f.recorded,
    usage: f.usage,
    cost_usd: f.cost_usd,
    // As `saidOf` made it, its empty lists already shared.
    said: f.said,
    batch: f.batch,
    mcp: f.mcp,
    // Deflated by the session once memory gets short (`journal` in state/session.ts).
    payload: typeof body === 'string' ? PackedText.plain(`[${body},${response}]`) : PackedText.opened(body, response),
    bodyBytes: typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((sum, chunk) => sum + chunk.length, 0),
    bodyAsSent: typeof body !== 'string',
  };
}

/** About what the entry costs held as it is; deflating only lowers what it really costs. */
export function keptBytes(entry: KeptEntry): number {
  return ENTRY_BYTES + entry.path.length + entry.payload.bytes + 2 * (entry.said?.text.length ?? 0);
}

/**
 * The request body's JSON text alone, from the start of the payload, as JSON.stringify writes it
 * (a client's own text is put in that form here, when read, so that a search of it does not
 * depend on the client's spacing or escapes).
 */
export function requestBodyTextOf(kept: KeptEntry): string {
  const text = kept.payload.textOf(1, 1 + kept.bodyBytes);
  return kept.bodyAsSent ? JSON.stringify(JSON.parse(text)) : text;
}

/** The entry as the admin API shows it, its fields in the order SPEC lists them. */
export function entryOf(kept: KeptEntry): JournalEntry {
  return unpacked(kept, kept.payload.text);
}

/** A body's JSON as `keptEntry` takes it, as text. */
const bodyJson = (body: string | readonly Buffer[]): string => (typeof body === 'string' ? body : Buffer.concat(body).toString());

/** The entry as the admin API shows it, before it is kept: `body` and `response` as `keptEntry` takes them. */
export function shownEntry(fields: EntryFields, body: string | readonly Buffer[], response: string): JournalEntry {
  return unpacked(fields, `[${bodyJson(body)},${response}]`);
}

/**
 * Stands for the body or the response in an entry's JSON until their own texts take its place. A
 * field spelled the same would be taken for it: the process's random part keeps clients from it.
 */
const STAND_IN = `\u0000${randomUUID()}`;
const BODY_STAND_IN = JSON.stringify(`${STAND_IN}:body`);
const RESPONSE_STAND_IN = JSON.stringify(`${STAND_IN}:response`);

/**
 * `JSON.stringify(shownEntry(...))`, worth as much to a client that parses it: the body and the
 * response, JSON texts already, are put in as they are. Parsing a body of a megabyte back to
 * spell it again took the request's own turn 30-60 ms for a watcher. A response that kept its
 * stream's runs, or an MCP call that shows parts of both, is shown as `shownEntry` makes it.
 */
export function shownEntryJson(fields: EntryFields, body: string | readonly Buffer[], response: string): string {
  if (fields.mcp || response.includes('"runs":')) return JSON.stringify(shownEntry(fields, body, response));
  const around = JSON.stringify(shown(fields, `${STAND_IN}:body`, `${STAND_IN}:response` as unknown as SentResponse));
  const bodyAt = around.indexOf(BODY_STAND_IN);
  const responseAt = around.indexOf(RESPONSE_STAND_IN, bodyAt);
  return `${around.slice(0, bodyAt)}${bodyJson(body)}${around.slice(bodyAt + BODY_STAND_IN.length, responseAt)}${response}${around.slice(responseAt + RESPONSE_STAND_IN.length)}`;
}

function unpacked(fields: EntryFields, payload: string): JournalEntry {
  const [body, response] = JSON.parse(payload) as [unknown, (SentResponse & Partial<KeptEvents>) | null];
  if (response?.runs) {
    const { runs, ...sent } = response;
    return shown(fields, body, { ...sent, events: shownEvents({ events: response.events!, runs }) } as SentResponse);
  }
  return shown(fields, body, response);
}

/** The entry without its request body and response (`null`), for a listing: nothing is unpacked. */
export function briefEntryOf(kept: KeptEntry): JournalEntry {
  return shown(kept, null, null);
}

function shown(kept: EntryFields, body: unknown, response: SentResponse | null): JournalEntry {
  return {
    id: kept.id,
    time: kept.time,
    session: kept.session,
    method: kept.method,
    path: kept.path,
    style: kept.style,
    model: kept.model,
    status: kept.status,
    fixture: kept.fixture,
    scenario: kept.scenario,
    duration_ms: kept.duration_ms,
    body,
    near_miss: kept.near_miss,
    source: kept.source,
    scenario_step: kept.scenario_step,
    fault: kept.fault,
    response,
    upstream: kept.upstream,
    upstream_refused: kept.upstream_refused,
    recorded: kept.recorded,
    usage: kept.usage,
    cost_usd: kept.cost_usd,
    batch: kept.batch,
    mcp: kept.mcp && {
      ...kept.mcp,
      arguments: (body as { arguments?: unknown } | null)?.arguments ?? null,
      result: response && 'body' in response ? response.body : null,
    },
  };
}
