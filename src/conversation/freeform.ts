// The input the generator gives a call of a freeform (custom) tool: text that fits the tool's
// grammar, as the real services constrain their sampling to it, or a short text when the tool
// takes any. A grammar beyond the generator's reach is the client's 400 naming the tool: a reply
// that might not parse is worse than none.
import { invalid } from './errors.js';
import { GrammarBeyondReach, larkPattern } from './lark.js';
import { generateFromPattern } from './pattern-gen.js';
import { generateProse } from './prose.js';
import type { Random } from './random.js';
import type { ToolDef } from './types.js';

const FREE_TEXT_TOKENS = 12;

function grammarPattern(tool: ToolDef): string | undefined {
  const grammar = tool.freeform?.grammar;
  if (!grammar) return undefined;
  if (grammar.syntax === 'regex') return grammar.definition;
  try {
    return larkPattern(grammar.definition);
  } catch (error) {
    if (error instanceof GrammarBeyondReach) throw beyondReach(tool, error.message);
    throw error;
  }
}

function beyondReach(tool: ToolDef, why: string) {
  return invalid(
    `The grammar of custom tool '${tool.name}' is beyond what this mock can generate input for (${why}); give the call's input in a fixture.`,
    'tools',
    'invalid_value',
  );
}

export function freeformInput(tool: ToolDef, random: Random): string {
  const pattern = grammarPattern(tool);
  if (pattern === undefined) return generateProse(random, FREE_TEXT_TOKENS);
  // The whole input must be a sentence of the grammar, not just hold one.
  const input = generateFromPattern(`^(?:${pattern})$`, random);
  if (input === undefined) throw beyondReach(tool, 'a pattern outside the supported subset');
  return input;
}
