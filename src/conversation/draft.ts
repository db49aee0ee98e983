// A reply's choice before the request's stop sequences, output limit and stream pieces are
// applied: what a fixture or the generator says, and what a semantic fault makes of it.
import type { Random } from './random.js';
import { generateFromSchema } from './schema-gen.js';
import type { FinishReason, ToolCall, ToolDef } from './types.js';

export interface Draft {
  text: string;
  textTokens?: number;
  reasoning?: string;
  toolCalls: ToolCall[];
  finishReason?: FinishReason;
  /** The stream's pieces, when the fixture fixes them. */
  chunks?: readonly string[];
}

export function generatedArguments(tool: ToolDef, random: Random): Record<string, unknown> {
  const value = generateFromSchema(tool.parameters, random);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
