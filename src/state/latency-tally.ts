// The request latency histogram, tallied by the mock in a plain Map from the first request on, so
// that prom-client is loaded only at the first scrape (it was the longest turn after listening, and
// the first request could wait behind it). At a scrape the tally is handed to prom-client's
// registry as the values its own Histogram would report: the same series, in the same order.
import type { Metric } from 'prom-client';

export interface Series {
  labels: Record<string, string>;
  /** Observations per bucket, not yet cumulative; one past the last bound counts only in `+Inf`. */
  counts: number[];
  sum: number;
  count: number;
}

/** One line of the exposition, as prom-client's registry formats it. */
interface Line {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
}

export class LatencyTally {
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
  ) {}

  /** The series of `labels`, made at its first use: a caller that keeps it observes without looking it up again. */
  seriesOf(labels: Record<string, string>): Series {
    const key = Object.values(labels).join('\u0000');
    let series = this.series.get(key);
    if (!series) this.series.set(key, (series = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    return series;
  }

  observe(series: Series, seconds: number): void {
    const bucket = this.buckets.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) series.counts[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  private lines(): Line[] {
    const bucketName = `${this.name}_bucket`;
    const none: Line['labels'] = {};
    return [...this.series.values()].flatMap(({ labels, counts, sum, count }): Line[] => {
      let below = 0;
      return [
        ...this.buckets.map((le, i) => ({ labels: { le }, sharedLabels: labels, value: (below += counts[i]!), metricName: bucketName })),
        { labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: bucketName },
        { labels: none, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` },
        { labels: none, sharedLabels: labels, value: count, metricName: `${this.name}_count` },
      ];
    });
  }

  /**
   * The tally as a metric of prom-client's registry: the registry reads a metric's name, help,
   * type and values and nothing else, so the tally stands in for a Histogram there.
   */
  asMetric(): Metric {
    const { name, help } = this;
    const metric = { name, help, type: 'histogram', aggregator: 'sum', get: async () => ({ name, help, type: 'histogram', aggregator: 'sum', values: this.lines() }) };
    return metric as unknown as Metric;
  }
}
