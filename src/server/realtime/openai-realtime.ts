// OpenAI Realtime (GA) on an upgraded socket: the conversation's items and the session's settings
// live here, each response is a turn of the live session (answered from chat fixtures by the chat
// operation, journaled as style `realtime`), written as the vendor's events and paced by
// --latency; a `response.cancel`, or speech while a response plays, cuts it short.
import { randomUUID } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type { WebSocket } from 'ws';
import { audioTokens } from '../../conversation/audio-tokens.js';
import type { MockError } from '../../conversation/errors.js';
import { parseClientJson } from '../../conversation/json-text.js';
import { chunkText } from '../../conversation/token-chunks.js';
import type { Door, Exchange, Outcome } from '../../exchange/exchange.js';
import { openLiveSession } from '../../exchange/live-session.js';
import type { Mock } from '../../exchange/mock.js';
import { modelRoute } from '../../exchange/model-routes.js';
import { pacingFor } from '../../exchange/pacing.js';
import { chatRequestOf, truncatedItem, type RealtimeItem, type SessionConfig } from '../../styles/realtime/conversation.js';
import { cancelledDone, errorEvent, responseEvents, type RealtimeEvent, type TurnReply } from '../../styles/realtime/events.js';
import { inputAudio } from './input-audio.js';
import { play, spokenChunks } from './play.js';

const CHAT = modelRoute('POST', '/v1/chat/completions');
const DOOR: Door = { ...CHAT.door, style: 'realtime', modelKinds: ['realtime'] };

