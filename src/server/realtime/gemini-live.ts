// Gemini Live (`BidiGenerateContent`) on an upgraded socket, as `@google/genai`'s `live.connect`
// opens it: the `setup` names the model and the session's settings, the conversation's contents
// live here, and each answer is a turn of the live session (answered from chat fixtures by the
// generateContent operation, journaled as style `live`), written as the vendor's server messages
// and paced by --latency. Speech (by the audio's silence, or activityStart) or a new turn while a
// reply plays interrupts it. The vendor ends a session in error by closing the socket: a bad
// model with 1008, a scenario's error with 1011 and its status; a scenario's cut drops it.
import { randomUUID } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type { WebSocket } from 'ws';
import { chunkText } from '../../conversation/token-chunks.js';
import { parseClientJson } from '../../conversation/json-text.js';
import type { Door, Exchange, Outcome } from '../../exchange/exchange.js';
import { openLiveSession, type LiveSession } from '../../exchange/live-session.js';
import type { Mock } from '../../exchange/mock.js';
import { modelRoute } from '../../exchange/model-routes.js';
import { pacingFor } from '../../exchange/pacing.js';
import { audioTokensOf, closeReason, generateRequestOf, interruptedMessages, liveModelId, liveReplyOf, modelContentOf, speaks, turnMessages, type LiveContent, type LiveMessage, type LiveSetup } from '../../styles/realtime/gemini-live.js';
import { DEFAULT_SILENCE_MS, voiceActivity, type VoiceActivity } from '../../styles/realtime/voice-activity.js';
import { inputTranscript } from './input-audio.js';
import { play, spokenChunks, type Closing } from './play.js';

const GENERATE = modelRoute('POST', '/v1beta/models/:target');
const DOOR: Door = { ...GENERATE.door, style: 'live', modelKinds: ['realtime'] };
/** The vendor's input: PCM16 at 16 kHz unless the chunk's mime type says otherwise. */
const INPUT_RATE = 16_000;

interface Blob {
  data?: string;
  mimeType?: string;
}

interface ClientMessage {
  setup?: LiveSetup;
  clientContent?: { turns?: LiveContent[]; turnComplete?: boolean };
  realtimeInput?: { audio?: Blob; mediaChunks?: Blob[]; text?: string; audioStreamEnd?: boolean; activityStart?: object; activityEnd?: object };
  toolResponse?: { functionResponses?: Array<{ id?: string; name?: string; response?: unknown }> };
}

const rateOf = (mimeType: string | undefined) => Number(/rate=(\d+)/.exec(mimeType ?? '')?.[1] ?? INPUT_RATE);
const newCallId = () => `function-call-${randomUUID()}`;

