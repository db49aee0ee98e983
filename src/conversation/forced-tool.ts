// A request that forces a tool call is never answered with text alone, as the real services never
// do (SPEC 5): which tools such a request lets a reply call, and whether a reply's calls fit.
import type { ToolChoice } from './types.js';

/** The tools a reply may call: undefined when nothing is forced, 'any' for any declared tool. */
export function forcedTools(choice: ToolChoice): readonly string[] | 'any' | undefined {
  if (choice.mode === 'tool') return [choice.name];
  if (choice.mode === 'required') return choice.among ?? 'any';
  return undefined;
}

/** Whether a reply that calls these tools (by name) answers a request with this choice. */
export function answersToolChoice(choice: ToolChoice, calls: readonly string[]): boolean {
  const forced = forcedTools(choice);
  if (forced === undefined) return true;
  return calls.length > 0 && (forced === 'any' || calls.every((name) => forced.includes(name)));
}
