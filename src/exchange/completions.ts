// `POST /v1/completions`, the legacy door: each prompt goes through the chat reply (the same
// fixtures, matched on the prompt as the last user message, and the same generator), and the
// choices of all prompts are encoded as one `text_completion`, whole or streamed.
import { failure } from '../conversation/errors.js';
import { appliesIn } from '../conversation/faults.js';
import type { ChatFixture, Selection } from '../conversation/fixture.js';
import { chatSubject, turnText } from '../conversation/subject.js';
import { countAllTokens, countTokens } from '../conversation/tokens.js';
import type { Reply } from '../conversation/types.js';
import { entryUsage } from '../conversation/usage.js';
import type { ModelEntry } from '../config/types.js';
import { decodeCompletions, type CompletionsRequest } from '../styles/completions/decode.js';
import { completionEvents, encodeCompletion, type Completed } from '../styles/completions/encode.js';
import { openaiStreamError } from '../styles/openai-envelope.js';
import { openrouter } from '../styles/openrouter/index.js';
import type { ModelIds } from '../styles/style.js';
import { reply, select } from './chat.js';
import { json } from './exchange.js';
import { modelOperation, type Asked, type Found } from './operation.js';
import { mediaModel, requireModel, unlisted } from './request.js';

type Selections = Array<Found<Selection<ChatFixture>>>;

interface AskedCompletion extends Asked {
  request: CompletionsRequest;
  entry: ModelEntry | undefined;
  /** Each prompt's bare text. */
  texts: string[];
}

/**
 * The replies of every prompt as one: their choices in order, their usage summed. A prompt is
 * counted as its bare text (a fixture's `usage` still wins), without the framing of a chat message.
 */
function joined(replies: Reply[], texts: readonly string[], selections: Selections): Reply {
  const usage = { ...replies[0]!.usage, inputTokens: 0, outputTokens: 0 };
  replies.forEach((one, index) => {
    usage.inputTokens += selections[index]?.found?.fixture.usage?.inputTokens ?? countTokens(texts[index]!);
    usage.outputTokens += one.usage.outputTokens;
  });
  return { ...replies[0]!, choices: replies.flatMap((one) => one.choices), usage };
}

/** What a provider's completions door changes of OpenAI's. */
interface CompletionsDoor {
  /** The provider's own model-id forms (OpenRouter's vendor prefixes). */
  models?: ModelIds;
  /** Whether a chat model answers a prompt too, as at OpenRouter, where every model completes. */
  chatModels?: true;
}

function completionsOperation(door: CompletionsDoor) {
  return modelOperation<{ model: string; request: CompletionsRequest }, AskedCompletion, Selections>({
    read: (mock, exchange) => {
      const decoded = decodeCompletions(exchange.body, exchange.headers);
      const given = decoded.prompts[0]!.model;
      const model = door.models?.catalogId(given, (id) => mock.store.current.modelById.has(id)) ?? given;
      const request = model === given ? decoded : { ...decoded, prompts: decoded.prompts.map((prompt) => ({ ...prompt, model })) };
      return { request, model };
    },
    ask: (mock, _exchange, { request, model }) => {
      if (!door.chatModels && mock.store.current.modelById.get(model)?.kind === 'chat') {
        throw failure('chat_model_not_supported', 'This is a chat model and thus not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?', { param: 'model' });
      }
      const texts = request.prompts.map((prompt) => turnText(prompt.turns[0]!));
      const inputTokens = () => countAllTokens(texts);
      const asked = { request, texts, model, inputTokens, subject: chatSubject(request.prompts[0]!) };
      const kinds = door.chatModels ? (['completion', 'chat'] as const) : (['completion'] as const);
      const unknown = unlisted(mock, model, kinds);
      if (unknown) return { ...asked, entry: undefined, unknown };
      return { ...asked, entry: door.chatModels ? requireModel(mock, model, kinds) : mediaModel(mock, model, 'completion') };
    },
    find: (mock, exchange, { request }) => {
      const all = request.prompts.map((prompt) => select(mock, exchange, chatSubject(prompt)));
      const missing = all.find((one) => !one.found);
      return { found: all, answered: !missing, error: all.find((one) => one.error)?.error, notes: (missing ?? all[0]!).notes };
    },
    strict: true,
    build: (mock, exchange, { request, entry, texts }, found, misbehave) => {
      const all = found!;
      // Only the faults of text apply to a text completion (SPEC 21).
      const fault = misbehave && appliesIn(misbehave.name, 'completions') ? misbehave : undefined;
      const replies = request.prompts.map((prompt, index) => reply(mock, exchange, prompt, entry!, all[index]!.found, fault));
      const answer = joined(replies, texts, all);
      const prompts = request.prompts.flatMap((prompt, index) => Array.from({ length: prompt.choices }, () => texts[index]!));
      const completed: Completed = { reply: answer, prompts, echo: request.echo, includeUsage: request.includeUsage };
      const notes = {
        fixture: all.find((one) => one.found)?.found?.fixture.name ?? null,
        metered: { tokens: entryUsage(answer.usage) },
        ...(fault && replies.some((one) => one.fault?.applied) && { fault: fault.name }),
      };
      if (!request.prompts[0]!.stream) return { ...json(encodeCompletion(completed)), notes };
      const plan = { kind: 'stream' as const, status: 200, headers: {}, events: completionEvents(completed), pacing: answer.pacing, streamError: openaiStreamError };
      return { plan, notes };
    },
  });
}

export const completions = completionsOperation({});

/** OpenRouter's `/api/v1/completions`: its vendor-prefixed ids, and any model completes. */
export const openrouterCompletions = completionsOperation({ models: openrouter.models!, chatModels: true });
