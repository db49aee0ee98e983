// Stream pacing: the request header wins, then the fixture's `stream` block, then --latency.
import type { ChunkBy, Pacing, StreamSettings } from '../conversation/types.js';
import type { LatencyMode } from './mock.js';

/** Close to what hosted models show: a pause before the first token, then a steady trickle. */
export const REALISTIC: Pacing = { firstChunkMs: 350, chunkMs: 30 };
const NONE: Pacing = { firstChunkMs: 0, chunkMs: 0 };

export function pacingFor(header: string | undefined, stream: StreamSettings | undefined, flag: LatencyMode): Pacing {
  if (header === 'none') return NONE;
  const base = header === 'realistic' || flag === 'realistic' ? REALISTIC : NONE;
  return {
    firstChunkMs: stream?.firstChunkMs ?? base.firstChunkMs,
    chunkMs: stream?.chunkMs ?? base.chunkMs,
  };
}

export function chunkByFor(stream: StreamSettings | undefined): ChunkBy {
  return stream?.chunkBy ?? 'token';
}
