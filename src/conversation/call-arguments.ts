// A tool call's arguments as the wire carries them: the text a fault left, else the object's JSON.
import type { ToolCall } from './types.js';

export function argumentsText(call: ToolCall): string {
  return call.argumentsText ?? JSON.stringify(call.arguments);
}
