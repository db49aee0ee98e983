// The Responses API over WebSocket (`/v1/responses` upgraded, as the openai SDK's `ResponsesWS`
// opens it): each `response.create` message is a turn of the live session, answered by the
// responses operation as the streamed request it stands for and sent as the same typed events
// its SSE stream carries, one message each. Responses are kept in the session as over HTTP, so
// `previous_response_id` chains them; a refused turn is an `error` event and the socket stays open.
import { setTimeout as wait } from 'node:timers/promises';
import type { WebSocket } from 'ws';
import { invalid, type Envelope, type MockError } from '../../conversation/errors.js';
import { parseClientJson } from '../../conversation/json-text.js';
import type { StreamEvent } from '../../conversation/plan.js';
import type { Door, Exchange, Outcome } from '../../exchange/exchange.js';
import { openLiveSession } from '../../exchange/live-session.js';
import type { Mock } from '../../exchange/mock.js';
import { modelRoute } from '../../exchange/model-routes.js';
import { responses } from '../../styles/responses/index.js';
import { SentStream } from '../sent.js';
import { play } from './play.js';

const RESPONSES = modelRoute('POST', '/v1/responses');
const DOOR: Door = { ...RESPONSES.door, style: 'responses-ws' };
const NO_PACING = { firstChunkMs: 0, chunkMs: 0 };

/** The vendor's error event: the in-stream error of the SSE stream, with the status an HTTP answer would have had. */
function errorEvents(envelope: Envelope, error: MockError, requestId: string): StreamEvent[] {
  const { status } = envelope(error, requestId);
  return responses.streamError(error).map((event) => ({ ...event, data: { ...(event.data as object), status } }));
}

/** A client event the mock refuses before any turn: not a `response.create`, or what WebSocket mode does not take. */
function refusal(event: Record<string, unknown>): MockError | undefined {
  if (event.type !== 'response.create') {
    return invalid(`Invalid value: '${String(event.type)}'. Supported values are: 'response.create'.`, 'type');
  }
  if (event.background === true) return invalid('Background responses are not supported over WebSocket.', 'background');
  return undefined;
}

export function serveResponsesSocket(mock: Mock, socket: WebSocket, opening: Exchange): void {
  async function write(outcome: Outcome, requestId: string) {
    if ('error' in outcome) {
      if (outcome.waitMs) await wait(outcome.waitMs);
      const { status } = outcome.envelope(outcome.error, requestId);
      const sent = new SentStream(status);
      await play(socket, errorEvents(outcome.envelope, outcome.error, requestId), NO_PACING, { record: sent });
      return { status, response: sent.json };
    }
    const { plan, fault } = outcome;
    if (plan.kind !== 'stream') throw new Error(`A response over WebSocket is a stream; the operation planned ${plan.kind}.`);
    const sent = new SentStream(plan.status);
    await play(socket, plan.events, plan.pacing, { fault, streamError: plan.streamError, record: sent });
    return { status: plan.status, response: sent.json };
  }

  const live = openLiveSession(mock, opening, { door: DOOR, route: '/v1/responses', write });
  // One response at a time, in the order asked, as the vendor answers a socket's messages.
  let answering = Promise.resolve();
  socket.on('message', (data) => {
    let event: Record<string, unknown>;
    try {
      event = parseClientJson(data.toString()) as Record<string, unknown>;
    } catch {
      event = { type: undefined };
    }
    const refused = event === null || typeof event !== 'object' ? invalid('The message is not a JSON object.') : refusal(event);
    answering = answering.then(async () => {
      if (refused) {
        await play(socket, errorEvents(DOOR.envelope(opening), refused, opening.requestId), NO_PACING);
        return;
      }
      const { type: _type, ...body } = event;
      await live.turn(RESPONSES.operation, { ...body, stream: true });
    });
  });
  socket.once('close', () => live.close());
}
