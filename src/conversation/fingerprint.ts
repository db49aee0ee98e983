// A request's fingerprint: what the model is asked (the model, the system text, the tools and the
// whole conversation in the neutral form), without what differs from style to style or call to
// call (ids, sampling options, output limits, the stream flag). A conversation recorded in one
// style matches its fixtures in every style, turn by turn.
import { SidesDigest } from './sides-digest.js';
import { finished } from './steps.js';
import type { ChatRequest, Part } from './types.js';

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

/**
 * Turns read by side (user and tool results, or assistant) with call ids left out: styles split
 * a tool round trip into turns differently, but say the same in the same order.
 */
const prints = new SidesDigest((part) => {
  const content = partContent(part);
  return content === undefined ? undefined : canonical(content);
});

/** The digest of `JSON.stringify(canonical([model, system, sides, tools, places?]))`: `places`, the turn counts a mid-conversation system instruction came after. */
export function fingerprint(request: Pick<ChatRequest, 'model' | 'system' | 'systemAt' | 'turns' | 'tools' | 'carriedTurns'>): string {
  const tools = request.tools.map((tool) => [tool.name, tool.description ?? '', tool.parameters]);
  // Where a mid-conversation instruction sits counts; a request without one digests as it always has.
  const places = request.systemAt?.length ? `,${JSON.stringify(request.systemAt.map((at) => at.turn))}` : '';
  return finished(prints.digestSteps(`[${JSON.stringify(request.model)},${JSON.stringify(request.system)},[`, request.turns, request.carriedTurns, `,${JSON.stringify(canonical(tools))}${places}]`));
}
