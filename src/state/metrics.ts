// The mock's Prometheus metrics (`GET /__admin/metrics`), written by `prom-client` from a registry
// of the server's own (several servers share a test process). Every count and the latency histogram
// are tallied by the mock itself from the first request, and the library is loaded at the first
// scrape: a start, and the turns after it, never load it.
import type { Counter, Gauge, Registry } from 'prom-client';
import { LatencyTally, type Series } from './latency-tally.js';

/** One answered request, as the frame saw it. */
export interface RequestSample {
  /** The route's path as the table writes it (`/v1/videos/:id`), or `-` for an unknown URL. */
  route: string;
  style: string;
  status: number;
  source: string;
  seconds: number;
  model: string | null;
  usage: { input_tokens: number; output_tokens: number } | null;
  costUsd: number | null;
  /** The upstream's status, when the request was forwarded. */
  upstreamStatus: number | null;
}

/** What is read at each scrape rather than counted. */
export interface MetricsGauges {
  openStreams(): number;
  memory(): Readonly<object>;
  reloads(): number;
  failedReloads(): number;
}

/**
 * Counts by label values, added up per request in a plain Map and handed to prom-client only at a
 * scrape: its own `inc` hashes the labels on every call, four calls a request on the hot path.
 */
class Tally {
  private readonly counts = new Map<string, Count>();

  /** The count of `labels`, made at its first use: a caller that keeps it adds to it without looking it up again. */
  countOf(labels: Record<string, string>): Count {
    const key = Object.values(labels).join('\u0000');
    let count = this.counts.get(key);
    if (!count) this.counts.set(key, (count = { labels, value: 0 }));
    return count;
  }

  add(labels: Record<string, string>, value = 1): void {
    this.countOf(labels).value += value;
  }

  /** Sets the counter to the tally (prom-client calls `collect` before each scrape). */
  report(counter: Counter): void {
    counter.reset();
    for (const { labels, value } of this.counts.values()) counter.inc(labels, value);
  }
}

interface Count {
  readonly labels: Record<string, string>;
  value: number;
}

interface Tallies {
  requests: Tally;
  tokens: Tally;
  cost: Tally;
  upstream: Tally;
  latency: LatencyTally;
}

async function registryOf(gauges: MetricsGauges, tallies: Tallies): Promise<Registry> {
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  const counter = (name: string, help: string, labelNames: string[], tally: Tally) =>
    new prom.Counter({ name, help, labelNames, registers: [registry], collect() { tally.report(this); } });
  const gauge = (name: string, help: string, read: (g: Gauge) => void, labelNames: string[] = []) =>
    new prom.Gauge({ name, help, labelNames, registers: [registry], collect() { read(this); } });
  gauge('mock_open_streams', 'Streams being written now.', (g) => g.set(gauges.openStreams()));
  gauge('mock_memory_held_bytes', 'Bytes the sessions hold, by kind, and the process caches, within the memory budget.', (g) => {
    for (const [kind, value] of Object.entries(gauges.memory())) if (typeof value === 'number') g.set({ kind }, value);
  }, ['kind']);
  gauge('mock_reloads', 'Reloads of the fixtures and scenarios so far.', (g) => g.set(gauges.reloads()));
  gauge('mock_reload_errors', 'Reloads that found a problem and kept the last good configuration.', (g) => g.set(gauges.failedReloads()));
  counter('mock_requests_total', 'Model API requests answered, by route, style, status and source.', ['route', 'style', 'status', 'source'], tallies.requests);
  counter('mock_tokens_total', 'Tokens the answers counted, by model and direction (input, output).', ['model', 'direction'], tallies.tokens);
  counter('mock_cost_usd_total', 'What the answers would have cost at the catalog prices, by model.', ['model'], tallies.cost);
  counter('mock_upstream_requests_total', 'Requests forwarded to the upstream, by its status.', ['status'], tallies.upstream);
  registry.registerMetric(tallies.latency.asMetric());
  return registry;
}

/** The longest label value a client chooses (a model name) that is kept whole. */
export const MAX_LABEL_CHARS = 128;
/** Distinct values a client-chosen label keeps its own series for; later ones count as `other`. */
export const MAX_LABEL_VALUES = 1000;

