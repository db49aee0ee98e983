// Requests in flight, for the inspector's live journal: `start` when a model request begins (its
// row shows at once) and `progress` as its stream goes (the row fills), until `request` brings the
// finished entry. Nothing is built while nobody watches; a stream reports at most every
// PROGRESS_MS, so a fast stream of thousands of chunks costs its watchers a handful of events.
import type { Mock } from '../exchange/mock.js';

export const PROGRESS_MS = 200;

export interface RequestStart {
  id: string;
  time: string;
  session: string;
  method: string;
  path: string;
}

/** How far a stream has gone: paced events written of the stream's total. */
export type StreamProgress = (sent: number, total: number) => void;

/** Announces the request; answers the progress reporter of its stream, when anyone watches. */
export function announceStart(mock: Mock, startOf: () => RequestStart): StreamProgress | undefined {
  if (mock.events.watchers === 0) return undefined;
  const start = startOf();
  mock.events.publish('start', start);
  let lastMs = performance.now();
  return (sent, total) => {
    const now = performance.now();
    if (now - lastMs < PROGRESS_MS || mock.events.watchers === 0) return;
    lastMs = now;
    mock.events.publish('progress', { id: start.id, sent, total });
  };
}
