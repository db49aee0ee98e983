// The latency histogram is tallied by the mock and handed to prom-client at a scrape: its lines are
// those prom-client's own Histogram writes for the same requests, byte for byte.
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Metrics, type RequestSample } from '../../src/state/metrics.js';

const NAME = 'mock_request_duration_seconds';

const sample = (route: string, style: string, seconds: number): RequestSample => ({
  route, style, status: 200, source: 'fixture:greeting', seconds, model: 'gpt-4o-mini', usage: null, costUsd: null, upstreamStatus: null,
});

/** The lines of one metric family in an exposition, its help and type lines included. */
const family = (text: string) => text.split('\n').filter((line) => line.includes(NAME));

describe('the latency histogram', () => {
  it('writes the lines prom-client writes for the same observations, past the last bucket and on its bounds', async () => {
    const samples = [
      sample('/v1/chat/completions', 'chat-completions', 0.0004),
      sample('/v1/messages', 'messages', 0.001),
      sample('/v1/chat/completions', 'chat-completions', 0.07),
      sample('/v1/chat/completions', 'chat-completions', 45),
      sample('/v1/messages', 'messages', 0.3),
      sample('/v1/videos/:id', 'videos', 5),
      sample('/v1/chat/completions', 'chat-completions', 0.1 + 0.2),
    ];
    const metrics = new Metrics({ openStreams: () => 0, memory: () => ({}), reloads: () => 0, failedReloads: () => 0 });
    for (const one of samples) metrics.observe(one);

    const registry = new Registry();
    const histogram = new Histogram({
      name: NAME,
      help: 'Time from a request to the end of its answer, streams included.',
      labelNames: ['route', 'style'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers: [registry],
    });
    for (const one of samples) histogram.observe({ route: one.route, style: one.style }, one.seconds);

    const ours = family((await metrics.exposition()).text);
    expect(ours).toHaveLength(2 + 3 * 12);
    expect(ours).toEqual(family(await registry.metrics()));
  });
});
