// Per-session state: everything a request can change lives here, apart from the config, so a
// reload never loses it and `x-mock-session` keeps parallel test workers from seeing each other.
import type { ChatFixture } from '../conversation/fixture.js';
import type { Turn } from '../conversation/types.js';
import { Ring } from './ring.js';
import { keptBytes, type KeptEntry } from './journal.js';
import { emptyTally, tally, type JournalTally } from './journal-tally.js';
import { PackedText } from './packed-text.js';
import type { ResponseParts } from './response-parts.js';
import { Holdings, OLDEST_ENTRY, PINNED, type Held, type MemoryBudget, type MemoryKind } from './memory.js';
import type { VideoTask } from './video-task.js';
import type { Batch } from '../conversation/batch.js';
import type { StoredFile } from '../conversation/stored-file.js';

/**
 * A response kept for `previous_response_id` and `GET /v1/responses/{id}`. It links to the
 * response before it instead of copying the conversation, so a long chain costs each turn once.
 */
export interface StoredResponse {
  /** The response this one continued (`previous_response_id`), if any. */
  previous?: string;
  /** This response's own turns: the new input and its output. */
  turns: Turn[];
  /** The response object, and the request's input items as `GET /v1/responses/{id}/input_items` lists them. */
  parts: ResponseParts;
  /** Set for `background: true`: when the reply shows, and whether it was cancelled first. */
  background?: { readyMs: number; cancelled: boolean };
}

export interface StoredImage {
  mimeType: string;
  data: Uint8Array;
}

/** A character made from uploaded footage (`POST /v1/videos/characters`). */
export interface VideoCharacter {
  id: string;
  name: string;
  createdMs: number;
}

/** A stateful limit's window: when it opened and what each budget (`requests`, `tokens`, ...) spent in it. */
export interface RateWindow {
  startMs: number;
  used: Readonly<Record<string, number>>;
}

export interface Session {
  readonly id: string;
  journal: Ring<KeptEntry>;
  /** What the journal's entries add up to, kept in step with it. */
  journalTally: JournalTally;
  responses: Map<string, StoredResponse>;
  tasks: Map<string, VideoTask>;
  characters: Map<string, VideoCharacter>;
  /** Uploaded files and the output files of batches (`/v1/files`). */
  files: Map<string, StoredFile>;
  /** OpenAI batches and Anthropic message batches, oldest first. */
  batches: Map<string, Batch>;
  /** Pictures answered as `url`, served at that URL until they age out. */
  images: Map<string, StoredImage>;
  /** Requests taken by each scenario in this session, for step selection. */
  scenarioCounters: Map<string, number>;
  /** Video tasks an upstream made for this session (with --record): what they were asked, for the recording made on download. */
  upstreamTasks: Map<string, { model: string; prompt: string; createdMs: number }>;
  rateWindows: Map<string, RateWindow>;
  /** The scenario set for this session through the admin API. */
  scenario: string | undefined;
  /** Fixtures added at run time, sorted like file fixtures. */
  fixtures: ChatFixture[];
  /** Counter behind ids; ids derive from (seed, session, counter). */
  sequence: number;
  lastUsedMs: number;
  /**
   * Whether anything named this session on purpose (a model request, a session-scoped admin write,
   * an announcement): a read creates a session too, but `verify` fails on one never heard of.
   */
  heard: boolean;
  /** The bytes each store holds, oldest first, within the session's and the overall budget. */
  holdings: Holdings;
  /** Journal entries and stored responses added since the last block of each was packed (see `journal`, `keep`). */
  unpacked: { journal: number; responses: number };
}

/** Bounded stores: a long CI run cannot grow the mock without end. */
export const MAX_STORED_RESPONSES = 1000;
export const MAX_TASKS = 1000;
export const MAX_CHARACTERS = 1000;
/** Pictures are large: a session keeps only its latest ones for `url` answers. */
export const MAX_IMAGES = 100;
/** Fixtures added through the admin API; past this a session must be reset first. */
export const MAX_RUNTIME_FIXTURES = 1000;

export function createSession(id: string, journalMax: number, nowMs: number, budget: MemoryBudget): Session {
  return {
    id,
    journal: new Ring(journalMax),
    journalTally: emptyTally(),
    responses: new Map(),
    tasks: new Map(),
    characters: new Map(),
    files: new Map(),
    batches: new Map(),
    images: new Map(),
    scenarioCounters: new Map(),
    upstreamTasks: new Map(),
    rateWindows: new Map(),
    scenario: undefined,
    fixtures: [],
    sequence: 0,
    lastUsedMs: nowMs,
    heard: false,
    holdings: new Holdings(budget),
    unpacked: { journal: 0, responses: 0 },
  };
}

/** Adds to a Map, dropping the oldest entry beyond `max`; returns the dropped key. */
export function putBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): K | undefined {
  map.delete(key);
  map.set(key, value);
  if (map.size <= max) return undefined;
  const oldest = map.keys().next().value as K;
  map.delete(oldest);
  return oldest;
}

type MapKind = 'responses' | 'pictures' | 'tasks';

function mapOf(session: Session, kind: MapKind): Map<string, unknown> {
  return kind === 'responses' ? session.responses : kind === 'pictures' ? session.images : session.tasks;
}

const MAX_ENTRIES: Record<MapKind, number> = { responses: MAX_STORED_RESPONSES, pictures: MAX_IMAGES, tasks: MAX_TASKS };

