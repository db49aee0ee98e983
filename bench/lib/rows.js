// The table's rows, phase by phase: each figure with what it is compared to and its goal, if any.
import { limitRow, ratioRow } from './report.js';
import { waitingPercent } from './stats.js';

/**
 * The mock at its default log level and with logging off, each against both peers. The goal, if
 * any, is on the default log level against aimock, the faster peer.
 * @param figures `{ logging, quiet, aimock, mockLlm }`, one number each
 * @param goal `{ atLeast }` or `{ atMost }` on the ratio, or undefined
 */
function againstPeers(metric, figures, goal) {
  const rows = [];
  for (const [level, mock] of [
    ['default log', figures.logging],
    ['logging off', figures.quiet],
  ]) {
    for (const [peer, baseline] of [
      ['aimock', figures.aimock],
      ['mock-llm', figures.mockLlm],
    ]) {
      const label = `${metric}, ${level}`;
      rows.push(
        goal && level === 'default log' && peer === 'aimock'
          ? ratioRow(label, mock, baseline, `(${peer})`, goal)
          : limitRow(label, mock, { baseline, baselineIs: `(${peer})` }),
      );
    }
  }
  return rows;
}

function pick(results, key) {
  return Object.fromEntries(['logging', 'quiet', 'aimock', 'mockLlm'].map((name) => [name, key(results[name])]));
}

export function throughputRows(t) {
  const perConnection = `${t.connections} conn`;
  return [
    ...againstPeers(`fixture hit req/s, ${perConnection}`, pick(t, (run) => run.requestsPerSecond), { atLeast: 1.5 }),
    ratioRow('fixture hit req/s, default log', t.logging.requestsPerSecond, t.koa.requestsPerSecond, '(Koa)', { atLeast: 0.8 }),
    ratioRow('fixture hit req/s, logging off', t.quiet.requestsPerSecond, t.bare.requestsPerSecond, '(bare)', { atLeast: 0.5 }),
    ratioRow('fixture hit p99 ms, logging off', t.quiet.latencyP99Ms, t.bare.latencyP99Ms, '(bare)', { atMost: 2 }),
    limitRow('server CPU µs per request, default log', t.logging.cpuUsPerRequest, { baseline: t.aimock.cpuUsPerRequest, baselineIs: '(aimock)' }),
    limitRow('server CPU µs per request, logging off', t.quiet.cpuUsPerRequest, { baseline: t.bare.cpuUsPerRequest, baselineIs: '(bare)' }),
    limitRow('framework alone req/s (Koa+router+body)', t.koa.requestsPerSecond, { baseline: t.bare.requestsPerSecond, baselineIs: '(bare)' }),
    ratioRow('fixture hit req/s, 10,000 fixtures', t.large.requestsPerSecond, t.quiet.requestsPerSecond, '(10 fx)', { atLeast: 0.8 }),
    limitRow('fixture hit p99 ms, 10,000 fixtures', t.large.latencyP99Ms, { baseline: t.quiet.latencyP99Ms, baselineIs: '(10 fx)' }),
  ];
}

/** A coding agent's request: held to the short hit's goal against a bare server reading the same body. */
export function agentPromptRows(a) {
  const size = `${Math.round(a.requestBytes / 1024)} KB`;
  return [
    limitRow(`agent prompt (${size}: 100 KB system, 25 tools) req/s, fixture hit`, a.agent.requestsPerSecond, { baseline: a.bare.requestsPerSecond, baselineIs: '(bare reading it)' }),
    // SPEC 20: as fast as a short request is answered plus the time to read it. Time a request is
    // the inverse of req/s at the same connections; reading it is what the bare server spends.
    ratioRow('agent prompt ms a request, fixture hit', 1000 / a.agent.requestsPerSecond, 1000 / a.short.requestsPerSecond + 1000 / a.bare.requestsPerSecond, '(short + bare reading it)', { atMost: 1 }),
    limitRow('agent prompt p99 ms, fixture hit', a.agent.latencyP99Ms, { baseline: a.short.latencyP99Ms, baselineIs: '(short request)' }),
  ];
}

