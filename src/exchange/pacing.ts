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
  const firstChunkMs = stream?.firstChunkMs ?? (realistic ? (profile ? profile.firstTokenMs.p50Ms : REALISTIC.firstChunkMs) : 0);
  const chunkMs = stream?.chunkMs ?? (realistic ? (profile ? profile.tokenMs.p50Ms : REALISTIC.chunkMs) : 0);
  if (!realistic || !profile) return { firstChunkMs, chunkMs };
  // What the fixture's `stream` block fixes stays fixed; the profile draws the rest. Each case its
  // own literal, in the same key order: spreads of conditional objects made four objects a stream.
  const firstChunk = stream?.firstChunkMs === undefined ? profile.firstTokenMs : undefined;
  const chunk = stream?.chunkMs === undefined ? profile.tokenMs : undefined;
  if (firstChunk && chunk) return { firstChunkMs, chunkMs, drawn: { firstChunk, chunk, seed } };
  if (firstChunk) return { firstChunkMs, chunkMs, drawn: { firstChunk, seed } };
  if (chunk) return { firstChunkMs, chunkMs, drawn: { chunk, seed } };
  return { firstChunkMs, chunkMs };
}

export function chunkByFor(stream: StreamSettings | undefined): ChunkBy {
  return stream?.chunkBy ?? 'token';
}
