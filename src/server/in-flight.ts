// Requests in flight, for the inspector's live journal: `start` once a model request has been read
// (its row shows with the model and the start of the user's message, so a paced stream is
// recognisable while it plays) and `progress` as its stream goes (the row fills), until `request`
// brings the finished entry. Nothing is built while nobody watches; a stream reports at most every
// PROGRESS_MS, so a fast stream of thousands of chunks costs its watchers a handful of events.
import type { Mock } from '../exchange/mock.js';

export const PROGRESS_MS = 200;

/** The row shows no more of the message than this; the entry brings the whole body. */
export const START_MESSAGE_MAX = 200;

/** What the frame knows as the request comes in. */
export interface RequestArrival {
  id: string;
  time: string;
  session: string;
  method: string;
  path: string;
}

export interface RequestStart extends RequestArrival {
  model: string | null;
  /** The start of the last user turn (the prompt, for pictures and videos); empty when there is none. */
  message: string;
}

/** How far a stream has gone: paced events written of the stream's total. */
export type StreamProgress = (sent: number, total: number) => void;

export interface InFlight {
  /** Publishes `start` once, when the request is read; later calls do nothing. */
  announce(model: string | null, message: string): void;
  progress: StreamProgress;
}

/** The request's in-flight reports, when anyone watches. */
export function watchInFlight(mock: Mock, arrival: () => RequestArrival): InFlight | undefined {
  if (mock.events.watchers === 0) return undefined;
  const arrived = arrival();
  let announced = false;
  let lastMs = performance.now();
  return {
    announce(model, message) {
      if (announced) return;
      announced = true;
      const start: RequestStart = { ...arrived, model, message: message.slice(0, START_MESSAGE_MAX) };
      mock.events.publish('start', start);
    },
    progress(sent, total) {
      const now = performance.now();
      if (!announced || now - lastMs < PROGRESS_MS || mock.events.watchers === 0) return;
      lastMs = now;
      mock.events.publish('progress', { id: arrived.id, sent, total });
    },
  };
}
