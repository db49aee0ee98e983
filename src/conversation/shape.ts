// The shape of a conversation (SPEC 20): what an agent's turn says once the context that changes
// from checkout to checkout and day to day is left out. A recorded turn keeps it beside its
// fingerprint, so a session recorded in one directory on one day replays in another on another:
// the model, the turn's position (the user's own messages so far), the tool calls made so far in
// order with their arguments, and the last instruction; never the system text, the tool
// definitions, the tool results, an agent's `<system-reminder>` blocks, dates or absolute paths.
import { hashHex } from './random.js';
import type { ChatRequest, Turn } from './types.js';

/** The context an agent adds to a message (Claude Code's reminders, Codex's environment): not the user speaking. */
export const REMINDER = /<(system-reminder|environment_context|user_instructions)>[\s\S]*?<\/\1>/g;

/**
 * A turn the user said: text or media of their own. A message that only returns tool results
 * (with an agent's `<system-reminder>` blocks beside them, as Claude Code sends), or only carries
 * the context an agent adds (Codex's `<environment_context>` message), is not one.
 */
export function isUserTurn(turn: Turn): boolean {
  return turn.role === 'user' && turn.parts.some((p) => p.kind === 'media' || (p.kind === 'text' && p.text.replace(REMINDER, '').trim() !== ''));
}

/** An absolute path (POSIX, or a Windows drive's), down to its last segment. */
const ABSOLUTE_PATH = /(?:\b[A-Za-z]:[\\/]|(?<![\w.~])\/)(?:[\w.@+~-]+[\\/])*[\w.@+~-]*/g;
const DATE = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g;

/** A text without what differs from place to place and day to day. */
function steady(text: string): string {
  return text.replace(REMINDER, '').replace(ABSOLUTE_PATH, '<path>').replace(DATE, '<date>').replace(/\s+/g, ' ').trim();
}

/** Every string inside a value made steady, object keys sorted (argument order does not count). */
function steadyValue(value: unknown): unknown {
  if (typeof value === 'string') return steady(value);
  if (Array.isArray(value)) return value.map(steadyValue);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .map((key) => [key, steadyValue(object[key])]),
  );
}

function ownText(turn: Turn): string {
  return steady(turn.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('\n'));
}

/** The 16 hex digits of the shape of a chat request's conversation. */
export function conversationShape(request: Pick<ChatRequest, 'model' | 'turns'>): string {
  let position = 0;
  let instruction = '';
  const calls: unknown[] = [];
  for (const turn of request.turns) {
    if (isUserTurn(turn)) {
      position++;
      instruction = ownText(turn);
    }
    for (const part of turn.parts) if (part.kind === 'tool_call') calls.push([part.name, steadyValue(part.arguments)]);
  }
  return hashHex(JSON.stringify([request.model, position, calls, instruction]));
}
