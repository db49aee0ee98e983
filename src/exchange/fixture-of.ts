// A chat fixture that gives an answer again: from a journal entry (pinning) or from an upstream's
// answer (recording). Matched by the request's fingerprint, so it answers that same turn of that
// same conversation in every style.
import { fingerprint } from '../conversation/fingerprint.js';
import type { ChatFixtureDocument, FixtureStream } from '../conversation/fixture-yaml.js';
import { readErrorAnswer } from '../conversation/recorded.js';
import { conversationShape } from '../conversation/shape.js';
import { turnText } from '../conversation/subject.js';
import type { ChatRequest } from '../conversation/types.js';
import type { SentResponse } from '../state/journal.js';
import type { ChatStyle } from '../styles/style.js';

function lastUserText(request: ChatRequest): string {
  const turn = request.turns.findLast((t) => t.role === 'user');
  return turn ? turnText(turn) : '';
}

/** A whole error answer replays as an error; a stream (even one a client left) as what it said. */
function replyOf(style: ChatStyle, response: SentResponse): ChatFixtureDocument['reply'] {
  if ('events' in response) return style.read({ events: response.events });
  if (response.status >= 400) {
    const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, String(value)]));
    return { error: readErrorAnswer({ status: response.status, headers, body: response.body }) };
  }
  return style.read({ body: response.body });
}

/** The name a fixture gets without one given: style, model and the fingerprint's start. */
export function fixtureName(style: ChatStyle, request: ChatRequest): string {
  return `${style.name}-${request.model.replace(/[^\w.-]+/g, '_')}-${fingerprint(request).slice(0, 8)}`;
}

/** The request as `drift` asks it again: its path, the `key` query parameter (a secret) left out, and its body. */
export function askedAgain(path: string, search: string, body: unknown): { path: string; body: unknown } {
  const query = new URLSearchParams(search);
  query.delete('key');
  const rest = query.toString();
  return { path: rest ? `${path}?${rest}` : path, body };
}

export function chatFixtureOf(
  style: ChatStyle,
  request: ChatRequest,
  response: SentResponse,
  options: { name?: string; stream?: FixtureStream; asked?: { path: string; body: unknown } } = {},
): ChatFixtureDocument {
  const { name, stream, asked } = options;
  return {
    name: name ?? fixtureName(style, request),
    comment: `last user message: ${lastUserText(request) || '(none)'}`,
    match: { fingerprint: fingerprint(request), shape: conversationShape(request) },
    reply: replyOf(style, response),
    ...(stream && { stream }),
    ...(asked && { request: asked }),
  };
}
