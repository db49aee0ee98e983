// A span per answer of the model API (a request, a batch's line), exported over OTLP/HTTP through the OpenTelemetry SDK, named and
// attributed by the GenAI semantic conventions plus `mock.source`. An incoming `traceparent` makes
// it a child of the client's trace. The SDK loads only when an endpoint is given, after the server
// listens: a span finished before that waits in a short queue.
// Types only: the SDK's code is imported when an endpoint is given.
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { LoadedLater } from '../state/loaded-later.js';
import type { ServedListener } from '../state/served.js';

/** What a span says of one answered request. */
interface SpanSample {
  startMs: number;
  endMs: number;
  /** The request's headers, for `traceparent` and `tracestate`. */
  headers: Record<string, string | string[] | undefined>;
  /** The GenAI operation, as the request's door names it. */
  operation: string;
  route: string;
  status: number;
  source: string;
  model: string | null;
  /** The fake MCP tool a tool call called (SPEC 22), else null. */
  tool: string | null;
  usage: { input_tokens: number; output_tokens: number } | null;
  finishReasons: readonly string[] | null;
}

type Emit = (sample: SpanSample) => void;

/**
 * The longest the final flush may take: a collector that is down or never answers must not hold
 * the server's shutdown (SIGTERM ends within --grace-ms plus a few seconds, exit 0).
 */
export const FINAL_FLUSH_MS = 2000;

/** What health says of the exporter (SPEC 19): failing after an export was refused or could not connect. */
export interface OtlpHealth {
  endpoint: string;
  status: 'ok' | 'failing';
  last_error: string | null;
}

async function exporter(endpoint: string, health: OtlpHealth): Promise<{ emit: Emit; shutdown(): Promise<void> }> {
  const [api, core, resources, traces, otlp] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  // Like OTEL_EXPORTER_OTLP_ENDPOINT, the endpoint is the collector's base: traces go to /v1/traces.
  const url = /\/v1\/traces\/?$/.test(endpoint) ? endpoint : `${endpoint.replace(/\/+$/, '')}/v1/traces`;
  const provider = new traces.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': 'model-gateway-mock' }),
    spanProcessors: [new traces.BatchSpanProcessor(watched(new otlp.OTLPTraceExporter({ url, timeoutMillis: FINAL_FLUSH_MS }), health))],
  });
  const tracer = provider.getTracer('model-gateway-mock');
  const propagator = new core.W3CTraceContextPropagator();
  const getter = {
    keys: (carrier: SpanSample['headers']) => Object.keys(carrier),
    get: (carrier: SpanSample['headers'], key: string) => carrier[key.toLowerCase()],
  };
  const emit: Emit = (sample) => {
    const parent = propagator.extract(api.ROOT_CONTEXT, sample.headers, getter);
    const { operation } = sample;
    const attributes: Record<string, string | number | string[]> = {
      'gen_ai.operation.name': operation,
      'http.route': sample.route,
      'http.response.status_code': sample.status,
      'mock.source': sample.source,
    };
    if (sample.model) attributes['gen_ai.request.model'] = attributes['gen_ai.response.model'] = sample.model;
    if (sample.tool) attributes['gen_ai.tool.name'] = sample.tool;
    if (sample.usage) {
      attributes['gen_ai.usage.input_tokens'] = sample.usage.input_tokens;
      attributes['gen_ai.usage.output_tokens'] = sample.usage.output_tokens;
    }
    if (sample.finishReasons) attributes['gen_ai.response.finish_reasons'] = [...sample.finishReasons];
    // GenAI conventions: `{operation} {model}`, and `execute_tool {tool}` for a tool call.
    const target = sample.model ?? sample.tool;
    const name = target ? `${operation} ${target}` : operation;
    const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, startTime: sample.startMs, attributes }, parent);
    if (sample.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
    span.end(sample.endMs);
  };
  return { emit, shutdown: () => provider.shutdown() };
}

/** The exporter, its every batch's result noted in `health`: the SDK itself only logs a failure. */
function watched(inner: SpanExporter, health: OtlpHealth): SpanExporter {
  return {
    export: (spans, done) =>
      inner.export(spans, (result) => {
        health.status = result.code === 0 ? 'ok' : 'failing';
        if (result.code !== 0) health.last_error = result.error?.message ?? 'the collector refused the spans';
        done(result);
      }),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

export class Tracing {
  private readonly later: LoadedLater<Awaited<ReturnType<typeof exporter>>, SpanSample>;
  readonly health: OtlpHealth;

  constructor(endpoint: string) {
    const health: OtlpHealth = { endpoint, status: 'ok', last_error: null };
    this.health = health;
    this.later = new LoadedLater(() => exporter(endpoint, health), (made, sample) => made.emit(sample));
  }

  load(): Promise<unknown> {
    return this.later.load();
  }

  /** The span of an answer: a listener of the mock's served events. */
  readonly served: ServedListener = ({ entry, route, operation, startMs, endMs, headers, finishReasons }) => {
    this.later.add({
      startMs: performance.timeOrigin + startMs,
      endMs: performance.timeOrigin + endMs,
      headers,
      operation,
      route,
      status: entry.status,
      source: entry.source,
      model: entry.model,
      tool: entry.mcp?.tool ?? null,
      usage: entry.usage,
      finishReasons,
    });
  };

  /**
   * Sends what is still batched, for at most FINAL_FLUSH_MS; the server calls it as it closes.
   * Never rejects: spans a collector did not take are lost, not the server's close. Answers why
   * spans were lost, for the log, or undefined when none were.
   */
  async shutdown(): Promise<string | undefined> {
    if (!this.later.started) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const flushed = this.later
      .load()
      .then((made) => made.shutdown())
      .then(() => undefined, (error: Error) => `tracing: the last spans were not exported: ${error.message}`);
    const late = new Promise<string>((done) => (timer = setTimeout(() => done(`tracing: the collector took over ${FINAL_FLUSH_MS} ms; the last spans are dropped`), FINAL_FLUSH_MS)));
    const lost = await Promise.race([flushed, late]);
    clearTimeout(timer);
    return lost;
  }
}
