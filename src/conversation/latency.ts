// A model's latency profile (SPEC 5, fixtures' `models:`): how long its first token and each
// token after it take, as a log-normal spread given by its median and its 99th percentile, the
// way load-test reports state them. A stream draws its pauses from its own seeded sequence, so the
// same seed and request pause alike on every run.
import { seededRandom, type Random } from './random.js';
import type { Pacing, Spread } from './types.js';

/** The standard normal's 99th percentile: a log-normal's p99 is its median × e^(σ × this). */
const Z99 = 2.3263478740408408;

/** One draw of `spread` (Box-Muller over two of the stream's numbers). */
export function drawMs(spread: Spread, random: Random): number {
  const sigma = Math.log(spread.p99Ms / spread.p50Ms) / Z99;
  const u = 1 - random.next();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
  return spread.p50Ms * Math.exp(sigma * normal);
}

/**
 * A stream's pauses as deadlines from its start: each `next()` gives the next content chunk's, the
 * first of them `first`. Fixed pacing gives `firstChunkMs + n × chunkMs`; a profile's spread,
 * where the pacing carries one, draws the first pause and every gap after it. A reply made after
 * its headers reads `first` to be made ahead of it, and its events are paced by the same draws
 * (server/late-reply.ts): one seeded sequence a stream, not one for each.
 */
export class ChunkDeadlines {
  readonly first: number;
  private readonly random: Random | undefined;
  private last: number | undefined;

  constructor(private readonly pacing: Pacing) {
    const { drawn } = pacing;
    this.random = drawn && seededRandom('latency', ...drawn.seed);
    this.first = drawn?.firstChunk && this.random ? drawMs(drawn.firstChunk, this.random) : pacing.firstChunkMs;
  }

  next(): number {
    if (this.last === undefined) return (this.last = this.first);
    const { drawn, chunkMs } = this.pacing;
    this.last += drawn?.chunk && this.random ? drawMs(drawn.chunk, this.random) : chunkMs;
    return this.last;
  }
}