/** Keeps a stored response, picture or video task, counting its bytes; the oldest go past a bound. */
export function keep<V>(session: Session, kind: MapKind, key: string, value: V, bytes: number): void {
  const dropped = putBounded(mapOf(session, kind), key, value, MAX_ENTRIES[kind]);
  if (dropped !== undefined) session.holdings.remove(kind, dropped);
  hold(session, kind, key, bytes);
  if (kind === 'responses' && packingDue(session, 'responses')) packResponses(session);
}

/** The newest stored responses' objects as one deflated block, as the journal's entries. */
function packResponses(session: Session): void {
  const newest = [...session.responses.values()].slice(-PACK_ENTRIES);
  PackedText.packTogether(newest.flatMap((stored) => stored.parts.pack() ?? []));
}

export function forget(session: Session, kind: MapKind, key: string): void {
  mapOf(session, kind).delete(key);
  session.holdings.remove(kind, key);
}

/** Journal entries and stored responses are deflated this many together once the overall budget is more than half full. */
const PACK_ENTRIES = 32;

/** Whether the overall budget is more than half full: then what is kept is deflated, else it is kept as it is. */
function memoryShort(session: Session): boolean {
  const budget = session.holdings.budget;
  return budget.use.total > budget.limitBytes / 2;
}

/** Counts one more item of `kind` added past half the overall budget; true when `PACK_ENTRIES` are waiting. */
function packingDue(session: Session, kind: 'journal' | 'responses'): boolean {
  if (!memoryShort(session)) return false;
  session.unpacked[kind] += 1;
  if (session.unpacked[kind] < PACK_ENTRIES) return false;
  session.unpacked[kind] = 0;
  return true;
}

export function journal(session: Session, entry: KeptEntry): void {
  const overwritten = session.journal.push(entry);
  tally(session.journalTally, entry, 1);
  if (overwritten) {
    session.holdings.removeOldestEntry();
    tally(session.journalTally, overwritten, -1);
    overwritten.payload.release();
  }
  // A long entry (a stream's events, a large body) is deflated alone as it comes, once memory is
  // getting short: deflating every stream's 40-60 KB of events was about a twentieth of its CPU.
  if (memoryShort(session)) entry.payload.packAlone();
  session.holdings.addEntry(keptBytes(entry));
  fit(session, 'journal');
  // Deflated one by one, short entries would cost 50 µs each; 32 at a time, a session's entries
  // being alike, about a tenth of their size for a tenth of that each. Only when memory is
  // getting short: a short run never pays for it. The newest entries, so never one the budget
  // already evicted (only the oldest go).
  if (packingDue(session, 'journal')) PackedText.packTogether(session.journal.newest(PACK_ENTRIES).map((kept) => kept.payload));
}

export function clearJournal(session: Session): void {
  for (const entry of session.journal.toArray()) entry.payload.release();
  session.journal.clear();
  session.journalTally = emptyTally();
  session.unpacked.journal = 0;
  session.holdings.removeAll('journal');
}

/** Adds run-time fixtures (already sorted in with the others), each of about `bytesEach`. */
export function addRuntimeFixtures(session: Session, all: ChatFixture[], added: readonly ChatFixture[], bytesEach: number): void {
  session.fixtures = all;
  for (const fixture of added) hold(session, 'fixtures', String(fixture.order), bytesEach);
}

/** Counts `bytes` for an item just kept, then evicts oldest first past the session's and the overall budget. */
export function hold(session: Session, kind: MemoryKind, key: string, bytes: number): void {
  session.holdings.add(kind, key, bytes);
  fit(session, kind);
}

/** Evicts oldest first past the session's and the overall budget, once an item of `kind` was counted. */
function fit(session: Session, kind: MemoryKind): void {
  const holdings = session.holdings;
  while (holdings.use.total > holdings.budget.sessionLimitBytes && evictOldest(session));
  // A file or batch was let in for the room its own session's items leave (state/pinned.ts): they go first.
  if (PINNED.has(kind)) while (holdings.budget.use.total > holdings.budget.limitBytes && evictOldest(session));
  if (holdings.budget.use.total > holdings.budget.limitBytes) holdings.budget.shed();
}

/** Drops the session's oldest held item from its store; false when it holds nothing. */
export function evictOldest(session: Session): boolean {
  const held = session.holdings.oldest();
  if (!held) return false;
  if (held === OLDEST_ENTRY) {
    dropOldestEntry(session);
    return true;
  }
  drop(session, held);
  session.holdings.remove(held.kind, held.key);
  return true;
}

function dropOldestEntry(session: Session): void {
  const oldest = session.journal.shift();
  session.holdings.removeOldestEntry();
  if (oldest) {
    tally(session.journalTally, oldest, -1);
    oldest.payload.release();
  }
}

function drop(session: Session, held: Held): void {
  if (held.kind === 'fixtures') session.fixtures = session.fixtures.filter((fixture) => String(fixture.order) !== held.key);
  // Files and batches are pinned: `oldest` never hands them out.
  else if (!PINNED.has(held.kind)) mapOf(session, held.kind as MapKind).delete(held.key);
}

/**
 * The conversation up to and including a stored response's output, followed back through the
 * responses it continued; a chain whose oldest responses were evicted starts at the oldest held.
 */
export function storedConversation(session: Session, id: string): Turn[] | undefined {
  let stored = session.responses.get(id);
  if (!stored) return undefined;
  const pieces: Turn[][] = [];
  // A chain is at most as long as the map holds; the bound would also end a cycle.
  for (let links = 0; stored && links < session.responses.size; links += 1) {
    pieces.push(stored.turns);
    stored = stored.previous === undefined ? undefined : session.responses.get(stored.previous);
  }
  const turns: Turn[] = [];
  for (let i = pieces.length - 1; i >= 0; i -= 1) for (const turn of pieces[i]!) turns.push(turn);
  return turns;
}
