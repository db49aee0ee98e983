// What matchers look at: the features of a request, each computed at most once and only when a
// matcher asks for it, so a fixture hit on `model` alone costs no lower-casing of a long history.
import { fingerprint } from './fingerprint.js';
import { lowerCasePieceSteps } from './lower-case.js';
import { piecesInclude } from './text-pieces.js';
import { PatternWork } from './pattern-work.js';
import { conversationShape, isUserTurn } from './shape.js';
import type { Steps } from './steps.js';
import type { ChatRequest, ResponseFormat, StyleName, ToolChoice, Turn } from './types.js';

export interface MatchSubject {
  readonly style: StyleName | undefined;
  readonly model: string;
  /** Text of the last user turn (the prompt, for images and videos). */
  readonly lastUser: string;
  readonly lastUserLower: string;
  /** Whether `lastUserLower` holds `needle` (lower-cased): a `contains`, answered ahead for a long text. */
  lastUserHolds(needle: string): boolean;
  readonly systemLower: string;
  readonly conversationLower: string;
  readonly tools: ReadonlySet<string>;
  /** The tools whose results the request carries back (not those of a stored conversation it continues). */
  readonly toolResults: readonly string[];
  /** The tools whose results the last turn (what came after the last assistant turn) returns. */
  readonly lastToolResults: readonly string[];
  /** The tools the assistant called so far, in order, once per call. */
  readonly calledTools: readonly string[];
  /** Mime types of the media in the last user turn. */
  readonly media: readonly string[];
  readonly userTurns: number;
  /** The request's fingerprint (chat requests only). */
  readonly fingerprint: string | undefined;
  /** The shape of the conversation (shape.ts; chat requests only): what a recorded turn replays by elsewhere. */
  readonly shape: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** What the patterns and globs tried on this request may still cost. */
  readonly patterns: PatternWork;
  /** Whether (and which) tool the request forces a call of. */
  readonly toolChoice: ToolChoice;
  readonly responseFormat: ResponseFormat;
}

/**
 * A turn's text and its lower case, made once per turn: the turns a `previous_response_id` chain
 * carries are the same objects request after request (turns are not changed once decoded).
 */
const texts = new WeakMap<Turn, KnownText>();

interface KnownText {
  text: string;
  lower?: string;
  /** A long text's lower case in the pieces it was made in, joined only when a reader wants it whole. */
  lowerPieces?: string[];
  /** Needles looked for in a long text ahead, in steps, and whether it holds each. */
  holds?: Map<string, boolean>;
}

export function turnText(turn: Turn): string {
  let known = texts.get(turn);
  if (!known) {
    let text = '';
    for (const part of turn.parts) {
      if (part.kind === 'text') text += text ? `\n${part.text}` : part.text;
      else if (part.kind === 'tool_result') text += text ? `\n${part.content}` : part.content;
    }
    known = { text };
    texts.set(turn, known);
  }
  return known.text;
}

const NO_NAMES: readonly string[] = Object.freeze([]);
/** The tools of a request that offers none (most hits): the journal asks every chat request for them. */
const NO_TOOLS: ReadonlySet<string> = new Set();

/**
 * Each result's tool, named by the result or by the call it answers. A request without tool calls
 * or results (most hits) makes nothing: the journal asks every chat request for its results.
 */
function toolResultNames(turns: readonly Turn[], from: number): readonly string[] {
  let calls: Map<string, string> | undefined;
  let names: string[] | undefined;
  for (let index = 0; index < turns.length; index++) {
    for (const part of turns[index]!.parts) {
      if (part.kind === 'tool_call') (calls ??= new Map()).set(part.id, part.name);
      else if (part.kind === 'tool_result' && index >= from) {
        const name = part.name ?? calls?.get(part.callId);
        if (name !== undefined && !names?.includes(name)) (names ??= []).push(name);
      }
    }
  }
  return names ?? NO_NAMES;
}

function turnLower(turn: Turn): string {
  turnText(turn);
  const known = texts.get(turn)!;
  return (known.lower ??= known.lowerPieces ? known.lowerPieces.join('') : known.text.toLowerCase());
}

/** Below this, a turn's lower case is made at once when a matcher first asks for it. */
const LONG_TEXT = 256 * 1024;

/**
 * The lower case of the last user turn made in pieces when its text is long (kept in them, joined
 * only if a reader wants it whole), and whether it holds
 * each of `needles` (the fixtures' `contains`) looked for a needle a step: each search of
 * megabytes takes milliseconds, and a dozen fixtures took 50 ms in one turn. The matchers then find
 * both made. Undefined for a short text, whose lower case is made at once if a matcher asks.
 */
export function lastUserLowerSteps(request: ChatRequest, needles: Iterable<string>): Steps<void> | undefined {
  const turn = lastUserTurn(request.turns);
  if (turn === undefined || turnText(turn).length < LONG_TEXT) return undefined;
  return keepLower(texts.get(turn)!, needles);
}

function* keepLower(known: KnownText, needles: Iterable<string>): Steps<void> {
  const lower = known.lower !== undefined ? [known.lower] : (known.lowerPieces ??= yield* lowerCasePieceSteps(known.text));
  const holds = (known.holds ??= new Map());
  for (const needle of needles) {
    if (holds.has(needle)) continue;
    holds.set(needle, piecesInclude(lower, needle));
    yield;
  }
}

function lastUserTurn(turns: readonly Turn[]): Turn | undefined {
  for (let i = turns.length - 1; i >= 0; i--) if (isUserTurn(turns[i]!)) return turns[i];
  return undefined;
}