export function peerStreamRows(p) {
  return [
    ...againstPeers(`${p.streams} unpaced 1 KB streams, ms to all ended`, pick(p, (run) => run.wallMs), { atMost: 1 }),
    limitRow('server CPU ms per 1 KB stream, default log', p.logging.cpuMsPerStream, { baseline: p.aimock.cpuMsPerStream, baselineIs: '(aimock)' }),
  ];
}

export function streamRows(s) {
  const n = s.streams;
  const { mock, aimock, bare } = s;
  return [
    limitRow(`event-loop lag p99 ms, ${n} paced streams`, mock.lagP99Ms, { below: 20, baseline: bare.lagP99Ms, baselineIs: '(bare)' }),
    limitRow(`peak RSS MB, ${n} paced streams`, mock.peakRssMb, { below: 200, baseline: bare.peakRssMb, baselineIs: '(bare)' }),
    ratioRow(`KB per open stream, ${n} paced streams`, mock.kbPerOpenStream, aimock.kbPerOpenStream, '(aimock)', { atMost: 1 }),
    ratioRow(`KB per open stream, ${n} paced streams`, mock.kbPerOpenStream, bare.kbPerOpenStream, '(bare)', { atMost: 1.15 }),
    limitRow('aimock KB per open stream, paced alike', aimock.kbPerOpenStream, { baseline: bare.kbPerOpenStream, baselineIs: '(bare)' }),
    limitRow('server CPU µs per paced event', mock.cpuUsPerRequest / s.eventsPerStream, {
      baseline: bare.cpuUsPerRequest / s.eventsPerStream,
      baselineIs: '(bare)',
    }),
    ratioRow(`paced stream duration p99 ms, ${n} streams`, mock.latencyP99Ms, s.idealPacedMs, '(exact)', { atMost: 1.05 }),
    // Which outcome the row above got: with its waves apart the mock paces at bare's floor.
    limitRow('paced streams: waves let go on their own (headers p99 under 200 ms), of 10, most of the rounds', mock.wavesApart, { baseline: bare.wavesApart, baselineIs: '(bare)' }),
    limitRow('aimock paced stream duration p99 ms, same streams', aimock.latencyP99Ms, { baseline: s.aimockPacing.idealMs, baselineIs: '(its exact)' }),
    limitRow('bare pacer duration p99 ms, same streams', bare.latencyP99Ms, { baseline: s.idealPacedMs, baselineIs: '(exact)' }),
    // The floor of the latency profile's goal: how near its exact pause a stream's first token
    // comes when nothing but the sends and the pacing run, on the same machine and client.
    ...['P50', 'P99'].flatMap((p) => [
      limitRow(`time to first token ${p.toLowerCase()} ms, ${n} paced streams`, mock[`firstToken${p}Ms`], { baseline: s.idealFirstTokenMs, baselineIs: '(exact)' }),
      limitRow(`bare pacer time to first token ${p.toLowerCase()} ms, same streams`, bare[`firstToken${p}Ms`], { baseline: s.idealFirstTokenMs, baselineIs: '(exact)' }),
    ]),
    ratioRow(`request-to-headers p99 ms, ${n} paced streams`, mock.headersP99Ms, bare.headersP99Ms, '(bare)', { atMost: 2 }),
    ratioRow(`request-to-headers p99 ms, ${n} asked at once`, s.burst.mock.headersP99Ms, s.burst.bare.headersP99Ms, '(bare)', { atMost: 2 }),
    limitRow(`lag max ms, ${n} streams asked at once`, s.burst.mock.server.lagMaxMs, { baseline: s.burst.bare.server.lagMaxMs, baselineIs: '(bare)' }),
    // A shared machine's share of these rows: a server waiting for a core is late for that alone.
    limitRow('paced streams: mock main thread waiting for a core, % of the run (most of the rounds)', mock.waitingPercent, { baseline: bare.waitingPercent, baselineIs: '(bare)' }),
    limitRow('asked at once: mock main thread waiting for a core, % of the run', waitingPercent(s.burst.mock.server), { baseline: waitingPercent(s.burst.bare.server), baselineIs: '(bare)' }),
    limitRow(`unpaced stream events/s (${s.eventsPerStream} per stream)`, s.unpaced.eventsPerSecond),
  ];
}

