// The scenario step for a request: every handler asks here once it knows what the request is
// about (its match subject), before it decides a reply. An error step throws; a fault step comes
// back for the writer to perform.
import type { Context } from 'koa';
import type { MockError } from '../conversation/errors.js';
import type { Fault, StreamEvent } from '../conversation/plan.js';
import type { MatchSubject } from '../conversation/subject.js';
import type { Mock } from '../server/context.js';

/** A fault as a scenario states it, before a style spells its in-stream error. */
export type FaultSpec = Exclude<Fault, { kind: 'stream_error' }> | { kind: 'stream_error'; afterChunks: number; error: MockError };

export interface ScenarioOutcome {
  fault?: FaultSpec;
}

export async function applyScenario(_mock: Mock, _ctx: Context, _subject: MatchSubject): Promise<ScenarioOutcome> {
  return {};
}

/** The writer's fault: a `stream_error` gets the style's own error events. */
export function toFault(spec: FaultSpec | undefined, streamError: (error: MockError) => StreamEvent[]): Fault | undefined {
  if (spec?.kind !== 'stream_error') return spec;
  return { kind: 'stream_error', afterChunks: spec.afterChunks, events: streamError(spec.error) };
}
