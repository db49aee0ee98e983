// Reply -> chat-completions wire: the whole `chat.completion` object and its chunk stream
// (WIRE.md section 1). Both are built from the same pieces, so joined chunks equal the whole.
import type { StreamPart } from '../../conversation/plan.js';
import { hashHex } from '../../conversation/random.js';
import { argumentsText } from '../../conversation/call-arguments.js';
import { chunkText } from '../../conversation/token-chunks.js';
import type { ChatRequest, Reply, ReplyChoice, ToolCall, Usage } from '../../conversation/types.js';
import { encodeWith, textReplyValues, type AnswerShape, type Holes } from '../answer-template.js';
import { pushSpan } from '../piece-events.js';
import { chunkData, chunkMaker, moldHoles, openingChunk, pushDeltaSpan, type ChunkHead } from './chunks.js';
import { servedTier } from '../service-tier.js';
import { tokenLogprobs } from '../../conversation/logprobs.js';
import { audioInputTokens } from '../../conversation/input-tokens.js';
import { spokenTokens } from '../../conversation/audio-tokens.js';

export function completionId(reply: Reply): string {
  return `chatcmpl-${reply.id}`;
}

export function toolCallId(call: ToolCall): string {
  return `call_${call.id}`;
}

// A client sends the same model request after request: its digest is kept, one model at a time
// (bounded whatever the client sends), instead of hashing it again for every answer.
let lastFingerprint: { model: string; fingerprint: string } | undefined;

function fingerprint(model: string): string {
  if (lastFingerprint?.model !== model) lastFingerprint = { model, fingerprint: `fp_${hashHex(model, 10)}` };
  return lastFingerprint.fingerprint;
}

/** Tokens of audio heard in the prompt and said in the answer, which the vendor counts apart from text. */
interface AudioTokens {
  input: number;
  output: number;
}

/** The audio a request sent and its reply said: audio parts at the rate their input is counted, speech by its length. */
function audioTokensOf(reply: Reply, request: ChatRequest): AudioTokens {
  return { input: audioInputTokens(request), output: spokenTokens(reply) };
}

function completionTokens(usage: Usage, audio: AudioTokens): number {
  return usage.outputTokens + usage.reasoningTokens + audio.output;
}

/** The usage figures that follow the prompt: a whole answer's template has holes for them, a fixture's reply saying the rest. */
interface PromptCounts {
  prompt_tokens: number;
  total_tokens: number;
  text_tokens: number;
}

function promptCounts(usage: Usage, audio: AudioTokens): PromptCounts {
  return { prompt_tokens: usage.inputTokens, total_tokens: usage.inputTokens + completionTokens(usage, audio), text_tokens: usage.inputTokens - audio.input };
}

function usageOf(usage: Usage, audio: AudioTokens, prompt = promptCounts(usage, audio)): Record<string, unknown> {
  return {
    prompt_tokens: prompt.prompt_tokens,
    completion_tokens: completionTokens(usage, audio),
    total_tokens: prompt.total_tokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, text_tokens: prompt.text_tokens, audio_tokens: audio.input, image_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      text_tokens: usage.outputTokens,
      audio_tokens: audio.output,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function imagesOf(choice: ReplyChoice) {
  return choice.images.map((image) => ({
    type: 'image_url',
    image_url: { url: `data:${image.mimeType};base64,${image.data}` },
  }));
}

/** `ChatCompletionMessageFunctionToolCall`, or `ChatCompletionMessageCustomToolCall` for a freeform tool's call. */
function wholeCall(call: ToolCall): Record<string, unknown> {
  const id = toolCallId(call);
  if (call.input !== undefined) return { id, type: 'custom', custom: { name: call.name, input: call.input } };
  return { id, type: 'function', function: { name: call.name, arguments: argumentsText(call) } };
}

// The vendor keeps a spoken answer an hour, for a later turn to refer to by id.
const AUDIO_KEPT_SECONDS = 3600;

/** `ChatCompletionAudio` without its data and transcript: what ties a spoken answer to its reply. */
function audioOf(reply: Reply, index: number) {
  return { id: `audio_${reply.id}${index}`, expires_at: Math.floor(reply.createdMs / 1000) + AUDIO_KEPT_SECONDS };
}

/**
 * Spoken answers carry their text as the audio's transcript, and a refusal as `refusal`: neither
 * has content beside it.
 */
function contentOf(choice: ReplyChoice, streamed: boolean): string | null {
  if (choice.audio || choice.finishReason === 'refusal' || (choice.toolCalls.length > 0 && choice.text === '')) return null;
  return streamed ? '' : choice.text;
}

/** `ChatCompletion.Choice.Logprobs` of a piece of a choice's text, when the request asked for them. */
function logprobsOf(request: ChatRequest, index: number, text: string, offset = 0) {
  if (!request.logprobs) return null;
  const content = tokenLogprobs(text, `${request.model}:${index}`, request.logprobs.top, offset).map(({ top, ...entry }) => ({ ...entry, top_logprobs: top }));
  return { content, refusal: null };
}

function messageOf(reply: Reply, choice: ReplyChoice, index: number): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: contentOf(choice, false),
    refusal: choice.finishReason === 'refusal' ? choice.text : null,
    annotations: [],
  };
  if (choice.audio) message.audio = { ...audioOf(reply, index), data: choice.audio.data, transcript: choice.audio.transcript };
  if (choice.reasoning !== undefined) message.reasoning_content = choice.reasoning;
  if (choice.images.length > 0) message.images = imagesOf(choice);
  if (choice.toolCalls.length > 0) message.tool_calls = choice.toolCalls.map(wholeCall);
  return message;
}

