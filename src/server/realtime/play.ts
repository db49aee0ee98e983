// What every live door does with a reply: speak it as 24 kHz PCM16 cut into 100 ms chunks, and
// send a turn's events, one message each, paced by --latency against deadlines from the first (as
// the writer paces a stream), with the turn's scenario fault performed on them the way the writer
// performs it on a stream: a delay before the first event, a reset, a cut that drops the socket
// mid-response, the style's in-stream error, a malformed message.
import { setTimeout as wait } from 'node:timers/promises';
import type { WebSocket } from 'ws';
import type { MockError } from '../../conversation/errors.js';
import type { Fault, StreamEvent } from '../../conversation/plan.js';
import type { Pacing } from '../../conversation/types.js';
import type { Mock } from '../../exchange/mock.js';
import { speak } from '../../media/audio/speak.js';
import type { SentStream } from '../sent.js';
import { strikeAt } from '../fault-strike.js';

/** 100 ms of 24 kHz PCM16. */
const AUDIO_CHUNK_BYTES = 4_800;

export interface Spoken {
  /** Base64 chunks of the speech, 100 ms each. */
  chunks: string[];
  seconds: number;
}

/** Each speech's chunks, made once: sessions answered alike (a load test's) share the speech cache's samples and these. */
const chunked = new WeakMap<Uint8Array, Spoken>();

export async function spokenChunks(mock: Mock, text: string): Promise<Spoken> {
  const spoken = await speak({ text, voice: 'alloy', format: 'pcm', speed: 1, seed: mock.options.seed });
  const known = chunked.get(spoken.data);
  if (known) return known;
  const chunks: string[] = [];
  for (let at = 0; at < spoken.data.length; at += AUDIO_CHUNK_BYTES) chunks.push(Buffer.from(spoken.data.subarray(at, at + AUDIO_CHUNK_BYTES)).toString('base64'));
  const made = { chunks, seconds: spoken.seconds };
  chunked.set(spoken.data, made);
  return made;
}

/** How the events ended: all sent, stopped by the door (a cancel, an interruption), broken or cut by the fault, or the client went away. */
export type PlayEnd = 'written' | 'stopped' | 'faulted' | 'cut' | 'gone';

export interface Played {
  /** The messages sent, the fault's included. */
  sent: number;
  end: PlayEnd;
}

/** How a vendor ends a session instead of sending an error event: a close frame. */
export interface Closing {
  code: number;
  reason: string;
}

export interface PlayOptions {
  fault?: Fault;
  /** Checked before each event: true ends the events there (a response cancelled). */
  stopped?: () => boolean;
  /** The style's in-stream error for a `stream_error` fault: its error events, or the close frame that ends the session instead. */
  streamError?: (error: MockError, cutAt: number) => StreamEvent[] | Closing;
  /** Keeps what was sent for the journal, as the writer keeps a stream's events. */
  record?: SentStream;
  /** The vendor sends its JSON in binary frames. */
  binary?: boolean;
}

const open = (socket: WebSocket) => socket.readyState === socket.OPEN;

/** Sends one event as a message; settles once it is on the wire. */
function sendEvent(socket: WebSocket, event: StreamEvent, options: PlayOptions): Promise<void> {
  const json = event.json !== undefined || typeof event.data !== 'string';
  const text = event.json ?? (json ? JSON.stringify(event.data) : (event.data as string));
  options.record?.framed(event, text, json, text.length);
  options.record?.commit();
  return new Promise((done) => socket.send(options.binary ? Buffer.from(text) : text, () => done()));
}

/** Waits a scenario's delay before a turn's answer: false when the client left meanwhile. */
export async function delayed(socket: WebSocket, fault: Fault | undefined): Promise<boolean> {
  if (fault?.kind === 'delay' && fault.ms > 0) await wait(fault.ms);
  return open(socket);
}

export async function play(socket: WebSocket, events: readonly StreamEvent[], pacing: Pacing, options: PlayOptions = {}): Promise<Played> {
  const { fault, stopped } = options;
  if (!(await delayed(socket, fault))) return { sent: 0, end: 'gone' };
  if (fault?.kind === 'reset') {
    socket.terminate();
    return { sent: 0, end: 'cut' };
  }
  const strike = strikeAt(events, fault);
  const startMs = performance.now();
  let sent = 0;
  let chunks = 0;
  // Settles once the last message is on the wire, so a cut drops the socket after it.
  let written = Promise.resolve();
  for (const event of events) {
    if (sent >= strike) break;
    if (event.paced && (pacing.firstChunkMs > 0 || pacing.chunkMs > 0)) {
      const due = startMs + pacing.firstChunkMs + chunks * pacing.chunkMs - performance.now();
      if (due > 0) await wait(due);
      chunks++;
    }
    if (!open(socket)) return { sent, end: 'gone' };
    if (stopped?.()) return { sent, end: 'stopped' };
    written = sendEvent(socket, event, options);
    sent++;
  }
  if (sent < strike || !fault) return { sent, end: 'written' };
  if (fault.kind === 'cut_stream') {
    // What was sent goes out before the connection drops, as a cut HTTP stream's last bytes do.
    await written;
    socket.terminate();
    return { sent, end: 'cut' };
  }
  if (fault.kind === 'malformed') {
    void sendEvent(socket, { data: '{"malformed":' }, options);
    return { sent: sent + 1, end: 'faulted' };
  }
  if (fault.kind === 'stream_error' && options.streamError) {
    const error = options.streamError(fault.error, sent);
    if (!Array.isArray(error)) {
      socket.close(error.code, error.reason);
      return { sent, end: 'cut' };
    }
    for (const event of error) void sendEvent(socket, event, options);
    return { sent: sent + error.length, end: 'faulted' };
  }
  return { sent, end: 'faulted' };
}
