// The inputs of an embeddings request as the OpenAI form spells them: a string, a list of strings,
// a list of token ids, or a list of such lists. Each becomes a text (ids are decoded with the chat
// tokenizer) and its token count; the 400s name the index at fault.
import { invalid } from '../../conversation/errors.js';
import { decodeTokens } from '../../conversation/tokenizer.js';
import type { Steps } from '../../conversation/steps.js';
import { TokenCounter } from '../../conversation/tokens.js';

export const MAX_INPUTS = 2048;
export const MAX_INPUT_TOKENS = 8192;
/** The vendor's bound on one request's inputs together; it keeps the vectors' work near 100 ms. */
export const MAX_TOTAL_TOKENS = 300_000;

export interface EmbeddingInput {
  text: string;
  tokens: number;
}

function isTokenList(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number');
}

function fromTokens(ids: number[], field: string): EmbeddingInput {
  if (ids.length > MAX_INPUT_TOKENS) {
    throw invalid(`Invalid '${field}': it has ${ids.length} tokens; an input may have at most ${MAX_INPUT_TOKENS}.`, field, 'invalid_value');
  }
  const decoded = decodeTokens(ids);
  if ('badAt' in decoded) throw invalid(`Invalid '${field}[${decoded.badAt}]': not a token id of the model's vocabulary.`, `${field}[${decoded.badAt}]`, 'invalid_value');
  return { text: decoded.text, tokens: ids.length };
}

function fromText(text: string, field: string, counter: TokenCounter): EmbeddingInput {
  if (text === '') throw invalid(`Invalid '${field}': an input must not be an empty string.`, field, 'invalid_value');
  const tokens = counter.count(text);
  if (tokens > MAX_INPUT_TOKENS) {
    throw invalid(`Invalid '${field}': it has ${tokens} tokens; an input may have at most ${MAX_INPUT_TOKENS}.`, field, 'invalid_value');
  }
  return { text, tokens };
}

/**
 * The inputs read, their texts counted with one counter for the request (tokens.ts), a step
 * after each input: counting 2,048 inputs at the bound took 100 ms.
 */
export function* readInputs(input: unknown): Steps<EmbeddingInput[]> {
  if (input === undefined || input === null) throw invalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  const counter = new TokenCounter();
  if (typeof input === 'string') return [fromText(input, 'input', counter)];
  if (!Array.isArray(input)) throw invalid("Invalid type for 'input': expected a string, a list of strings, a list of token ids or a list of such lists.", 'input', 'invalid_value');
  if (input.length === 0) throw invalid("Invalid value for 'input': the list must not be empty.", 'input', 'invalid_value');
  if (input.length > MAX_INPUTS) throw invalid(`Invalid value for 'input': at most ${MAX_INPUTS} inputs, got ${input.length}.`, 'input', 'invalid_value');
  if (isTokenList(input)) return [fromTokens(input, 'input')];
  const strings = typeof input[0] === 'string';
  let total = 0;
  const inputs: EmbeddingInput[] = [];
  for (const [index, item] of input.entries()) {
    const field = `input[${index}]`;
    const read = strings && typeof item === 'string' ? fromText(item, field, counter) : !strings && isTokenList(item) ? fromTokens(item, field) : undefined;
    if (!read) throw invalid(`Invalid type for '${field}': expected a string or a non-empty list of token ids, and every input of one kind.`, field, 'invalid_value');
    total += read.tokens;
    if (total > MAX_TOTAL_TOKENS) {
      throw invalid(`Invalid value for 'input': the inputs up to ${field} have ${total} tokens; a request may have at most ${MAX_TOTAL_TOKENS} in all.`, 'input', 'invalid_value');
    }
    inputs.push(read);
    yield;
  }
  return inputs;
}