export function serveGeminiLive(mock: Mock, socket: WebSocket, opening: Exchange): void {
  let setup: LiveSetup | undefined;
  let live: LiveSession | undefined;
  const contents: LiveContent[] = [];
  let playing: { interrupted: boolean } | undefined;
  let eventsIn = 0;
  let heard: Buffer[] = [];
  let speaking = false;
  let vad: VoiceActivity | undefined;
  let rate = INPUT_RATE;

  // The vendor sends its messages as binary frames of JSON.
  const send = (message: LiveMessage) => socket.readyState === socket.OPEN && socket.send(Buffer.from(JSON.stringify(message.body)));
  const close = (code: number, reason: string) => socket.readyState === socket.OPEN && socket.close(code, closeReason(reason));

  const journaled = (status: number, body: unknown) => ({ status, response: JSON.stringify({ status, headers: {}, body }) });

  /** The vendor ends a session in error with a close frame naming the error's status. */
  const closingOf = (body: unknown): Closing => {
    const error = (body as { error?: { status?: string; message?: string } }).error ?? {};
    return { code: 1011, reason: closeReason(`${error.status ?? 'INTERNAL'}: ${error.message ?? 'Internal error encountered.'}`) };
  };

  async function write(outcome: Outcome) {
    if ('error' in outcome) {
      if (outcome.waitMs) await wait(outcome.waitMs);
      const { status, body } = outcome.envelope(outcome.error, '');
      const { code, reason } = closingOf(body);
      close(code, reason);
      return journaled(status, body);
    }
    const reply = liveReplyOf(outcome.plan.kind === 'json' ? outcome.plan.body : {}, newCallId);
    const spoken = speaks(setup!) && reply.text ? await spokenChunks(mock, reply.text) : undefined;
    const messages = turnMessages(reply, {
      pieces: chunkText(reply.text, 'token'),
      ...(spoken && { audio: spoken.chunks, audioTokens: audioTokensOf(spoken.seconds) }),
      transcribe: setup?.outputAudioTranscription !== undefined,
    });
    const current = { interrupted: false };
    playing = current;
    const played = await play(socket, messages.map((message) => ({ data: message.body, paced: message.paced === true })), pacingFor(opening.headers['x-mock-latency'], undefined, mock.options.latency), {
      fault: outcome.fault,
      binary: true,
      stopped: () => current.interrupted,
      streamError: (error) => closingOf(outcome.envelope(error, '').body),
    });
    if (playing === current) playing = undefined;
    let sent = played.sent;
    if (played.end === 'stopped') {
      for (const message of interruptedMessages()) send(message);
      sent += 2;
    } else if (played.end === 'written') {
      contents.push(modelContentOf(reply));
    }
    const status = played.end === 'stopped' ? 'interrupted' : played.end === 'written' ? 'completed' : played.end;
    return journaled(200, { status, text: reply.text, events_in: eventsIn, events_out: sent });
  }

  const interrupt = () => {
    if (playing) playing.interrupted = true;
  };
  const respond = async () => {
    interrupt();
    // A turn the client hung up before (an utterance still being transcribed) is not taken.
    if (socket.readyState !== socket.OPEN) return;
    return live!.turn(GENERATE.operation, generateRequestOf(setup!, contents)).then(() => undefined);
  };

  /** The user's utterance is over: its transcript becomes their turn, and the model answers it. */
  async function utteranceEnded(): Promise<void> {
    const pcm = Buffer.concat(heard);
    heard = [];
    speaking = false;
    vad?.reset();
    if (pcm.length === 0) return;
    const text = await inputTranscript(mock, liveModelId(setup!.model), pcm, rate);
    if (setup!.inputAudioTranscription) send({ body: { serverContent: { inputTranscription: { text } } } });
    contents.push({ role: 'user', parts: [{ text }] });
    await respond();
  }

  function hear(blob: Blob): void {
    const pcm = Buffer.from(blob.data ?? '', 'base64');
    rate = rateOf(blob.mimeType);
    const automatic = setup!.realtimeInputConfig?.automaticActivityDetection?.disabled !== true;
    if (!automatic) {
      if (speaking) heard.push(pcm);
      return;
    }
    vad ??= voiceActivity(rate);
    heard.push(pcm);
    const change = vad.hear(pcm, setup!.realtimeInputConfig?.automaticActivityDetection?.silenceDurationMs ?? DEFAULT_SILENCE_MS);
    if (change.startedMs !== undefined) {
      speaking = true;
      interrupt();
    }
    if (change.stoppedMs !== undefined) void utteranceEnded();
  }

  function realtimeInput(input: NonNullable<ClientMessage['realtimeInput']>): void {
    if (input.activityStart) {
      interrupt();
      heard = [];
      speaking = true;
    }
    for (const blob of [...(input.audio ? [input.audio] : []), ...(input.mediaChunks ?? [])]) {
      if (String(blob.mimeType ?? 'audio/pcm').startsWith('audio/')) hear(blob);
    }
    if (input.text) {
      contents.push({ role: 'user', parts: [{ text: input.text }] });
      void respond();
    }
    if (input.activityEnd || (input.audioStreamEnd && speaking)) void utteranceEnded();
  }

  function start(message: LiveSetup): void {
    const model = liveModelId(message.model);
    const entry = mock.store.current.modelById.get(model);
    if (!entry || entry.kind !== 'realtime') {
      return void close(1008, `models/${model} is not found for API version v1beta, or is not supported for bidiGenerateContent.`);
    }
    setup = message;
    live = openLiveSession(mock, { ...opening, params: { target: `${model}:generateContent` } }, { door: DOOR, route: opening.path, write });
    send({ body: { setupComplete: {} } });
  }

  socket.on('message', (data) => {
    eventsIn++;
    let message: ClientMessage;
    try {
      message = parseClientJson(data.toString()) as ClientMessage;
    } catch {
      return void close(1007, 'Invalid JSON payload received.');
    }
    if (!setup) {
      if (!message.setup) return void close(1007, 'Request contains an invalid argument: the first message must be a setup.');
      return start(message.setup);
    }
    if (message.clientContent) {
      contents.push(...(message.clientContent.turns ?? []));
      if (message.clientContent.turnComplete) void respond();
    } else if (message.realtimeInput) {
      realtimeInput(message.realtimeInput);
    } else if (message.toolResponse) {
      const responses = message.toolResponse.functionResponses ?? [];
      contents.push({ role: 'user', parts: responses.map((functionResponse) => ({ functionResponse })) });
      void respond();
    } else {
      close(1007, 'Request contains an invalid argument.');
    }
  });
  socket.once('close', () => live?.close());
}
