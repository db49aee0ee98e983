// What matchers look at: the features of a request, each computed at most once and only when a
// matcher asks for it, so a fixture hit on `model` alone costs no lower-casing of a long history.
import type { ChatRequest, StyleName, Turn } from './types.js';

export interface MatchSubject {
  readonly style: StyleName | undefined;
  readonly model: string;
  /** Text of the last user turn (the prompt, for images and videos). */
  readonly lastUser: string;
  readonly lastUserLower: string;
  readonly systemLower: string;
  readonly conversationLower: string;
  readonly tools: ReadonlySet<string>;
  /** Mime types of the media in the last user turn. */
  readonly media: readonly string[];
  readonly userTurns: number;
  readonly headers: Readonly<Record<string, string>>;
}

export function turnText(turn: Turn): string {
  let text = '';
  for (const part of turn.parts) {
    if (part.kind === 'text') text += text ? `\n${part.text}` : part.text;
    else if (part.kind === 'tool_result') text += text ? `\n${part.content}` : part.content;
  }
  return text;
}

function lastUserTurn(turns: readonly Turn[]): Turn | undefined {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    if (turn.role === 'user' && turn.parts.some((p) => p.kind === 'text' || p.kind === 'media')) return turn;
  }
  return undefined;
}

/** Lazily computed features of a chat request. */
export function chatSubject(request: ChatRequest): MatchSubject {
  let lastUser: string | undefined;
  let lastUserLower: string | undefined;
  let systemLower: string | undefined;
  let conversationLower: string | undefined;
  let tools: Set<string> | undefined;
  let media: string[] | undefined;
  let userTurns: number | undefined;
  const last = () => lastUserTurn(request.turns);
  return {
    style: request.style,
    model: request.model,
    headers: request.headers,
    get lastUser() {
      if (lastUser === undefined) {
        const turn = last();
        lastUser = turn ? turnText(turn) : '';
      }
      return lastUser;
    },
    get lastUserLower() {
      return (lastUserLower ??= this.lastUser.toLowerCase());
    },
    get systemLower() {
      return (systemLower ??= request.system.toLowerCase());
    },
    get conversationLower() {
      return (conversationLower ??= [request.system, ...request.turns.map(turnText)].join('\n').toLowerCase());
    },
    get tools() {
      return (tools ??= new Set(request.tools.map((t) => t.name)));
    },
    get media() {
      if (media === undefined) {
        media = [];
        for (const part of last()?.parts ?? []) if (part.kind === 'media') media.push(part.mimeType);
      }
      return media;
    },
    get userTurns() {
      return (userTurns ??= request.turns.filter(
        (t) => t.role === 'user' && t.parts.some((p) => p.kind === 'text' || p.kind === 'media'),
      ).length);
    },
  };
}

/** Features of an image or video prompt, so the same matchers apply to media sections. */
export function promptSubject(model: string, prompt: string, headers: Record<string, string>): MatchSubject {
  const lower = prompt.toLowerCase();
  return {
    style: undefined,
    model,
    lastUser: prompt,
    lastUserLower: lower,
    systemLower: '',
    conversationLower: lower,
    tools: new Set(),
    media: [],
    userTurns: 1,
    headers,
  };
}
