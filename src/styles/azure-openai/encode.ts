// Reply -> Azure OpenAI's chat completions: the OpenAI form with Azure's content-filter verdicts,
// the prompt's in `prompt_filter_results`, each choice's in `content_filter_results`; a stream
// opens with a chunk that has no choices, only the prompt's verdict. A prompt the filter refuses is
// Azure's 400 with `code: content_filter`.
import { MockError } from '../../conversation/errors.js';
import { isSpan, type StreamEvent, type StreamPart } from '../../conversation/plan.js';
import type { ChatRequest, Reply } from '../../conversation/types.js';
import { chatCompletionParts, encodeChatCompletion } from '../chat-completions/encode.js';

type Json = Record<string, unknown>;

const SAFE = { filtered: false, severity: 'safe' };
const VERDICT = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
/** What a `content_filter` fault filtered: one category, at the severity Azure's default filter blocks. */
const FILTERED_VERDICT = { ...VERDICT, violence: { filtered: true, severity: 'medium' } };

function promptFilterResults(): Json[] {
  return [{ prompt_index: 0, content_filter_results: { ...VERDICT, jailbreak: { filtered: false, detected: false } } }];
}

function choiceVerdict(finishReason: string | null): Json {
  return finishReason === 'content_filter' ? FILTERED_VERDICT : VERDICT;
}

export function encodeAzure(reply: Reply, request: ChatRequest): unknown {
  const body = encodeChatCompletion(reply, request) as Json & { choices: Json[] };
  return {
    ...body,
    prompt_filter_results: promptFilterResults(),
    choices: body.choices.map((choice) => ({ ...choice, content_filter_results: choiceVerdict(choice.finish_reason as string | null) })),
  };
}

export function azureParts(reply: Reply, request: ChatRequest): StreamPart[] {
  const opening: StreamEvent = { data: { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: promptFilterResults() } };
  const events = chatCompletionParts(reply, request).map((event) => {
    // A content chunk never finishes, and reading its data would build it whole.
    if (isSpan(event) || event.run) return event;
    const data = event.data as (Json & { choices?: Json[] }) | string;
    const choice = typeof data === 'object' ? data.choices?.[0] : undefined;
    if (!choice || choice.finish_reason === null) return event;
    return { ...event, data: { ...(data as Json), choices: [{ ...choice, content_filter_results: choiceVerdict(choice.finish_reason as string) }] } };
  });
  return [opening, ...events];
}

const PROMPT_FILTERED =
  "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766";

/** A `content_filter` fault `on: prompt`: Azure generates nothing and answers 400 with the prompt's verdict. */
export function promptFiltered(reply: Reply): MockError | undefined {
  if (!reply.fault?.applied || reply.fault.name !== 'content_filter' || reply.fault.on !== 'prompt') return undefined;
  const innererror = { code: 'ResponsibleAIPolicyViolation', content_filter_result: { ...FILTERED_VERDICT, jailbreak: { filtered: false, detected: false } } };
  return new MockError('invalid_request', PROMPT_FILTERED, {
    status: 400,
    body: { error: { message: PROMPT_FILTERED, type: null, param: 'prompt', code: 'content_filter', status: 400, innererror } },
  });
}
