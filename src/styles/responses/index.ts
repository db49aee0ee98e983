// The responses style (`POST /v1/responses`): every response it answers is kept in the session,
// for `previous_response_id`, item references and `GET /v1/responses/{id}`.
import type { StreamEvent } from '../../conversation/plan.js';
import type { Reply } from '../../conversation/types.js';
import { openaiEnvelope } from '../openai-envelope.js';
import type { ChatStyle } from '../style.js';
import { decodeResponses } from './decode.js';
import { encodeResponse, outputTurn, type ResponseObject } from './encode.js';
import { BY_TOKEN, failureEvents, responseEvents, type StreamChunks } from './events.js';
import { responseId } from './ids.js';
import { readResponse } from './read.js';

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
  events: (reply, request) => responseEvents(encodeResponse(reply, request), replyChunks(reply)),
  streamError: (error, context) => {
    if (!context) return failureEvents(error);
    const response = encodeResponse(context.reply, context.request);
    return failureEvents(error, { response, planned: responseEvents(response, replyChunks(context.reply)).length });
  },
  read: readResponse,
  store: (reply, request) => ({
    id: responseId(reply),
    turns: [...request.turns, outputTurn(reply)],
    body: encodeResponse(reply, request),
  }),
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
