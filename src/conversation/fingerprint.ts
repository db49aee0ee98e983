// A request's fingerprint: what the model is asked (the model, the system text, the tools and the
// whole conversation in the neutral form), without what differs from style to style or call to
// call (ids, sampling options, output limits, the stream flag). A conversation recorded in one
// style matches its fixtures in every style, turn by turn.
import { hashHex } from './random.js';
import type { ChatRequest, Part, Turn } from './types.js';

/** What a part says, without the ids and spellings that differ from style to style. */
export function partContent(part: Part): unknown {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'media':
      return ['media', part.mimeType, part.data ?? part.url];
    case 'tool_call':
      return ['call', part.name, part.arguments];
    case 'tool_result':
      return ['result', part.content];
    case 'reasoning':
      return undefined;
  }
}

/**
 * Turns read by side (user and tool results, or assistant) with call ids left out: styles split
 * a tool round trip into turns differently, but say the same in the same order.
 */
export function conversationSides(turns: readonly Turn[]): Array<[string, unknown[]]> {
  const sides: Array<[string, unknown[]]> = [];
  for (const turn of turns) {
    const side = turn.role === 'assistant' ? 'a' : 'u';
    const content = turn.parts.map(partContent).filter((c) => c !== undefined);
    const last = sides[sides.length - 1];
    if (last && last[0] === side) last[1].push(...content);
    else sides.push([side, content]);
  }
  return sides;
}

/** Tool arguments are parsed JSON already; keys are sorted so their order does not count. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

export function fingerprint(request: Pick<ChatRequest, 'model' | 'system' | 'turns' | 'tools'>): string {
  const tools = request.tools.map((tool) => [tool.name, tool.description ?? '', tool.parameters]);
  return hashHex(JSON.stringify(canonical([request.model, request.system, conversationSides(request.turns), tools])), 16);
}