/** Where the last turn starts: right after the last assistant turn. */
function lastTurnStart(turns: readonly Turn[]): number {
  let from = turns.length;
  while (from > 0 && turns[from - 1]!.role !== 'assistant') from--;
  return from;
}

function calledToolNames(turns: readonly Turn[]): string[] {
  const names: string[] = [];
  for (const turn of turns) for (const part of turn.parts) if (part.kind === 'tool_call') names.push(part.name);
  return names;
}

/**
 * Lazily computed features of a chat request. A class, not an object literal with getters: one
 * is made per request, and a literal's getters are new closures and a new shape every time.
 */
class ChatSubject implements MatchSubject {
  private lastUserText: string | undefined;
  private lastUserLowerText: string | undefined;
  private lastUserHeld: Map<string, boolean> | null | undefined;
  private lastUserTurnFound: Turn | null | undefined;
  private systemLowerText: string | undefined;
  private conversationLowerText: string | undefined;
  private toolNames: ReadonlySet<string> | undefined;
  private toolResultNames: readonly string[] | undefined;
  private lastToolResultNames: readonly string[] | undefined;
  private calledToolList: string[] | undefined;
  private mediaTypes: string[] | undefined;
  private userTurnCount: number | undefined;
  private fingerprintText: string | undefined;
  private shapeText: string | undefined;
  readonly style: StyleName;
  readonly model: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly patterns = new PatternWork();
  readonly toolChoice: ToolChoice;
  readonly responseFormat: ResponseFormat;

  constructor(private readonly request: ChatRequest) {
    this.style = request.style;
    this.model = request.model;
    this.headers = request.headers;
    this.toolChoice = request.toolChoice;
    this.responseFormat = request.responseFormat;
  }

  /** Found once: telling a user's turn from injected context reads its text. */
  private get lastUserTurn(): Turn | undefined {
    if (this.lastUserTurnFound === undefined) this.lastUserTurnFound = lastUserTurn(this.request.turns) ?? null;
    return this.lastUserTurnFound ?? undefined;
  }

  get lastUser(): string {
    if (this.lastUserText === undefined) {
      const turn = this.lastUserTurn;
      this.lastUserText = turn ? turnText(turn) : '';
    }
    return this.lastUserText;
  }

  get lastUserLower(): string {
    if (this.lastUserLowerText === undefined) {
      // The turn's own lower case, which the conversation's is joined from: one copy, not two.
      const turn = this.lastUserTurn;
      this.lastUserLowerText = turn ? turnLower(turn) : '';
    }
    return this.lastUserLowerText;
  }

  lastUserHolds(needle: string): boolean {
    if (this.lastUserHeld === undefined) {
      const turn = this.lastUserTurn;
      this.lastUserHeld = (turn && texts.get(turn)?.holds) ?? null;
    }
    return this.lastUserHeld?.get(needle) ?? this.lastUserLower.includes(needle);
  }

  get systemLower(): string {
    return (this.systemLowerText ??= this.request.system.toLowerCase());
  }

  get conversationLower(): string {
    return (this.conversationLowerText ??= [this.systemLower, ...this.request.turns.map(turnLower)].join('\n'));
  }

  get tools(): ReadonlySet<string> {
    if (this.toolNames === undefined) {
      const tools = this.request.tools;
      this.toolNames = tools.length === 0 ? NO_TOOLS : new Set(tools.map((t) => t.name));
    }
    return this.toolNames;
  }

  get toolResults(): readonly string[] {
    return (this.toolResultNames ??= toolResultNames(this.request.turns, this.request.carriedTurns ?? 0));
  }

  get lastToolResults(): readonly string[] {
    const turns = this.request.turns;
    return (this.lastToolResultNames ??= toolResultNames(turns, Math.max(lastTurnStart(turns), this.request.carriedTurns ?? 0)));
  }

  get calledTools(): readonly string[] {
    return (this.calledToolList ??= calledToolNames(this.request.turns));
  }

  get media(): readonly string[] {
    if (this.mediaTypes === undefined) {
      this.mediaTypes = [];
      for (const part of this.lastUserTurn?.parts ?? []) if (part.kind === 'media') this.mediaTypes.push(part.mimeType);
    }
    return this.mediaTypes;
  }

  get userTurns(): number {
    return (this.userTurnCount ??= this.request.turns.filter(isUserTurn).length);
  }

  get fingerprint(): string {
    return (this.fingerprintText ??= fingerprint(this.request));
  }

  get shape(): string {
    return (this.shapeText ??= conversationShape(this.request));
  }
}

export function chatSubject(request: ChatRequest): MatchSubject {
  return new ChatSubject(request);
}

const NOTHING_FORCED: ToolChoice = { mode: 'auto' };
const PLAIN_TEXT: ResponseFormat = { type: 'text' };

/**
 * Features of an image or video prompt, or of one input of the other doors (embeddings, moderation),
 * so the same matchers apply to their sections; `fingerprint` is an input's (recordings pin it).
 */
export function promptSubject(model: string, prompt: string, headers: Record<string, string>, fingerprint?: string): MatchSubject {
  const lower = prompt.toLowerCase();
  return {
    style: undefined,
    model,
    lastUser: prompt,
    lastUserLower: lower,
    lastUserHolds: (needle) => lower.includes(needle),
    systemLower: '',
    conversationLower: lower,
    tools: new Set(),
    toolResults: [],
    lastToolResults: [],
    calledTools: [],
    media: [],
    userTurns: 1,
    fingerprint,
    shape: undefined,
    headers,
    patterns: new PatternWork(),
    toolChoice: NOTHING_FORCED,
    responseFormat: PLAIN_TEXT,
  };
}
