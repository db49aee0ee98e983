// A request's input tokens: the system text, every turn (media at a flat rate, tool calls by
// their name and arguments) and the tools, counted with one budget (see tokens.ts). A large
// request's count is made beforehand in steps (`inputTokenSteps`), as its content key is.
import { finished, type Steps } from './steps.js';
import { turnText } from './subject.js';
import { TokenCounter } from './tokens.js';
import { toolsJson } from './tools-json.js';
import { TurnPrefixes } from './turn-prefixes.js';
import type { ChatRequest, Turn } from './types.js';

/** Per media part: a flat figure close to what the vendors bill for a small image. */
const MEDIA_TOKENS = 258;
const PER_TURN_TOKENS = 4;

/** The count after some turns: the counter (its budget partly spent) and the tokens so far. */
interface Counted {
  counter: TokenCounter;
  tokens: number;
}

/** What the turns of a carried conversation counted to, by its system text. */
const counted = new TurnPrefixes<Counted>();

/** The counts made beforehand, by the request they were made for. */
const made = new WeakMap<ChatRequest, number>();

function* turnSteps(turns: readonly Turn[], from: number, counter: TokenCounter): Steps<number> {
  let total = 0;
  for (let index = from; index < turns.length; index += 1) {
    const turn = turns[index]!;
    total += PER_TURN_TOKENS + (yield* counter.countSteps(turnText(turn)));
    for (const part of turn.parts) {
      if (part.kind === 'media') total += MEDIA_TOKENS;
      else if (part.kind === 'tool_call') total += counter.count(part.name) + (yield* counter.countSteps(JSON.stringify(part.arguments)));
    }
  }
  return total;
}

/** The part of the input tokens that is audio: its media parts counted as countInputTokens counts them. */
export function audioInputTokens(request: ChatRequest): number {
  let parts = 0;
  for (const turn of request.turns) for (const part of turn.parts) if (part.kind === 'media' && part.mimeType.startsWith('audio/')) parts += 1;
  return parts * MEDIA_TOKENS;
}

function* countSteps(request: ChatRequest): Steps<number> {
  const { system, turns, carriedTurns } = request;
  // One counter for the whole request: however many texts it has, BPE work stays bounded.
  const known = carriedTurns === undefined ? undefined : counted.resume(turns, carriedTurns, system);
  let counter: TokenCounter;
  let total: number;
  if (known) {
    counter = known.state.counter.copy();
    total = known.state.tokens + (yield* turnSteps(turns, known.covered, counter));
  } else {
    counter = new TokenCounter();
    total = (system ? (yield* counter.countSteps(system)) + PER_TURN_TOKENS : 0) + (yield* turnSteps(turns, 0, counter));
  }
  // A style that carries turns to the next request (responses) leaves the count for it.
  if (carriedTurns !== undefined) counted.remember(turns, system, known?.covered, () => ({ counter: counter.copy(), tokens: total }));
  if (request.tools.length > 0) total += yield* counter.countSteps(toolsJson(request.tools));
  return total + 3;
}

/** Counts the request's input tokens a step at a time; `countInputTokens` then finds them counted. */
export function* inputTokenSteps(request: ChatRequest): Steps<void> {
  if (!made.has(request)) made.set(request, yield* countSteps(request));
}

export function countInputTokens(request: ChatRequest): number {
  return made.get(request) ?? finished(countSteps(request));
}
