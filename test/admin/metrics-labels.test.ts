// Metrics keep a series per label value for good, so the values a client chooses (model names,
// which reach the upstream as sent) are cut at 128 characters and capped at 1,000 per label.
// @ts-expect-error the parser ships no types
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { MAX_LABEL_CHARS, MAX_LABEL_VALUES, Metrics, type RequestSample } from '../../src/state/metrics.js';

const sample = (model: string): RequestSample => ({
  route: '/v1/chat/completions',
  style: 'chat-completions',
  status: 200,
  source: 'upstream',
  seconds: 0.01,
  model,
  usage: { input_tokens: 1, output_tokens: 2 },
  costUsd: 0.5,
  upstreamStatus: 200,
});

describe('metrics label values a client chooses', () => {
  it('cuts model names at 128 characters and folds those past 1,000 into other', async () => {
    const metrics = new Metrics({ openStreams: () => 0, memory: () => ({}), reloads: () => 0, failedReloads: () => 0 });
    const names = Array.from({ length: MAX_LABEL_VALUES + 50 }, (_, i) => `${String(i).padStart(5, '0')}${'m'.repeat(10_000)}`);
    for (const name of names) metrics.observe(sample(name));
    metrics.observe(sample(names[0]!));
    const families = parsePrometheusTextFormat((await metrics.exposition()).text) as Array<{ name: string; metrics: Array<{ labels: Record<string, string>; value: string }> }>;
    const cost = families.find((family) => family.name === 'mock_cost_usd_total')!.metrics;
    const models = cost.map((metric) => metric.labels.model!);
    expect(models).toHaveLength(MAX_LABEL_VALUES + 1);
    expect(Math.max(...models.map((model) => model.length))).toBe(MAX_LABEL_CHARS);
    const valueOf = (model: string) => Number(cost.find((metric) => metric.labels.model === model)!.value);
    // The first name is one series under its cut name, whatever its length; the last 50 count as other.
    expect(valueOf(names[0]!.slice(0, MAX_LABEL_CHARS))).toBe(1);
    expect(valueOf('other')).toBe(25);
    const tokens = families.find((family) => family.name === 'mock_tokens_total')!.metrics;
    expect(tokens).toHaveLength(2 * (MAX_LABEL_VALUES + 1));
  });
});
