// Many streams, each on its own connection, with the time each took to its response headers and
// to its end, as its client saw them. autocannon would not do: it checks whether a fixed number
// of requests is done once a second, and does not time headers. Nor does node:http's client: on
// two cores the client shares the machine with the server it measures, and node:http's parser,
// streams and events a chunk cost about as much CPU as the server spends sending it, enough to
// make the client the bottleneck of 1,000 paced streams and to charge a server that sends more,
// smaller chunks for the client's time. So a stream is a plain socket that writes a request made
// once and reads the answer's bytes with the least parsing that finds its status, its first
// content chunk and its end (the chunked body's last chunk, or the connection's close).
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile } from './stats.js';
import { CHAT_PATH, HEADERS } from './workload.js';

const GIVE_UP_MS = 60_000;
/** A wave whose headers p99 came within this of its send was let go on its own, not held with the next. */
const WAVE_APART_MS = 200;
const CONTENT = Buffer.from('"delta":{"content":');
const HEAD_END = Buffer.from('\r\n\r\n');

/** The request's bytes, made once for every stream that sends it. */
function requestBytes(url, body, headers) {
  const { host } = new URL(url);
  const lines = Object.entries({ ...HEADERS, ...headers, host, 'content-length': Buffer.byteLength(body), connection: 'close' }).map(([name, value]) => `${name}: ${value}`);
  return Buffer.concat([Buffer.from(`POST ${CHAT_PATH} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`), Buffer.from(body)]);
}

/**
 * A chunked body read as it comes: its body bytes counted and its last chunk found, whatever
 * the bytes' split into reads. `feed` returns true once the last chunk has come.
 */
function chunkedBody() {
  let size = -1; // the chunk being read's bytes left; -1 while a size line is read
  let line = '';
  let crlfLeft = 0;
  let bodyBytes = 0;
  return {
    get bytes() {
      return bodyBytes;
    },
    feed(bytes, from) {
      let at = from;
      while (at < bytes.length) {
        if (crlfLeft > 0) {
          const skip = Math.min(crlfLeft, bytes.length - at);
          crlfLeft -= skip;
          at += skip;
        } else if (size < 0) {
          const eol = bytes.indexOf(10, at);
          line += bytes.toString('latin1', at, eol < 0 ? bytes.length : eol);
          if (eol < 0) return false;
          at = eol + 1;
          size = Number.parseInt(line, 16);
          line = '';
          if (size === 0) return true;
        } else {
          const take = Math.min(size, bytes.length - at);
          bodyBytes += take;
          size -= take;
          at += take;
          if (size === 0) {
            size = -1;
            crlfLeft = 2;
          }
        }
      }
      return false;
    },
  };
}

/** A body of `length` bytes (Infinity: until the connection closes). */
function sizedBody(length) {
  let bodyBytes = 0;
  return {
    open: length === Infinity,
    get bytes() {
      return bodyBytes;
    },
    feed(bytes, from) {
      bodyBytes += bytes.length - from;
      return bodyBytes >= length;
    },
  };
}

/** One request; resolves with `performance.now()` as it was sent, as its headers came and as it ended. */
function oneStream(port, request) {
  return new Promise((resolve, reject) => {
    const sentMs = performance.now();
    const socket = connect({ port, host: '127.0.0.1' });
    let head = Buffer.alloc(0);
    let headersMs;
    let firstContentMs;
    let status = 0;
    let body;
    let ended = false;
    // When this process saw the connection made and wrote the request: under load its own event
    // loop, shared with a thousand other streams, may be late by far more than the handshake.
    let connectedMs;
    socket.once('connect', () => (connectedMs = performance.now()));
    const end = () => {
      if (ended) return;
      ended = true;
      socket.destroy();
      if (status !== 200) reject(new Error(`a stream from port ${port} answered ${status}`));
      else resolve({ sentMs, connectedMs, headersMs, firstContentMs, endedMs: performance.now(), bytes: body.bytes });
    };
    socket.setTimeout(GIVE_UP_MS, () => socket.destroy(new Error(`a stream from port ${port} took over ${GIVE_UP_MS} ms`)));
    socket.on('data', (chunk) => {
      let from = 0;
      if (headersMs === undefined) {
        head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
        const headEnd = head.indexOf(HEAD_END);
        if (headEnd < 0) return;
        headersMs = performance.now();
        status = Number(head.toString('latin1', 9, 12));
        const fields = head.toString('latin1', 0, headEnd).toLowerCase();
        const length = /\r\ncontent-length: *(\d+)/.exec(fields);
        body = fields.includes('\r\ntransfer-encoding: chunked') ? chunkedBody() : length ? sizedBody(Number(length[1])) : sizedBody(Infinity);
        chunk = head;
        from = headEnd + HEAD_END.length;
      }
      // The first content chunk's arrival: the stream's time to first token, as a load test reads it.
      if (firstContentMs === undefined && chunk.indexOf(CONTENT, from) >= 0) firstContentMs = performance.now();
      if (body.feed(chunk, from)) end();
    });
    // A body without a length ends with its connection.
    socket.on('end', () => {
      if (body?.open) end();
      else if (!ended) socket.destroy(new Error(`a stream from port ${port} closed before its end`));
    });
    socket.on('error', (error) => {
      if (!ended) {
        ended = true;
        reject(error);
      }
    });
    // Written, not ended: a client that half-closes its side is taken by a server as gone.
    socket.write(request);
  });
}

