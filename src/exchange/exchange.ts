// The plain request an operation takes and the plain result it returns: no Koa, no socket. The
// HTTP shell builds an Exchange from a request and performs the Outcome; tests and the MCP tools
// build and read them directly.
import type { Envelope, MockError } from '../conversation/errors.js';
import { fired } from '../conversation/faults.js';
import type { Fault, Framing, Plan } from '../conversation/plan.js';
import type { MatchSubject } from '../conversation/subject.js';
import type { Metered } from '../conversation/usage.js';
import type { Upload } from '../media/upload.js';
import type { JournalEntry, NearMiss } from '../state/journal.js';
import type { Session } from '../state/session.js';
import type { Mock } from './mock.js';
import type { Upstream } from '../conversation/upstream.js';
import type { ModelEntry } from '../config/types.js';

type ModelKind = ModelEntry['kind'];

export interface Exchange {
  method: string;
  path: string;
  /** Path parameters, e.g. `id` or `model`. */
  params: Record<string, string>;
  query: Record<string, string>;
  /** The query string as sent, without its `?` (forwarded unchanged). */
  search: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The parsed body, a multipart form's bracketed names nested again. */
  body: unknown;
  /** The body as sent (text, or a multipart body's bytes), kept only when it may be forwarded (--upstream). */
  rawBody?: string | Buffer;
  /** The body's size in characters, measured when it was parsed (0 without one). */
  bodySize: number;
  /** Whether the body came as multipart/form-data. */
  multipart: boolean;
  /** Uploaded files by field (`image[]` is `image`). */
  uploads: ReadonlyMap<string, Upload[]>;
  /** The mock's own base URL as the client reached it, for URLs it hands out. */
  origin: string;
  session: Session;
  /** What the key says about the caller, when keys are configured. */
  caller: { group?: string; scenario?: string };
  /**
   * The upstream this request may be forwarded to: none without --upstream, nor for a page whose
   * Origin may not spend it (SPEC 12); then it is answered as without an upstream.
   */
  upstream?: Upstream;
  /** Aborted when the client goes away, so work on its behalf (a forwarded request) stops too. */
  signal?: AbortSignal;
  /** Told as the request leaves for the upstream, so a batch's readers stop waiting for its line. */
  outward?: () => void;
  /** Told once the request is read, while the inspector watches: its row shows the model and the start of the message. */
  started?: (model: string | null, message: string) => void;
  /** The id the answer's `request-id` header carries, for styles whose bodies repeat it. */
  requestId: string;
}

/** What an operation decided, for the journal, the log line and the inspector. */
export interface Notes {
  style: string | null;
  model: string | null;
  fixture: string | null;
  scenario: string | null;
  /** The index, from 0, of the scenario step that applied. */
  scenarioStep: number | null;
  /** The error kind or fault name a scenario step fired. */
  fault: string | null;
  nearMiss: NearMiss | null;
  /** The upstream a request was forwarded to (record and replay). */
  upstream: JournalEntry['upstream'];
  /** The fixture file a forwarded exchange was written into. */
  recorded: string | null;
  /** The answering fixture was loaded from the --record directory. */
  recordedFixture: boolean;
  /** The answering fixture is a recorded turn of the request's shape, not of its fingerprint (SPEC 20). */
  byShape: boolean;
  /** What the answer used (tokens, pictures, seconds), priced when the journal entry is made. */
  metered: Metered | null;
  /** What the request was about (its prompt, the tools it offered and answered), for `verify` filters. */
  subject: MatchSubject | null;
  /** What the journal keeps of uploaded files, by field, in place of their bytes (size, kind, duration). */
  uploads: Record<string, unknown> | null;
  /** Why each choice of a chat reply ended (`stop`, `length`, `tool_calls`, `content_filter`). */
  finishReasons: readonly string[] | null;
  /** The answer is read from or stored into what the mock or the session holds (a file, a batch, a task, the catalog). */
  held: boolean;
}

export function newNotes(style: string | null = null): Notes {
  return {
    style,
    model: null,
    fixture: null,
    scenario: null,
    scenarioStep: null,
    fault: null,
    nearMiss: null,
    upstream: null,
    recorded: null,
    recordedFixture: false,
    byShape: false,
    metered: null,
    subject: null,
    uploads: null,
    finishReasons: null,
    held: false,
  };
}

/**
 * Where an answer came from, as `x-mock-source`, the journal and the log line name it (SPEC 1):
 * the scenario step that fired an error or a fault wins over whatever else was decided; an error
 * nothing decided is the request refused (a 4xx), or the mock's own failure (a 5xx, which names
 * no source: undefined); a new source of replies is one more case here.
 */
export function sourceOf(notes: Notes, status = 200): string | undefined {
  if (fired(notes.fault) && notes.scenario !== null) return `scenario:${notes.scenario}#${notes.scenarioStep}`;
  if (notes.upstream !== null) return 'upstream';
  if (notes.fixture !== null) return `${notes.byShape ? 'shape' : notes.recordedFixture ? 'recorded' : 'fixture'}:${notes.fixture}`;
  if (status >= 500) return undefined;
  if (status >= 400) return 'refused';
  return notes.held ? 'state' : 'generated';
}

export const SOURCE_HEADER = 'x-mock-source';

/** The `x-mock-source` header of an answer, none when no source is named. */
export function sourced(notes: Notes, status?: number): Record<string, string> {
  const source = sourceOf(notes, status);
  return source === undefined ? {} : { [SOURCE_HEADER]: source };
}

/**
 * What a route answers for: the name the journal and the log give its requests (a chat style, or
 * images, videos, models) and the envelope its errors are written in. Named once per route row.
 */
export interface Door {
  style: string;
  /** The model lists choose their envelope by the request's headers; every other door has one. */
  envelope(request: { headers: Record<string, string | string[] | undefined>; query: Record<string, unknown> }): Envelope;
  /** Headers a request must carry, checked after its key, as the vendor does. */
  requiredHeaders?: readonly string[];
  /** How its streams are framed for a request (the writer's framers); SSE when it does not say. */
  framing?(request: { query: Record<string, unknown>; params: Record<string, string> }): Framing;
  /** The GenAI operation it performs, as the semantic conventions name it (its spans' name); its own name where they have none. */
  genAiOperation?: string;
  /** The catalog kinds its chat turns take (a live session's realtime models); chat and image when it does not say. */
  modelKinds?: readonly ModelKind[];
}

/** The GenAI operation a door performs, for its spans. */
export function doorOperation(door: Door): string {
  return door.genAiOperation ?? door.style;
}

/** A plan for the writer (with a fault to perform on it), or an error, after `waitMs` when a scenario step delays it. */
export type Answer = { plan: Plan; fault?: Fault } | { error: MockError; waitMs?: number };

/**
 * An operation's answer as a value: the answer, the headers that go on it, the envelope its error
 * is written in, and what was noted for the journal. A relayed answer's last notes (how long the
 * upstream took, the recording written) are known only once it ended: `late` resolves to them.
 */
export type Outcome = Answer & {
  notes: Notes;
  headers: Record<string, string>;
  envelope: Envelope;
  late?: Promise<Partial<Notes>>;
};

export type Operation = (mock: Mock, exchange: Exchange, door: Door) => Promise<Outcome>;

/** `text`: the body's JSON, when the caller wrote it already. */
export function json(body: unknown, status = 200, text?: string | readonly string[]): { plan: Plan } {
  return { plan: { kind: 'json', status, headers: {}, body, text } };
}