/** A refusal ends as a normal stop; the refusal itself is the message's. */
function finishOf(choice: ReplyChoice): string {
  return choice.finishReason === 'refusal' ? 'stop' : choice.finishReason;
}

/** What one answer of a reply says that the next answer of the same fixture's reply does not. */
interface CompletionHoles extends Holes, PromptCounts {
  id: string;
  created: number;
}

/** The `chat.completion` object, made with its holes (answer-template.ts). */
export const chatCompletionAnswer: AnswerShape<CompletionHoles> = {
  holes: (reply, request) => ({
    id: completionId(reply),
    created: Math.floor(reply.createdMs / 1000),
    ...promptCounts(reply.usage, audioTokensOf(reply, request)),
  }),
  whole: (reply, request, holes) => ({
    id: holes.id,
    object: 'chat.completion',
    created: holes.created,
    model: request.model,
    choices: reply.choices.map((choice, index) => ({
      index,
      message: messageOf(reply, choice, index),
      logprobs: logprobsOf(request, index, choice.audio || choice.finishReason === 'refusal' ? '' : choice.text),
      finish_reason: finishOf(choice),
    })),
    usage: usageOf(reply.usage, audioTokensOf(reply, request), holes),
    service_tier: servedTier(request.body),
    system_fingerprint: fingerprint(request.model),
  }),
  // The fingerprint is the model's; the usage's figures that are not holes are the reply's and the prompt's audio.
  same: (reply, request) => {
    if (request.logprobs) return undefined;
    const { outputTokens, reasoningTokens, cachedTokens } = reply.usage;
    return textReplyValues(reply, request.model, servedTier(request.body), outputTokens, reasoningTokens, cachedTokens, audioInputTokens(request));
  },
};

export const encodeChatCompletion = encodeWith(chatCompletionAnswer);

function includeUsage(request: ChatRequest): boolean {
  const options = request.body.stream_options as { include_usage?: boolean | null } | null | undefined;
  return options?.include_usage === true;
}

export function chatCompletionParts(reply: Reply, request: ChatRequest): StreamPart[] {
  const withUsage = includeUsage(request);
  const head: ChunkHead = {
    id: completionId(reply),
    created: Math.floor(reply.createdMs / 1000),
    model: request.model,
    service_tier: servedTier(request.body),
    system_fingerprint: fingerprint(request.model),
  };
  const chunk = chunkMaker(head, withUsage);
  const holes = moldHoles(head);
  const events: StreamPart[] = [];
  reply.choices.forEach((choice, index) => {
    const refused = choice.finishReason === 'refusal';
    const content = contentOf(choice, true);
    events.push(content === '' ? openingChunk(chunk, head, withUsage, holes, index) : chunk(index, { role: 'assistant', content, refusal: refused ? '' : null }));
    pushDeltaSpan(events, choice.reasoningChunks, chunk, head, withUsage, holes, index, 'reasoning_content');
    if (choice.audio) {
      const { id, expires_at } = audioOf(reply, index);
      pushSpan(events, choice.textChunks, (piece) => chunk(index, { audio: { id, transcript: piece } }, null, true));
      events.push(chunk(index, { audio: { id, data: choice.audio.data } }, null, true), chunk(index, { audio: { id, expires_at } }));
    } else if (request.logprobs) {
      let offset = 0;
      for (const piece of choice.textChunks) {
        const event = chunk(index, { content: piece }, null, true);
        (event.data as { choices: Array<{ logprobs: unknown }> }).choices[0]!.logprobs = logprobsOf(request, index, piece, offset);
        offset += piece.length;
        events.push(event);
      }
    } else pushDeltaSpan(events, choice.textChunks, chunk, head, withUsage, holes, index, refused ? 'refusal' : 'content');
    if (choice.images.length > 0) events.push(chunk(index, { images: imagesOf(choice) }, null, true));
    choice.toolCalls.forEach((call, callIndex) => {
      // A custom tool's call comes whole in one delta: its input is no JSON a client would parse as it grows.
      if (call.input !== undefined) {
        events.push(chunk(index, { tool_calls: [{ index: callIndex, ...wholeCall(call) }] }, null, true));
        return;
      }
      events.push(
        chunk(index, {
          tool_calls: [{ index: callIndex, id: toolCallId(call), type: 'function', function: { name: call.name, arguments: '' } }],
        }),
      );
      for (const piece of chunkText(argumentsText(call), 'token')) {
        events.push(chunk(index, { tool_calls: [{ index: callIndex, function: { arguments: piece } }] }, null, true));
      }
    });
    events.push(chunk(index, {}, finishOf(choice)));
  });
  if (withUsage) {
    const data = chunkData(head, [], true);
    data.usage = usageOf(reply.usage, audioTokensOf(reply, request));
    events.push({ data });
  }
  events.push({ data: '[DONE]' });
  return events;
}
