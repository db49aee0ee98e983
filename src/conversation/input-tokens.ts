// A request's input tokens: the system text, every turn (media at a flat rate, tool calls by
// their name and arguments) and the tools, counted with one budget (see tokens.ts).
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

function countTurns(turns: readonly Turn[], from: number, counter: TokenCounter): number {
  let total = 0;
  for (let index = from; index < turns.length; index += 1) {
    const turn = turns[index]!;
    total += PER_TURN_TOKENS + counter.count(turnText(turn));
    for (const part of turn.parts) {
      if (part.kind === 'media') total += MEDIA_TOKENS;
      else if (part.kind === 'tool_call') total += counter.count(part.name) + counter.count(JSON.stringify(part.arguments));
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

export function countInputTokens(request: ChatRequest): number {
  const { system, turns, carriedTurns } = request;
  // One counter for the whole request: however many texts it has, BPE work stays bounded.
  const known = carriedTurns === undefined ? undefined : counted.resume(turns, carriedTurns, system);
  let counter: TokenCounter;
  let total: number;
  if (known) {
    counter = known.state.counter.copy();
    total = known.state.tokens + countTurns(turns, known.covered, counter);
  } else {
    counter = new TokenCounter();
    total = (system ? counter.count(system) + PER_TURN_TOKENS : 0) + countTurns(turns, 0, counter);
  }
  // A style that carries turns to the next request (responses) leaves the count for it.
  if (carriedTurns !== undefined) counted.remember(turns, system, known?.covered, () => ({ counter: counter.copy(), tokens: total }));
  if (request.tools.length > 0) total += counter.count(toolsJson(request.tools));
  return total + 3;
}
