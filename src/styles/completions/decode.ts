// `POST /v1/completions`, the legacy form: each prompt (a string, a list of strings, token ids or
// a list of such lists) becomes a neutral chat request of one user turn, so `chat:` fixtures and
// the generator answer it as the prompt's last user message.
import * as z from 'zod';
import { invalid } from '../../conversation/errors.js';
import { decodeTokens } from '../../conversation/tokenizer.js';
import type { ChatRequest } from '../../conversation/types.js';
import { parseBody } from '../validate.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';

/** The vendor's default, far below a chat model's. */
export const DEFAULT_MAX_TOKENS = 16;
const MAX_PROMPTS = 2048;
/**
 * Choices of one request, prompts × `n` (the vendor bounds each, 2,048 prompts and n at most 128,
 * but not their product): each costs about 0.1 ms to generate and encode, so 262,144 of them held
 * every session for half a minute.
 */
export const MAX_CHOICES = 2048;
/** Characters `echo` repeats in all (each prompt once per choice): 128 MB took 5 s to send. */
export const MAX_ECHOED_CHARACTERS = 2_000_000;

/** The body's schema, made at the first completions request: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const tokenList = z.array(z.number().int().min(0)).min(1);

  const body = z.looseObject({
    model: z.string().min(1),
    prompt: z.union([z.string(), z.array(z.string()).min(1).max(MAX_PROMPTS), tokenList, z.array(tokenList).min(1).max(MAX_PROMPTS)]),
    max_tokens: z.number().int().min(0).nullish(),
    n: z.number().int().min(1).max(128).nullish(),
    stream: z.boolean().nullish(),
    stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
    suffix: z.string().nullish(),
    echo: z.boolean().nullish(),
    stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
    seed: z.number().int().nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    logprobs: z.number().int().min(0).max(5).nullish(),
    best_of: z.number().int().min(1).max(20).nullish(),
    presence_penalty: z.number().min(-2).max(2).nullish(),
    frequency_penalty: z.number().min(-2).max(2).nullish(),
    user: z.string().nullish(),
  });
  return { body };
});

export interface CompletionsRequest {
  /** One neutral request per prompt, in order. */
  prompts: ChatRequest[];
  echo: boolean;
  includeUsage: boolean;
}

function promptText(prompt: string | number[], field: string): string {
  if (typeof prompt === 'string') return prompt;
  const decoded = decodeTokens(prompt);
  if ('badAt' in decoded) throw invalid(`Invalid '${field}[${decoded.badAt}]': not a token id of the model's vocabulary.`, `${field}[${decoded.badAt}]`);
  return decoded.text;
}

type Body = z.infer<ReturnType<typeof schemas>['body']>;

function promptsOf(prompt: Body['prompt']): string[] {
  if (typeof prompt === 'string') return [prompt];
  if (prompt.every((item) => typeof item === 'number')) return [promptText(prompt as number[], 'prompt')];
  return (prompt as Array<string | number[]>).map((item, index) => promptText(item, `prompt[${index}]`));
}

/** Refuses what the vendor refuses (`best_of` below `n`) and what would take the mock too long. */
function checkCounts(data: Body, texts: readonly string[]): void {
  const n = data.n ?? 1;
  if (data.best_of !== undefined && data.best_of !== null && data.best_of < n) {
    throw invalid('best_of must be greater than or equal to n', 'best_of', 'invalid_value');
  }
  const choices = texts.length * n;
  if (choices > MAX_CHOICES) {
    throw invalid(`Invalid value for 'n': ${texts.length} prompts × n ${n} asks for ${choices} choices; a request may have at most ${MAX_CHOICES}.`, 'n', 'invalid_value');
  }
  if (data.echo !== true) return;
  const echoed = texts.reduce((sum, text) => sum + text.length, 0) * n;
  if (echoed > MAX_ECHOED_CHARACTERS) {
    throw invalid(`Invalid value for 'echo': the prompts × n would echo ${echoed} characters; a request may echo at most ${MAX_ECHOED_CHARACTERS}.`, 'echo', 'invalid_value');
  }
}

export function decodeCompletions(input: unknown, headers: Record<string, string>): CompletionsRequest {
  const data = parseBody(schemas().body, input);
  const texts = promptsOf(data.prompt);
  checkCounts(data, texts);
  const stop = data.stop === undefined || data.stop === null ? [] : typeof data.stop === 'string' ? [data.stop] : data.stop;
  const prompts = texts.map(
    (text): ChatRequest => ({
      style: 'chat-completions',
      model: data.model,
      system: '',
      turns: [{ role: 'user', parts: [{ kind: 'text', text }] }],
      tools: [],
      toolChoice: { mode: 'none' },
      maxOutputTokens: data.max_tokens ?? DEFAULT_MAX_TOKENS,
      responseFormat: { type: 'text' },
      choices: data.n ?? 1,
      stopSequences: stop,
      stream: data.stream === true,
      temperature: data.temperature ?? undefined,
      seed: data.seed ?? undefined,
      headers,
      body: data as Record<string, unknown>,
    }),
  );
  return { prompts, echo: data.echo === true, includeUsage: data.stream_options?.include_usage === true };
}
