// Each request's counts are bound once per route, style, status and source (and per model): a
// scrape still shows a series only for what was counted, in the order it was first counted. A
// model whose answers cost nothing (no catalog pricing) has token series and no cost series.
import { describe, expect, it } from 'vitest';
import { Metrics, type RequestSample } from '../../src/state/metrics.js';

const sample = (over: Partial<RequestSample>): RequestSample => ({
  route: '/v1/chat/completions',
  style: 'chat-completions',
  status: 200,
  source: 'fixture',
  seconds: 0.002,
  model: 'gpt-4o-mini',
  usage: { input_tokens: 3, output_tokens: 5 },
  costUsd: 0.25,
  upstreamStatus: null,
  ...over,
});

const seriesOf = (text: string, name: string): string[] => text.split('\n').filter((line) => line.startsWith(`${name}{`));

describe('metrics bound per route and model', () => {
  it('counts each label set apart and shows only the series that were counted', async () => {
    const metrics = new Metrics({ openStreams: () => 0, memory: () => ({}), reloads: () => 0, failedReloads: () => 0 });
    metrics.observe(sample({}));
    metrics.observe(sample({ status: 429, source: 'scenario', usage: null, costUsd: null }));
    metrics.observe(sample({ model: 'local-free', costUsd: null, seconds: 0.2 }));
    metrics.observe(sample({ route: '/v1/messages', style: 'messages' }));
    metrics.observe(sample({ seconds: 0.04 }));
    const { text } = await metrics.exposition();
    expect(seriesOf(text, 'mock_requests_total')).toEqual([
      'mock_requests_total{route="/v1/chat/completions",style="chat-completions",status="200",source="fixture"} 3',
      'mock_requests_total{route="/v1/chat/completions",style="chat-completions",status="429",source="scenario"} 1',
      'mock_requests_total{route="/v1/messages",style="messages",status="200",source="fixture"} 1',
    ]);
    expect(seriesOf(text, 'mock_tokens_total')).toEqual([
      'mock_tokens_total{model="gpt-4o-mini",direction="input"} 9',
      'mock_tokens_total{model="gpt-4o-mini",direction="output"} 15',
      'mock_tokens_total{model="local-free",direction="input"} 3',
      'mock_tokens_total{model="local-free",direction="output"} 5',
    ]);
    expect(seriesOf(text, 'mock_cost_usd_total')).toEqual(['mock_cost_usd_total{model="gpt-4o-mini"} 0.75']);
    expect(seriesOf(text, 'mock_request_duration_seconds_count')).toEqual([
      'mock_request_duration_seconds_count{route="/v1/chat/completions",style="chat-completions"} 4',
      'mock_request_duration_seconds_count{route="/v1/messages",style="messages"} 1',
    ]);
    expect(seriesOf(text, 'mock_request_duration_seconds_bucket').filter((line) => line.includes('le="0.005"'))).toEqual([
      'mock_request_duration_seconds_bucket{le="0.005",route="/v1/chat/completions",style="chat-completions"} 2',
      'mock_request_duration_seconds_bucket{le="0.005",route="/v1/messages",style="messages"} 1',
    ]);
  });

  it('counts a request apart from the one before it when a single label differs, and alike again after', async () => {
    const metrics = new Metrics({ openStreams: () => 0, memory: () => ({}), reloads: () => 0, failedReloads: () => 0 });
    // Each differs from the one before it in one label only; refusals of two statuses share their source.
    const row = [
      {},
      { route: '/v1/responses' },
      { route: '/v1/responses', style: 'responses' },
      { route: '/v1/responses', style: 'responses', status: 400, source: 'refused' },
      { route: '/v1/responses', style: 'responses', status: 404, source: 'refused' },
      { route: '/v1/responses', style: 'responses', status: 404, source: 'fixture' },
      {},
    ];
    for (const over of row) metrics.observe(sample(over));
    const { text } = await metrics.exposition();
    expect(seriesOf(text, 'mock_requests_total')).toEqual([
      'mock_requests_total{route="/v1/chat/completions",style="chat-completions",status="200",source="fixture"} 2',
      'mock_requests_total{route="/v1/responses",style="chat-completions",status="200",source="fixture"} 1',
      'mock_requests_total{route="/v1/responses",style="responses",status="200",source="fixture"} 1',
      'mock_requests_total{route="/v1/responses",style="responses",status="400",source="refused"} 1',
      'mock_requests_total{route="/v1/responses",style="responses",status="404",source="refused"} 1',
      'mock_requests_total{route="/v1/responses",style="responses",status="404",source="fixture"} 1',
    ]);
  });
});