const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 22)}`;

interface Playing {
  responseId: string;
  stop?: 'client_cancelled' | 'turn_detected';
}

export function serveOpenAIRealtime(mock: Mock, socket: WebSocket, opening: Exchange, model: string): void {
  const session: SessionConfig & Record<string, unknown> = {
    type: 'realtime',
    object: 'realtime.session',
    id: newId('sess'),
    model,
    output_modalities: ['audio'],
    instructions: '',
    tools: [],
    tool_choice: 'auto',
    audio: {
      input: { format: { type: 'audio/pcm', rate: 24000 }, transcription: null, turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500, create_response: true, interrupt_response: true } },
      output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy', speed: 1 },
    },
  };
  const items: RealtimeItem[] = [];
  /** How long each spoken assistant item plays, for `conversation.item.truncate`. */
  const playsMs = new Map<string, number>();
  let playing: Playing | undefined;
  let eventsIn = 0;
  const send = (event: RealtimeEvent) => socket.readyState === socket.OPEN && socket.send(JSON.stringify({ event_id: newId('event'), ...event }));
  const modality = () => ((session.output_modalities ?? ['audio']).includes('audio') ? 'audio' : 'text');

  const errorOf = (outcome: Outcome, error: MockError, requestId: string) => {
    const { status, body } = outcome.envelope(error, requestId);
    const { type, code, message } = (body as { error?: { type?: string; code?: string; message?: string } }).error ?? {};
    return { status, body, event: errorEvent(type ?? 'server_error', code ?? null, message ?? 'The mock failed.') };
  };

  async function write(outcome: Outcome, requestId: string) {
    const responseId = newId('resp');
    if ('error' in outcome) {
      if (outcome.waitMs) await wait(outcome.waitMs);
      const { status, body, event } = errorOf(outcome, outcome.error, requestId);
      send(event);
      return { status, response: JSON.stringify({ status, headers: {}, body }) };
    }
    const completion = outcome.plan.kind === 'json' ? (outcome.plan.body as { choices: Array<{ message: { content: string | null; tool_calls?: TurnReply['toolCalls'] } }>; usage: TurnReply['usage'] }) : undefined;
    const message = completion?.choices[0]?.message;
    const reply: TurnReply = { text: message?.content ?? '', toolCalls: message?.tool_calls ?? [], usage: completion?.usage ?? { prompt_tokens: 0, completion_tokens: 0 } };
    const kind = modality();
    const spoken = kind === 'audio' && reply.text ? await spokenChunks(mock, reply.text) : undefined;
    const ids = { responseId, itemIds: Array.from({ length: 1 + reply.toolCalls.length }, () => newId('item')) };
    const events = responseEvents(ids, reply, kind, chunkText(reply.text, 'token'), spoken?.chunks ?? [], spoken ? audioTokens(spoken.seconds) : 0);
    const current: Playing = { responseId };
    playing = current;
    const played = await play(
      socket,
      events.map((event) => ({ data: { event_id: newId('event'), ...event }, paced: event.delta !== undefined })),
      pacingFor(opening.headers['x-mock-latency'], undefined, mock.options.latency),
      { fault: outcome.fault, stopped: () => current.stop !== undefined, streamError: (error) => [{ data: errorOf(outcome, error, requestId).event }] },
    );
    let sent = played.sent;
    if (played.end === 'stopped') {
      send(cancelledDone(responseId, kind, current.stop!));
      sent++;
    } else if (played.end === 'written') {
      items.push(...(events.filter((event) => event.type === 'response.output_item.done').map((event) => event.item) as RealtimeItem[]));
      if (spoken) playsMs.set(ids.itemIds[0]!, Math.round(spoken.seconds * 1000));
    }
    if (playing === current) playing = undefined;
    const status = played.end === 'stopped' ? 'cancelled' : played.end === 'written' ? 'completed' : played.end;
    const body = { response_id: responseId, status, text: reply.text, events_in: eventsIn, events_out: sent };
    return { status: 200, response: JSON.stringify({ status: 200, headers: {}, body }) };
  }

  const live = openLiveSession(mock, opening, { door: DOOR, route: '/v1/realtime', write });
  const respond = () => live.turn(CHAT.operation, chatRequestOf(model, session, items)).then(() => undefined);
  const cancel = (reason: 'client_cancelled' | 'turn_detected') => {
    if (playing) playing.stop = reason;
    return playing !== undefined;
  };
  const added = (item: RealtimeItem) => {
    const previous = items.at(-1)?.id ?? null;
    items.push(item);
    send({ type: 'conversation.item.added', previous_item_id: previous, item: { object: 'realtime.item', status: 'completed', ...item } });
    send({ type: 'conversation.item.done', previous_item_id: previous, item: { object: 'realtime.item', status: 'completed', ...item } });
  };
  const audioIn = inputAudio(mock, session, { send, added, respond, cancel, newId });

  send({ type: 'session.created', session });
  socket.on('message', (data) => {
    eventsIn++;
    let event: { type?: string; event_id?: string; [field: string]: unknown };
    try {
      event = parseClientJson(data.toString()) as typeof event;
    } catch {
      send(errorEvent('invalid_request_error', 'invalid_json', 'The event is not valid JSON.'));
      return;
    }
    const eventId = event.event_id ?? null;
    switch (event.type) {
      case 'session.update': {
        const update = (event.session ?? {}) as Record<string, unknown>;
        Object.assign(session, update, { audio: { ...(session.audio as object), ...(update.audio as object) } });
        send({ type: 'session.updated', session });
        return;
      }
      case 'conversation.item.create': {
        const item = event.item as RealtimeItem;
        added({ ...item, id: item.id ?? newId('item') });
        return;
      }
      case 'conversation.item.delete': {
        const at = items.findIndex((item) => item.id === event.item_id);
        if (at < 0) return void send(errorEvent('invalid_request_error', 'item_not_found', `Item with item_id not found: ${String(event.item_id)}`, 'item_id', eventId));
        items.splice(at, 1);
        return void send({ type: 'conversation.item.deleted', item_id: event.item_id });
      }
      case 'conversation.item.truncate': {
        const at = items.findIndex((candidate) => candidate.id === event.item_id);
        const item = items[at];
        const playMs = playsMs.get(String(event.item_id));
        const endMs = Number(event.audio_end_ms);
        if (!item || playMs === undefined) return void send(errorEvent('invalid_request_error', 'item_not_found', `Item with item_id not found or has no audio: ${String(event.item_id)}`, 'item_id', eventId));
        if (!Number.isInteger(endMs) || endMs < 0 || endMs > playMs) return void send(errorEvent('invalid_request_error', 'invalid_value', `Invalid 'audio_end_ms': the item's audio is ${playMs}ms long.`, 'audio_end_ms', eventId));
        items[at] = truncatedItem(item, endMs, playMs);
        playsMs.set(item.id, endMs);
        return void send({ type: 'conversation.item.truncated', item_id: item.id, content_index: event.content_index ?? 0, audio_end_ms: endMs });
      }
      case 'input_audio_buffer.append':
        return audioIn.append(String(event.audio ?? ''));
      case 'input_audio_buffer.commit':
        return void audioIn.commit();
      case 'input_audio_buffer.clear':
        return audioIn.clear();
      case 'response.create':
        return void respond();
      case 'response.cancel':
        if (!cancel('client_cancelled')) send(errorEvent('invalid_request_error', 'response_cancel_not_active', 'Cancellation failed: no active response found', null, eventId));
        return;
      default:
        send(errorEvent('invalid_request_error', 'invalid_value', `Invalid value: '${String(event.type)}'. Supported values are: 'session.update', 'input_audio_buffer.append', 'input_audio_buffer.commit', 'input_audio_buffer.clear', 'conversation.item.create', 'conversation.item.truncate', 'conversation.item.delete', 'response.create', and 'response.cancel'.`, 'type', eventId));
    }
  });
  socket.once('close', () => live.close());
}
