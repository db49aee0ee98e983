// Stream pacing: the request header wins, then the fixture's `stream` block, then --latency; a
// realistic stream of a model with a latency profile draws its pauses from that profile.
import type { ChunkBy, LatencyProfile, Pacing, StreamSettings } from '../conversation/types.js';
import type { LatencyMode } from './mock.js';

/** Close to what hosted models show: a pause before the first token, then a steady trickle. */
export const REALISTIC: Pacing = { firstChunkMs: 350, chunkMs: 30 };
const NONE: Pacing = { firstChunkMs: 0, chunkMs: 0 };

/** `profile` and `seed`: the model's latency profile, and what seeds this stream's draws from it. */
export function pacingFor(
  header: string | undefined,
  stream: StreamSettings | undefined,
  flag: LatencyMode,
  profile?: LatencyProfile,
  seed: readonly (string | number)[] = [],
): Pacing {
  if (header === 'none') return NONE;
  const realistic = header === 'realistic' || flag === 'realistic';
  const base = realistic ? (profile ? { firstChunkMs: profile.firstTokenMs.p50Ms, chunkMs: profile.tokenMs.p50Ms } : REALISTIC) : NONE;
  const pacing = {
    firstChunkMs: stream?.firstChunkMs ?? base.firstChunkMs,
    chunkMs: stream?.chunkMs ?? base.chunkMs,
  };
  if (!realistic || !profile) return pacing;
  // What the fixture's `stream` block fixes stays fixed; the profile draws the rest.
  const firstChunk = stream?.firstChunkMs === undefined ? profile.firstTokenMs : undefined;
  const chunk = stream?.chunkMs === undefined ? profile.tokenMs : undefined;
  return firstChunk || chunk ? { ...pacing, drawn: { ...(firstChunk && { firstChunk }), ...(chunk && { chunk }), seed } } : pacing;
}

export function chunkByFor(stream: StreamSettings | undefined): ChunkBy {
  return stream?.chunkBy ?? 'token';
}
