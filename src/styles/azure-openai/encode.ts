// Reply -> Azure OpenAI's chat completions: the OpenAI form with Azure's content-filter verdicts,
// the prompt's in `prompt_filter_results`, each choice's in `content_filter_results`; a stream
// opens with a chunk that has no choices, only the prompt's verdict.
import type { StreamEvent } from '../../conversation/plan.js';
import type { ChatRequest, Reply } from '../../conversation/types.js';
import { chatCompletionEvents, encodeChatCompletion } from '../chat-completions/encode.js';

type Json = Record<string, unknown>;

const SAFE = { filtered: false, severity: 'safe' };
const VERDICT = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };

function promptFilterResults(): Json[] {
  return [{ prompt_index: 0, content_filter_results: { ...VERDICT, jailbreak: { filtered: false, detected: false } } }];
}

function choiceVerdict(finishReason: string | null): Json {
  return finishReason === 'content_filter' ? { ...VERDICT, violence: { filtered: true, severity: 'medium' } } : VERDICT;
}

export function encodeAzure(reply: Reply, request: ChatRequest): unknown {
  const body = encodeChatCompletion(reply, request) as Json & { choices: Json[] };
  return {
    ...body,
    prompt_filter_results: promptFilterResults(),
    choices: body.choices.map((choice) => ({ ...choice, content_filter_results: choiceVerdict(choice.finish_reason as string | null) })),
  };
}

export function azureEvents(reply: Reply, request: ChatRequest): StreamEvent[] {
  const opening: StreamEvent = { data: { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: promptFilterResults() } };
  const events = chatCompletionEvents(reply, request).map((event) => {
    const data = event.data as (Json & { choices?: Json[] }) | string;
    const choice = typeof data === 'object' && !event.run ? data.choices?.[0] : undefined;
    if (!choice || choice.finish_reason === null) return event;
    return { ...event, data: { ...(data as Json), choices: [{ ...choice, content_filter_results: choiceVerdict(choice.finish_reason as string) }] } };
  });
  return [opening, ...events];
}
