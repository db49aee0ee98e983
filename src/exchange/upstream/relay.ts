// A request no fixture answers, forwarded: the upstream's answer is relayed as it arrives, the
// journal notes where it went, and with --record the exchange is kept as a fixture once it ended.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNAL_ANSWER_MAX, type Plan, type RelayedAnswer } from '../../conversation/plan.js';
import { turnForBytes } from '../../state/event-loop.js';
import type { Exchange, Notes } from '../exchange.js';
import type { Mock } from '../mock.js';
import { Capture, REDACTED } from './capture.js';
import { forward } from './forward.js';

/**
 * With --record, a forwarded answer is kept up to this size for its recording (a video's MP4, an
 * image's base64, a chat answer); a larger one is relayed whole but not recorded. Without
 * --record only what the journal shows is kept.
 */
export const RECORDED_ANSWER_MAX = 64 * 1024 * 1024;

/** A finished exchange as the recorder reads it. */
export interface Relayed {
  status: number;
  headers: Record<string, string>;
  /** What was said, parsed: the JSON body or the stream's events. */
  answer(): RelayedAnswer;
  bytes(): Buffer;
  timing: { first_chunk_ms: number; chunk_ms: number } | undefined;
}

/** Writes what a finished exchange should become under the record directory; answers the file written, relative to it. */
export type Recorder = (relayed: Relayed, dir: string) => string | undefined;

function sameContent(path: string, content: string | Uint8Array): boolean {
  try {
    return readFileSync(path).equals(typeof content === 'string' ? Buffer.from(content) : content);
  } catch {
    return false;
  }
}

/** A file appears whole or not at all: the watcher never loads half of one. */
export function writeAtomically(dir: string, file: string, content: string | Uint8Array): void {
  // The same exchange recorded again gives the same bytes: leave the file, and the watcher, alone.
  if (sameContent(join(dir, file), content)) return;
  const temporary = join(dir, `.${file.replace(/\//g, '_')}.${process.pid}.tmp`);
  writeFileSync(temporary, content);
  renameSync(temporary, join(dir, file));
}

/** Never journaled (SPEC 12): credentials and cookies, whoever sent them. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie', 'set-cookie']);

/** The upstream's headers as the journal shows them: no credentials or cookies, no UPSTREAM_API_KEY in any value. */
function shownHeaders(headers: Record<string, string>, secret: string | undefined): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADERS.has(name)) shown[name] = secret ? value.replaceAll(secret, REDACTED) : value;
  }
  return shown;
}

/**
 * Forwards the request and plans its answer as it arrives. What is known at once (where it went,
 * the status) comes back as notes; what is known only when the answer ended (how long it took,
 * the recording written) is the `late` promise, resolved once the writer is through the body.
 */
/** What a relayed answer used, read from it once it ended whole (the tokens the upstream counted). */
export type Meter = (answer: RelayedAnswer) => Notes['metered'];

export async function relay(
  mock: Mock,
  exchange: Exchange,
  recorder?: Recorder,
  meter?: Meter,
): Promise<{ plan: Plan & { kind: 'relay' }; notes: Partial<Notes>; late: Promise<Partial<Notes>>; complete: () => boolean }> {
  const upstream = exchange.upstream!;
  const bodyBytes = exchange.rawBody?.length ?? 0;
  // fetch copies a body as it sends it (twice, on fresh pages): three hundred large bodies read
  // over many turns went out in one, and held the loop 115-136 ms. They go out a turn's bytes at a time.
  const sending = turnForBytes(bodyBytes);
  if (sending) await sending;
  const started = performance.now();
  const forwarded = await forward(upstream, exchange);
  // Answers to large forwarded bodies come back together as they went: journaling them takes turns too.
  const turn = turnForBytes(bodyBytes);
  if (turn) await turn;
  const upstreamNote = { url: forwarded.shownUrl, status: forwarded.status, duration_ms: 0 };
  const keepMax = upstream.record && recorder ? RECORDED_ANSWER_MAX : JOURNAL_ANSWER_MAX;
  const capture = new Capture(forwarded.headers['content-type'] ?? '', started, () => performance.now(), keepMax, upstream.key);
  const recorded = (): string | null => {
    const dir = upstream.record;
    if (!capture.complete || !recorder || !dir) return null;
    if (!capture.whole) {
      mock.log('error', `${exchange.method} ${exchange.path} not recorded: the upstream's answer is over ${RECORDED_ANSWER_MAX} bytes`);
      return null;
    }
    try {
      const relayed = { status: forwarded.status, headers: forwarded.headers, answer: () => capture.answer(), bytes: () => capture.bytes(), timing: capture.timing() };
      const file = recorder(relayed, dir) ?? null;
      // The mock's own write is whole: loaded now, not once the watcher has seen it settle.
      if (file !== null) {
        mock.log('info', `${exchange.method} ${exchange.path} recorded into ${join(dir, file)}`);
        setImmediate(() => mock.store.loadOwnWrite(join(dir, file)));
      }
      return file;
    } catch (error) {
      mock.log('error', `recording ${exchange.method} ${exchange.path} failed: ${(error as Error).message}`);
      return null;
    }
  };
  let ended!: (notes: Partial<Notes>) => void;
  const late = new Promise<Partial<Notes>>((resolve) => (ended = resolve));
  async function* body(): AsyncIterable<Uint8Array> {
    try {
      yield* capture.through(forwarded.body);
    } finally {
      const duration_ms = Math.round((performance.now() - started) * 10) / 10;
      const metered = meter && capture.complete && capture.whole && forwarded.status < 400 ? meter(capture.answer()) : null;
      ended({ upstream: { ...upstreamNote, duration_ms }, recorded: recorded(), metered });
    }
  }
  return {
    plan: {
      kind: 'relay',
      status: forwarded.status,
      headers: forwarded.headers,
      shownHeaders: shownHeaders(forwarded.headers, upstream.key),
      body: body(),
      answered: (maxChars) => capture.answer(maxChars),
    },
    notes: { upstream: upstreamNote },
    late,
    // Whether the whole answer went through: a client that left mid-stream leaves half of one.
    complete: () => capture.complete,
  };
}
