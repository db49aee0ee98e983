// Small statistics over lists of samples.

/** Nearest-rank percentile; `p` in [0, 100]. */
export function percentile(samples, p) {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function median(samples) {
  return percentile(samples, 50);
}

/** The run with the highest `key`: other load on the machine can only make a run slower. */
export function best(runs, key) {
  return runs.reduce((top, run) => (run[key] > top[key] ? run : top));
}

/** The share of a run's wall time the server's main thread waited for a core (undefined off Linux). */
export function waitingPercent({ mainThread }) {
  return mainThread && (100 * mainThread.waitingMs) / mainThread.wallMs;
}