export function doorRows(d) {
  return [
    limitRow('embeddings: 2,048 inputs of 100 words, ms (median)', d.batchMs, { below: 1000 }),
    ...Object.entries(d.doors).flatMap(([name, door]) => [
      ratioRow(`${door.row}, ${d.connections} conn`, door.requestsPerSecond, d.chat.requestsPerSecond, '(chat hit)', { atLeast: 0.8 }),
      // What drifts least when the machine is busy: req/s follows it when the server has its core.
      limitRow(`${name}: server CPU µs per request, same run`, door.cpuUsPerRequest, { baseline: d.chat.cpuUsPerRequest, baselineIs: '(chat hit)' }),
    ]),
  ];
}

export function reloadRows(small, large) {
  const missed = (row, run) => (run.missed > 0 ? { ...row, met: false } : row);
  return [
    // A saved file is read once it has kept its stamp for 200 ms (SPEC 11: within a second).
    missed(limitRow('hot reload p50 ms, write to first answer', small.p50Ms, { below: 1000 }), small),
    missed(limitRow('hot reload p50 ms, 10,000 fixtures', large.p50Ms, { below: 1000 }), large),
    limitRow('event-loop stall max ms, 10,000 fixtures reload', large.lagMaxMs, { below: 20 }),
  ];
}

export function coldStartRows(c) {
  return [
    limitRow('cold start ms, node dist/cli.js to listening', c.logging.medianMs, { below: 300, baseline: c.node.medianMs, baselineIs: '(node -e)' }),
    limitRow('cold start ms with --otlp-endpoint', c.traced.medianMs, { below: 300, baseline: c.logging.medianMs, baselineIs: '(no tracing)' }),
    limitRow('npm start ms, to listening (built)', c.npmStart.medianMs, { below: 2000, baseline: c.logging.medianMs, baselineIs: '(node cli)' }),
    ...againstPeers('cold start ms', pick(c, (run) => run.medianMs)),
    ratioRow('cold start ms to the first answer, default log', c.firstAnswer.medianMs, c.aimockFirstAnswer.medianMs, '(aimock)', { atMost: 1 }),
    limitRow('server CPU ms to the first answer, default log', c.firstAnswer.cpuMs, { baseline: c.aimockFirstAnswer.cpuMs, baselineIs: '(aimock)' }),
  ];
}

/** Measured time to first token against the model's configured profile: within 10% above it (sampling can fall either side). */
export function realtimeRows(r) {
  const label = `${r.sessions} realtime sessions speaking in 20 ms frames`;
  return [
    ratioRow(`${label}: reply duration p99 ms`, r.durationP99Ms, r.exactMs, '(exact)', { atMost: 1.15 }),
    limitRow(`${label}: event-loop lag p99 ms`, r.lagP99Ms, { below: 20 }),
    limitRow(`${label}: peak RSS MB`, r.peakRssMb),
    limitRow(`${label}: CPU ms of the mock per second`, r.cpuMsPerSecond),
  ];
}

export function latencyProfileRows(l) {
  const label = (p) => `latency profile TTFT ${p} ms, ${l.streams.toLocaleString('en-US')} streams`;
  return [
    ...['p50', 'p90', 'p99'].map((p) => ratioRow(label(p), l.measured[`${p}Ms`], l.configured[`${p}Ms`], '(configured)', { atMost: 1.1 })),
    limitRow('latency profile: mock main thread waiting for a core, % of the run', waitingPercent({ mainThread: l.mainThread })),
    limitRow("latency profile: the bench's client late to send, p50 ms", l.clientConnectLateP50Ms),
    limitRow('latency profile: waves let go on their own (headers p99 under 200 ms), of 10', l.wavesApart),
    // The floor: bare node:http's first token over its fixed pause (the profile's median), same client and waves.
    limitRow('latency profile floor: bare node:http TTFT p50 ms, its first pause fixed', l.bare.p50Ms, { baseline: l.bare.firstChunkMs, baselineIs: '(its pause)' }),
    limitRow("latency profile floor: the bench's client late to send to bare, p50 ms", l.bare.clientConnectLateP50Ms),
  ];
}
