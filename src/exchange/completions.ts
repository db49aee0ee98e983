// `POST /v1/completions`, the legacy door: each prompt goes through the chat reply (the same
// fixtures, matched on the prompt as the last user message, and the same generator), and the
// choices of all prompts are encoded as one `text_completion`, whole or streamed.
import { failure } from '../conversation/errors.js';
import { chatSubject, turnText } from '../conversation/subject.js';
import type { ChatFixture, Selection } from '../conversation/fixture.js';
import { countTokens } from '../conversation/tokens.js';
import type { Reply } from '../conversation/types.js';
import { toFault } from '../scenarios/apply.js';
import { stepError } from '../scenarios/outcome.js';
import { decodeCompletions } from '../styles/completions/decode.js';
import { completionEvents, encodeCompletion, type Completed } from '../styles/completions/encode.js';
import { openaiEnvelope, openaiStreamError } from '../styles/openai-envelope.js';
import { reply, select } from './chat.js';
import { json, newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { mediaModel } from './request.js';
import { scenarioStep } from './scenario.js';
import { relay } from './upstream/relay.js';

/**
 * The replies of every prompt as one: their choices in order, their usage summed. A prompt is
 * counted as its bare text (a fixture's `usage` still wins), without the framing of a chat message.
 */
function joined(replies: Reply[], prompts: readonly string[], selections: ReadonlyArray<Selection<ChatFixture> | undefined>): Reply {
  const usage = { ...replies[0]!.usage, inputTokens: 0, outputTokens: 0 };
  replies.forEach((one, index) => {
    usage.inputTokens += selections[index]?.fixture.usage?.inputTokens ?? countTokens(prompts[index]!);
    usage.outputTokens += one.usage.outputTokens;
  });
  return { ...replies[0]!, choices: replies.flatMap((one) => one.choices), usage };
}

export function completions(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('completions'), async (notes, headers) => {
    const request = decodeCompletions(exchange.body, exchange.headers);
    const first = request.prompts[0]!;
    notes.model = first.model;
    const known = mock.store.current.modelById.get(first.model);
    if (known?.kind === 'chat') {
      throw failure('chat_model_not_supported', 'This is a chat model and thus not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?', { param: 'model' });
    }
    const model = !known && mock.options.upstream ? undefined : mediaModel(mock, first.model, 'completion');
    const tokens = () => request.prompts.reduce((sum, prompt) => sum + countTokens(turnText(prompt.turns[0]!)), 0);
    const decision = scenarioStep(mock, exchange, openaiEnvelope, chatSubject(first), notes, headers, tokens);
    if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
    if (!model) return relay(mock, exchange, notes);
    const selections = request.prompts.map((prompt) => select(mock, exchange, chatSubject(prompt), notes));
    if (mock.options.upstream && selections.some((selection) => !selection)) return relay(mock, exchange, notes);
    notes.fixture = selections.find((selection) => selection)?.fixture.name ?? null;
    const refusal = selections.find((selection) => selection?.fixture.error)?.fixture.error;
    if (refusal) return { error: stepError(refusal.kind, refusal) };
    const replies = request.prompts.map((prompt, index) => reply(mock, exchange, prompt, model, selections[index]));
    const texts = request.prompts.map((prompt) => turnText(prompt.turns[0]!));
    const answer = joined(replies, texts, selections);
    const prompts = request.prompts.flatMap((prompt, index) => Array.from({ length: prompt.choices }, () => texts[index]!));
    const completed: Completed = { reply: answer, prompts, echo: request.echo, includeUsage: request.includeUsage };
    const fault = toFault(decision.fault, openaiStreamError);
    if (!first.stream) return { ...json(encodeCompletion(completed)), fault };
    return { plan: { kind: 'stream', status: 200, headers: {}, framing: 'sse', events: completionEvents(completed), pacing: answer.pacing }, fault };
  });
}