/**
 * The values one label takes, when a client chooses them (model names reach the upstream as they
 * are sent): each series is kept for good, so their length and number are bounded.
 */
class ChosenValues {
  private readonly seen = new Set<string>();

  of(value: string): string {
    const cut = value.slice(0, MAX_LABEL_CHARS);
    if (this.seen.has(cut)) return cut;
    if (this.seen.size >= MAX_LABEL_VALUES) return 'other';
    this.seen.add(cut);
    return cut;
  }
}

/** What the requests of one route, style, status and source count into. */
interface Bound {
  readonly requests: Count;
  readonly latency: Series;
}

/** What the tokens of one model's answers count into. */
interface TokenCounts {
  readonly input: Count;
  readonly output: Count;
}

/**
 * Each request's counts, bound once per route, style, status and source (and per model) and
 * found again through maps keyed by the values as they come: no labels object and no key joined
 * from them per request, as the tallies' own look-up makes.
 */
class BoundCounts {
  private readonly routes = new Map<string, Map<string, Map<number, Map<string, Bound>>>>();
  private readonly tokens = new Map<string, TokenCounts>();
  private readonly costs = new Map<string, Count>();

  constructor(private readonly tallies: Tallies) {}

  of(route: string, style: string, status: number, source: string): Bound {
    let styles = this.routes.get(route);
    if (!styles) this.routes.set(route, (styles = new Map()));
    let statuses = styles.get(style);
    if (!statuses) styles.set(style, (statuses = new Map()));
    let sources = statuses.get(status);
    if (!sources) statuses.set(status, (sources = new Map()));
    let bound = sources.get(source);
    if (!bound) {
      const { requests, latency } = this.tallies;
      bound = { requests: requests.countOf({ route, style, status: String(status), source }), latency: latency.seriesOf({ route, style }) };
      sources.set(source, bound);
    }
    return bound;
  }

  tokensOf(model: string): TokenCounts {
    let counts = this.tokens.get(model);
    if (!counts) {
      const { tokens } = this.tallies;
      this.tokens.set(model, (counts = { input: tokens.countOf({ model, direction: 'input' }), output: tokens.countOf({ model, direction: 'output' }) }));
    }
    return counts;
  }

  costOf(model: string): Count {
    let cost = this.costs.get(model);
    if (!cost) this.costs.set(model, (cost = this.tallies.cost.countOf({ model })));
    return cost;
  }
}

function count(tallies: Tallies, bound: BoundCounts, models: ChosenValues, sample: RequestSample): void {
  const counts = bound.of(sample.route, sample.style, sample.status, sample.source);
  counts.requests.value += 1;
  tallies.latency.observe(counts.latency, sample.seconds);
  const model = models.of(sample.model ?? '-');
  if (sample.usage) {
    const tokens = bound.tokensOf(model);
    tokens.input.value += sample.usage.input_tokens;
    tokens.output.value += sample.usage.output_tokens;
  }
  if (sample.costUsd) bound.costOf(model).value += sample.costUsd;
  if (sample.upstreamStatus !== null) tallies.upstream.add({ status: String(sample.upstreamStatus) });
}

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30];

export class Metrics {
  private readonly tallies: Tallies = {
    requests: new Tally(),
    tokens: new Tally(),
    cost: new Tally(),
    upstream: new Tally(),
    latency: new LatencyTally('mock_request_duration_seconds', 'Time from a request to the end of its answer, streams included.', LATENCY_BUCKETS),
  };
  private readonly models = new ChosenValues();
  private readonly bound = new BoundCounts(this.tallies);
  private registry: Promise<Registry> | undefined;

  constructor(private readonly gauges: MetricsGauges) {}

  observe(sample: RequestSample): void {
    count(this.tallies, this.bound, this.models, sample);
  }

  /** The exposition text and its content type; the first scrape loads prom-client. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    const registry = await (this.registry ??= registryOf(this.gauges, this.tallies));
    return { contentType: registry.contentType, text: await registry.metrics() };
  }
}
