// Per-session state: everything a request can change lives here, apart from the config, so a
// reload never loses it and `x-mock-session` keeps parallel test workers from seeing each other.
import type { ChatFixture } from '../conversation/fixture.js';
import type { Turn } from '../conversation/types.js';
import { Ring } from './ring.js';
import type { JournalEntry } from './journal.js';
import type { VideoTask } from './video-task.js';

/** A response kept for `previous_response_id` and `GET /v1/responses/{id}`. */
export interface StoredResponse {
  /** The conversation up to and including this response's output. */
  turns: Turn[];
  body: unknown;
  /** The request's input items as `GET /v1/responses/{id}/input_items` lists them. */
  inputItems: ReadonlyArray<{ id: string }>;
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

export interface RateWindow {
  startMs: number;
  used: number;
}

export interface Session {
  readonly id: string;
  journal: Ring<JournalEntry>;
  responses: Map<string, StoredResponse>;
  tasks: Map<string, VideoTask>;
  characters: Map<string, VideoCharacter>;
  /** Pictures answered as `url`, served at that URL until they age out. */
  images: Map<string, StoredImage>;
  /** Requests taken by each scenario in this session, for step selection. */
  scenarioCounters: Map<string, number>;
  rateWindows: Map<string, RateWindow>;
  /** The scenario set for this session through the admin API. */
  scenario: string | undefined;
  /** Fixtures added at run time, sorted like file fixtures. */
  fixtures: ChatFixture[];
  /** Counter behind ids; ids derive from (seed, session, counter). */
  sequence: number;
  lastUsedMs: number;
}

/** Bounded stores: a long CI run cannot grow the mock without end. */
export const MAX_STORED_RESPONSES = 1000;
export const MAX_TASKS = 1000;
export const MAX_CHARACTERS = 1000;
/** Pictures are large: a session keeps only its latest ones for `url` answers. */
export const MAX_IMAGES = 100;
/** Fixtures added through the admin API; past this a session must be reset first. */
export const MAX_RUNTIME_FIXTURES = 1000;

export function createSession(id: string, journalMax: number, nowMs: number): Session {
  return {
    id,
    journal: new Ring(journalMax),
    responses: new Map(),
    tasks: new Map(),
    characters: new Map(),
    images: new Map(),
    scenarioCounters: new Map(),
    rateWindows: new Map(),
    scenario: undefined,
    fixtures: [],
    sequence: 0,
    lastUsedMs: nowMs,
  };
}

/** Adds to a Map, dropping the oldest entry beyond `max`. */
export function putBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}
