// The responses style (`POST /v1/responses`): every response it answers is kept in the session,
// for `previous_response_id`, item references and `GET /v1/responses/{id}`.
import type { StreamEvent } from '../../conversation/plan.js';
import type { ChatRequest, Reply } from '../../conversation/types.js';
import { openaiEnvelope } from '../openai-envelope.js';
import type { ChatStyle, DecodeContext, StyleInput } from '../style.js';
import { decodeResponses } from './decode.js';
import { encodeResponse, outputTurn, responseAnswer, type ResponseObject } from './encode.js';
import { BY_TOKEN, failureEvents, responseEvents, type StreamChunks } from './events.js';
import { responseId } from './ids.js';
import { inputItemsOf } from './input-items.js';
import { readResponse } from './read.js';
import type { ResponsesBody } from './schema.js';

/** The reply's own chunks (its fixture's `chunk_by`), so pacing matches the other styles. */
function replyChunks(reply: Reply): StreamChunks {
  const choice = reply.choices[0]!;
  return { text: () => choice.textChunks, reasoning: () => choice.reasoningChunks };
}

export const responses: ChatStyle = {
  name: 'responses',
  envelope: openaiEnvelope,
  decode: decodeResponses,
  encode: encodeResponse,
  answer: responseAnswer,
  events: (reply, request) => responseEvents(encodeResponse(reply, request), replyChunks(reply)),
  streamError: (error, context) => {
    if (!context) return failureEvents(error);
    return failureEvents(error, { response: encodeResponse(context.reply, context.request), cutAt: context.cutAt });
  },
  read: readResponse,
  store: (reply, request) => {
    const body = request.body as ResponsesBody;
    return {
      id: responseId(reply),
      previous: body.previous_response_id ?? undefined,
      // A stored response links to the one it continued instead of copying its conversation.
      turns: [...request.turns.slice(request.carriedTurns ?? 0), outputTurn(reply)],
      body: encodeResponse(reply, request),
      inputItems: inputItemsOf(body.input, reply),
      // A background stream still streams; only a whole answer waits for its reply.
      background: body.background === true && !request.stream,
    };
  },
};

/** `POST /v1/responses/input_tokens`: the body of a response request, its model optional. */
export const responsesTokenCounting = {
  decode: (input: StyleInput, context: DecodeContext): ChatRequest => {
    const body = input.body;
    const named = body !== null && typeof body === 'object' && 'model' in body && body.model != null;
    if (named) return decodeResponses(input, context);
    // The schema wants a model; counting needs none, so a stand-in is checked and then dropped.
    const request = decodeResponses({ ...input, body: { ...(body as object), model: 'unnamed' } }, context);
    return { ...request, model: '' };
  },
  encode: (inputTokens: number) => ({ object: 'response.input_tokens', input_tokens: inputTokens }),
};

/**
 * A stored response as the stream that produced it (`GET /v1/responses/{id}?stream=true`),
 * cut by token, from the event after `startingAfter`.
 */
export function replayEvents(body: unknown, startingAfter = -1): StreamEvent[] {
  return responseEvents(body as ResponseObject, BY_TOKEN).filter(
    (event) => (event.data as { sequence_number: number }).sequence_number > startingAfter,
  );
}
