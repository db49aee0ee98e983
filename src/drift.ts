// `model-gateway-mock drift --upstream URL`: each recorded turn (a fixture with `match.fingerprint`
// and the `request:` that `--record` kept) and each `drift:` entry is asked of the upstream and of
// the mock itself, a mock assembled here on the same fixtures and asked in process, and the two
// answers are compared by shape (styles/drift-shapes.ts). Exit 0 without findings, 1 with
// findings, 2 when the upstream could not be asked or answered past the bounds (15 s a request,
// 16 MB an answer, 1,000 levels of nesting).
import { request as httpRequest, Agent as HttpAgent, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { resolve } from 'node:path';
import { createParser } from 'eventsource-parser';
import inject from 'light-my-request';
import { LoadCache } from './config/load.js';
import { findYamlFiles } from './config/files.js';
import type { DriftCase, DriftResult } from './drift-report.js';
import { assembleMock } from './mock-app.js';
import { chatParams, STYLE_ENTRIES, styleEntry, type StyleEntry } from './styles/registry.js';
import { measureBody } from './styles/body-shape.js';
import { compareShapes, type ShapedAnswer } from './styles/drift-shapes.js';

interface Asked extends DriftCase {
  path: string;
  body: unknown;
}

/** How many requests are in flight at once, to each side. */
const CONCURRENCY = 16;

/** How long one request to the upstream may take, answer included, unless the run says otherwise. */
export const DRIFT_TIMEOUT_MS = 15_000;

/** Past these an upstream's answer is no gateway's: the run ends rather than hold or walk it. */
const ANSWER_MAX_BYTES = 16 * 1024 * 1024;
const ANSWER_MAX_DEPTH = 1000;

function styleOfPath(path: string): StyleEntry | undefined {
  const bare = path.split('?')[0]!;
  return STYLE_ENTRIES.find((entry) => chatParams(entry, bare) !== undefined);
}

/**
 * The requests to ask: recorded turns and `drift:` entries, file by file, in order. Each file's
 * data is the mock's own load of it (`cache`): no file is read or parsed twice.
 */
function driftCases(dirs: readonly string[], cache: LoadCache): Asked[] {
  const cases: Asked[] = [];
  for (const dir of dirs) {
    for (const file of findYamlFiles(dir).files) {
      const data = (cache.fixturesData(file) ?? {}) as {
        chat?: Array<{ name?: string; match?: { fingerprint?: string }; request?: { path: string; body: unknown } }>;
        drift?: Array<{ name?: string; path: string; style?: string; request: unknown }>;
      };
      data.chat?.forEach((fixture, index) => {
        if (!fixture.match?.fingerprint || !fixture.request) return;
        const style = styleOfPath(fixture.request.path)?.style.name ?? '-';
        const name = fixture.name ?? `chat[${index}]`;
        cases.push({ name, file, endpoint: `POST ${fixture.request.path}`, style, path: fixture.request.path, body: fixture.request.body });
      });
      data.drift?.forEach((entry, index) => {
        const style = entry.style ?? styleOfPath(entry.path)?.style.name ?? '-';
        cases.push({ name: entry.name ?? `drift[${index}]`, file, endpoint: `POST ${entry.path}`, style, path: entry.path, body: entry.request });
      });
    }
  }
  return cases;
}

/** The headers a style's client sends: its key where it presents it, and what the vendor requires. */
function headersFor(style: StyleEntry | undefined, key: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const keyHeader = style?.keyHeader ?? 'authorization';
  headers[keyHeader] = keyHeader === 'authorization' ? `Bearer ${key}` : key;
  for (const name of style?.requiredHeaders ?? []) if (name === 'anthropic-version') headers[name] = '2023-06-01';
  return headers;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An answer read whole: its JSON body, or its SSE events. */
function answerOf(status: number, given: IncomingHttpHeaders | OutgoingHttpHeaders, text: string): ShapedAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  if (!headers['content-type']?.startsWith('text/event-stream')) return { status, headers, body: parsed(text) };
  const events: Array<{ event: string | null; data: unknown }> = [];
  const parser = createParser({ onEvent: (event) => events.push({ event: event.event ?? null, data: parsed(event.data) }) });
  parser.feed(text);
  return { status, headers, events };
}

/** Thrown when the upstream could not be asked, or answered past the bounds: the command exits 2. */
export class UpstreamUnreachable extends Error {}

/** The upstream's answer, refused when it nests past what the comparison walks. */
function boundedAnswer(answer: ShapedAnswer): ShapedAnswer {
  const values = answer.events ? answer.events.map((event) => event.data) : [answer.body];
  if (values.some((value) => !measureBody(value, ANSWER_MAX_DEPTH).withinDepth)) throw new Error(`answered JSON nested deeper than ${ANSWER_MAX_DEPTH} levels`);
  return answer;
}

/**
 * Asks over node:http (https) on kept-alive sockets: fetch spent three times its CPU per request,
 * which over hundreds of turns was a good part of the command's time.
 */
class Upstream {
  private readonly agent: HttpAgent;
  private readonly request: typeof httpRequest;

  constructor(
    private readonly base: string,
    private readonly key: string,
    private readonly timeoutMs: number,
  ) {
    const secure = base.startsWith('https:');
    this.agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: CONCURRENCY }) : new HttpAgent({ keepAlive: true, maxSockets: CONCURRENCY });
    this.request = secure ? httpsRequest : httpRequest;
  }

  ask(asked: Asked): Promise<ShapedAnswer> {
    const body = JSON.stringify(asked.body);
    const headers = { ...headersFor(styleEntry(asked.style), this.key), 'content-length': Buffer.byteLength(body) };
    return new Promise<ShapedAnswer>((done, fail) => {
      const url = new URL(`${this.base.replace(/\/+$/, '')}${asked.path}`);
      const request = this.request(url, { method: 'POST', headers, agent: this.agent, signal: AbortSignal.timeout(this.timeoutMs) }, (response) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          bytes += chunk.length;
          if (bytes > ANSWER_MAX_BYTES) request.destroy(new Error(`answered more than ${ANSWER_MAX_BYTES / 1024 / 1024} MB`));
        });
        response.on('end', () => {
          try {
            done(boundedAnswer(answerOf(response.statusCode ?? 0, response.headers, Buffer.concat(chunks).toString('utf8'))));
          } catch (error) {
            fail(error);
          }
        });
        response.on('error', fail);
      });
      request.on('error', (error) => fail(error.name === 'AbortError' ? new Error(`did not answer within ${this.timeoutMs} ms`) : error));
      request.end(body);
    }).catch((error: NodeJS.ErrnoException) => {
      // A refused connection to a name with two addresses is an AggregateError without a message.
      throw new UpstreamUnreachable(`${this.base} could not be asked (${asked.endpoint}): ${error.message || error.code}`);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The mock asked in process: its app's request listener, no socket between. */
async function askMock(listener: Parameters<typeof inject>[0], asked: Asked): Promise<ShapedAnswer> {
  const response = await inject(listener, { method: 'POST', url: asked.path, headers: headersFor(styleEntry(asked.style), 'drift'), payload: JSON.stringify(asked.body) });
  return answerOf(response.statusCode, response.headers, response.payload);
}

const failed = (answer: ShapedAnswer): boolean => answer.status >= 400;

/** What the error answer says, when it says it the vendors' way. */
function errorMessage(answer: ShapedAnswer): string {
  const message = (answer.body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' ? `: ${message}` : '';
}

/**
 * Why an answer cannot be set beside the other: one side refused the request and the other
 * answered it (a retired model upstream, a request the mock does not take). An error envelope
 * against an answer would only list every path of both as drift.
 */
function refusal(theirs: ShapedAnswer, ours: ShapedAnswer): string | undefined {
  if (failed(theirs) === failed(ours)) return undefined;
  const [who, refused, other] = failed(ours) ? ['the mock', ours, theirs] : ['the upstream', theirs, ours];
  return `${who} answered ${refused.status}${errorMessage(refused)} where the other answered ${other.status}`;
}

export interface DriftRun {
  upstream: string;
  fixtures: readonly string[];
  /** The upstream's key (UPSTREAM_API_KEY); a stand-in without one. */
  key?: string;
  /** How long one request to the upstream may take (default DRIFT_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** Asks every case of both sides, `CONCURRENCY` at a time, and returns the results in case order. */
export async function runDrift(run: DriftRun): Promise<DriftResult[]> {
  const cache = new LoadCache();
  // One list for the mock's load and for the cases read from it, so each file has one name.
  const fixtures = run.fixtures.map((dir) => resolve(dir));
  const { mock, listener } = assembleMock({ fixtures, watch: false }, { cache });
  const cases = driftCases(fixtures, cache);
  const upstream = new Upstream(run.upstream, run.key ?? 'drift', run.timeoutMs ?? DRIFT_TIMEOUT_MS);
  try {
    const results: DriftResult[] = new Array(cases.length);
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const index = next++;
        const { path: _path, body: _body, ...drift } = cases[index]!;
        try {
          const [theirs, ours] = await Promise.all([upstream.ask(cases[index]!), askMock(listener, cases[index]!)]);
          const refused = refusal(theirs, ours);
          results[index] = refused ? { case: drift, findings: [], error: refused } : { case: drift, findings: compareShapes(theirs, ours) };
        } catch (error) {
          next = cases.length; // the other workers ask nothing more
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, cases.length) }, worker));
    return results;
  } finally {
    upstream.close();
    await mock.store.close();
  }
}
