// The legacy completion, whole (`text_completion`) or streamed as `text_completion` chunks ending
// `data: [DONE]`; the choices of every prompt in order (prompt i's n choices at i*n...).
import type { StreamEvent } from '../../conversation/plan.js';
import type { Reply, ReplyChoice } from '../../conversation/types.js';
import { pushPieces } from '../piece-events.js';

export interface Completed {
  reply: Reply;
  /** The prompt each choice answers, for `echo`. */
  prompts: readonly string[];
  echo: boolean;
  includeUsage: boolean;
}

function finishReason(choice: ReplyChoice): string {
  return choice.finishReason === 'length' || choice.finishReason === 'content_filter' ? choice.finishReason : 'stop';
}

function usage(reply: Reply) {
  const { inputTokens, outputTokens } = reply.usage;
  return { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
}

function head(reply: Reply) {
  return { id: `cmpl-${reply.id}`, object: 'text_completion', created: Math.floor(reply.createdMs / 1000), model: reply.model };
}

export function encodeCompletion({ reply, prompts, echo }: Completed) {
  return {
    ...head(reply),
    choices: reply.choices.map((choice, index) => ({
      text: echo ? prompts[index]! + choice.text : choice.text,
      index,
      logprobs: null,
      finish_reason: finishReason(choice),
    })),
    usage: usage(reply),
  };
}

export function completionEvents({ reply, prompts, echo, includeUsage }: Completed): StreamEvent[] {
  const base = head(reply);
  const chunk = (index: number, text: string, finish: string | null, paced: boolean): StreamEvent => ({
    data: { ...base, choices: [{ text, index, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}) },
    paced,
  });
  const events: StreamEvent[] = [];
  reply.choices.forEach((choice, index) => {
    if (echo) events.push(chunk(index, prompts[index]!, null, false));
    pushPieces(events, choice.textChunks, (piece) => chunk(index, piece, null, true));
    events.push(chunk(index, '', finishReason(choice), false));
  });
  if (includeUsage) events.push({ data: { ...base, choices: [], usage: usage(reply) } });
  events.push({ data: '[DONE]' });
  return events;
}