/**
 * `count` requests sent together; any error or non-200 fails the run.
 * @returns `{ wallMs, p50Ms, bytesPerStream }`: until the last stream ended, and the median one
 */
export async function streamsAtOnce(url, body, count) {
  // A function gives each stream a body of its own, made before the clock starts.
  const one = typeof body === 'function' ? undefined : requestBytes(url, body, {});
  const requests = Array.from({ length: count }, () => one ?? requestBytes(url, body(), {}));
  const { port } = new URL(url);
  const started = performance.now();
  const streams = await Promise.all(requests.map((request) => oneStream(port, request)));
  const ended = streams.map((stream) => stream.endedMs - started).sort((a, b) => a - b);
  return { wallMs: ended[ended.length - 1], p50Ms: ended[Math.floor(ended.length / 2)], bytesPerStream: streams[0].bytes };
}

/**
 * `streams` requests opened in `waves` equal groups `gapMs` apart, as clients of a real service
 * arrive (one wave: all in the same instant), held to their end; any error or non-200 fails the run.
 * Percentiles are over every stream: `latency*` from sending to the end, `headers*` from sending
 * to the response headers, `firstToken*` to the first content chunk, `afterFirstToken*` from it
 * to the end; `slowestFirstTokenMs` is the median first token of the streams at or past the
 * `latency` p99; `headersP99ByWaveMs` each wave's own headers p99, in the order they were sent,
 * and `wavesApart` how many of them came within WAVE_APART_MS;
 * `connectLate*` from sending to when this process saw the connection made and
 * wrote the request (its own delay, not the server's).
 */
export async function streamsInWaves(url, body, { streams, waves, gapMs = 0, headers }) {
  const size = Math.ceil(streams / waves);
  const request = requestBytes(url, body, headers);
  const { port } = new URL(url);
  const started = performance.now();
  const byWave = await Promise.all(
    Array.from({ length: waves }, async (_, wave) => {
      await sleep(wave * gapMs);
      return Promise.all(Array.from({ length: size }, () => oneStream(port, request)));
    }),
  );
  const all = byWave.flat();
  const durationS = (performance.now() - started) / 1000;
  const toEnd = all.map((stream) => stream.endedMs - stream.sentMs);
  const toHeaders = all.map((stream) => stream.headersMs - stream.sentMs);
  const toConnect = all.map((stream) => stream.connectedMs - stream.sentMs);
  const toContent = all.filter((stream) => stream.firstContentMs !== undefined).map((stream) => stream.firstContentMs - stream.sentMs);
  // Where the slowest streams lost their time: before their first token (the request's intake and
  // the first pause) or after it (the paced events and the end), whose deadlines are fixed.
  const afterContent = all.map((stream) => stream.endedMs - stream.firstContentMs);
  const endP99 = percentile(toEnd, 99);
  const headersP99ByWaveMs = byWave.map((wave) => percentile(wave.map((stream) => stream.headersMs - stream.sentMs), 99));
  const slowest = all.filter((stream) => stream.endedMs - stream.sentMs >= endP99);
  return {
    requestsPerSecond: all.length / durationS,
    completed: all.length,
    latencyP50Ms: percentile(toEnd, 50),
    latencyP99Ms: percentile(toEnd, 99),
    latencyMaxMs: Math.max(...toEnd),
    headersP50Ms: percentile(toHeaders, 50),
    headersP99Ms: percentile(toHeaders, 99),
    headersMaxMs: Math.max(...toHeaders),
    // Waves whose requests the server held together (state/event-loop.ts) read alike here.
    headersP99ByWaveMs,
    // Which outcome a paced run got: a wave whose headers came late was held with the waves after
    // it while their connections came in (state/event-loop.ts), and the gathered requests' work
    // then came as their first pauses ran out (docs/performance.md, round twenty-one).
    wavesApart: headersP99ByWaveMs.filter((ms) => ms < WAVE_APART_MS).length,
    connectLateP50Ms: percentile(toConnect, 50),
    ...(toContent.length === all.length && {
      firstTokenP50Ms: percentile(toContent, 50),
      firstTokenP90Ms: percentile(toContent, 90),
      firstTokenP99Ms: percentile(toContent, 99),
      afterFirstTokenP99Ms: percentile(afterContent, 99),
      slowestFirstTokenMs: percentile(slowest.map((stream) => stream.firstContentMs - stream.sentMs), 50),
    }),
    bytesPerSecond: all.reduce((sum, stream) => sum + stream.bytes, 0) / durationS,
    durationS,
  };
}
