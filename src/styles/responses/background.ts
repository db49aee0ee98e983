// A background response (`background: true`) as it stands at a moment: queued until its reply is
// ready, then the reply itself; cancelled if the client cancelled it first. The reply is decided
// when the request arrives, so waiting changes only what is shown, never what is said.
import type { StreamEvent } from '../../conversation/plan.js';
import type { ResponseObject } from './encode.js';
import { started } from './events.js';

/** How long a background response stays queued, in mock time. */
export const BACKGROUND_MS = 1000;

export interface BackgroundRun {
  readyMs: number;
  cancelled: boolean;
}

export type RunState = 'queued' | 'cancelled' | 'done';

export function runState(run: BackgroundRun | undefined, nowMs: number): RunState {
  if (!run || (!run.cancelled && nowMs >= run.readyMs)) return 'done';
  return run.cancelled ? 'cancelled' : 'queued';
}

export function responseAt(body: ResponseObject, run: BackgroundRun | undefined, nowMs: number): ResponseObject {
  const state = runState(run, nowMs);
  if (state !== 'done') return { ...started(body), status: state };
  // A background reply completes when it shows, not when it was asked for.
  return run ? { ...body, completed_at: Math.floor(run.readyMs / 1000) } : body;
}

/** The replay of a response that has no output yet: what a stream of it had said so far. */
export function pendingEvents(response: ResponseObject): StreamEvent[] {
  const events: StreamEvent[] = [{ event: 'response.created', data: { type: 'response.created', sequence_number: 0, response } }];
  if (response.status === 'queued') events.push({ event: 'response.queued', data: { type: 'response.queued', sequence_number: 1, response } });
  return events;
}
