// The second request path: a plain request to a chat door, answered from Node's request handler
// without Koa (its context, its middleware chain and its promises, its response helpers). What
// the frame and the route do to it are the same functions the Koa path runs (frame.ts, the row's
// checks and operation from routes.ts, body.ts's reader, the writer, record.ts), called on a
// context of its own. Anything else goes to Koa before a byte of its body is read.
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
import { pipeline, Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { atFirstUse } from '../conversation/first-use.js';
import type { Mock } from '../exchange/mock.js';
import { isLarge } from '../state/large-bodies.js';
import { checkSessionId, DEFAULT_SESSION } from '../state/sessions.js';
import { AnswerHead } from './answer-head.js';
import { readPlainJson } from './body.js';
import { caught, cors, finish, openRequest } from './frame.js';
import { isPlainJson } from './json-body.js';
import type { OpenStreams } from './open-streams.js';
import { record } from './record.js';
import { turnOf, type ModelRow, type PlainRows } from './routes.js';
import type { DualListener } from './shared-port.js';
import type { ShellContext, ShellRequest } from './shell-context.js';
import type { MockState } from './state.js';

const mimeTypes = atFirstUse<{ contentType(type: string): string | false }>('mime-types');

/** No query, no parameters: a chat door's plain request has neither. */
const NO_QUERY: ParsedUrlQuery = Object.freeze({});
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

class PlainRequest implements ShellRequest {
  body?: unknown;
  readonly querystring = '';
  readonly query = NO_QUERY;

  constructor(
    readonly path: string,
    readonly protocol: string,
    readonly host: string,
  ) {}

  /** Its body is JSON, never a form: the multipart test is the only one the shell asks. */
  is(): false {
    return false;
  }
}

/** The headers the journal shows: the hit's own until Node's response holds them. */
class AnswerHeaders {
  constructor(private readonly hit: PlainHit) {}

  get headers(): OutgoingHttpHeaders {
    return this.hit.handed ? this.hit.res.getHeaders() : this.hit.head.headers;
  }
}

/** What Koa's context does for the shell's functions, on Node's request and response directly. */
class PlainHit implements ShellContext {
  readonly state = {} as MockState;
  readonly method = 'POST';
  readonly query = NO_QUERY;
  readonly params = NO_PARAMS;
  readonly request: PlainRequest;
  readonly response: AnswerHeaders;
  /** The route as the table writes it, for the metrics' label (what the router leaves on Koa's context). */
  readonly _matchedRoute: string;
  /** The status line's and headers' parts, until the answer is written or Node's response takes them. */
  readonly head = new AnswerHead();
  /** Whether Node's response holds the headers (the writer took it in hand, or Node writes the answer). */
  handed = false;
  private taken?: boolean;
  private answer: unknown;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly path: string,
    host: string,
  ) {
    this.request = new PlainRequest(path, (req.socket as TLSSocket).encrypted ? 'https' : 'http', host);
    this.response = new AnswerHeaders(this);
    this._matchedRoute = path;
    // What Koa's status is until something answers.
    res.statusCode = 404;
  }

  get headers(): IncomingHttpHeaders {
    return this.req.headers;
  }

  get respond(): boolean | undefined {
    return this.taken;
  }

  /** False when the writer takes the response in hand (a stream) or a client left: the headers said so far go to Node's response. */
  set respond(value: boolean | undefined) {
    if (value === false) this.handOver();
    this.taken = value;
  }

  get status(): number {
    return this.res.statusCode;
  }

  set status(code: number) {
    this.res.statusCode = code;
  }

  get body(): unknown {
    return this.answer;
  }

  /** As Koa's: a text or bytes with its length; a stream of pieces has its length set apart. */
  set body(value: unknown) {
    this.answer = value;
    if (typeof value === 'string') this.length = Buffer.byteLength(value);
    else if (Buffer.isBuffer(value)) this.length = value.length;
  }

  /** A number, as Koa keeps it: the journal shows the response's headers as set. */
  set length(bytes: number) {
    if (!this.res.headersSent) this.header('content-length', bytes);
  }

  /** As Koa's: the type looked up (a charset added to text), or none. */
  set type(type: string) {
    const full = mimeTypes().contentType(type);
    if (full) this.set('content-type', full);
    else if (this.handed) this.res.removeHeader('content-type');
    else this.head.remove('content-type', this.res);
  }

  get(field: string): string {
    const value = this.req.headers[field.toLowerCase()];
    return typeof value === 'string' ? value : (value?.join(', ') ?? '');
  }

  set(field: Record<string, string> | string, value?: string): void {
    if (this.res.headersSent) return;
    if (typeof field === 'string') this.header(field, value!);
    else for (const name in field) this.header(name, field[name]!);
  }

  /** Kept with the hit's own head, or set on Node's response once it holds them. */
  private header(name: string, value: string | number): void {
    if (this.handed) this.res.setHeader(name, value);
    else this.head.set(name, value);
  }

  /** A stream's head spelled by the hit itself (answer-head.ts), the response then out of the shell's hands; false when Node's `writeHead` must make it. */
  headStream(status: number, own: Readonly<Record<string, string>>): boolean {
    if (this.handed || !this.head.writeStreamHead(this.res, status, own)) return false;
    this.taken = false;
    return true;
  }

  private handOver(): void {
    if (this.handed) return;
    this.handed = true;
    this.head.handTo(this.res);
  }

  /** After its headers nothing more can be said to the client, as Koa's silent app does nothing more. */
  onerror(): void {}

  /** Koa's `respond`: the body set, unless the writer took the response in hand; a text in one write with its head when it may be. */
  end(): void {
    if (this.taken === false) return;
    const body = this.answer;
    if (typeof body === 'string' && this.head.writeWhole(this.res, body)) return;
    this.handOver();
    // An error of the pieces has nowhere to go but the cut it makes, as in Koa's silent app.
    if (body instanceof Readable) pipeline(body, this.res, () => {});
    else this.res.end(body as string | Buffer | undefined);
  }
}

/**
 * The row a request may take without Koa, with its Host, or undefined: a POST of a small plain
 * JSON body (announced, not compressed, within the row's limit) to a chat door, on HTTP/1.1,
 * without a query, with a session header the frame takes, to a mock with no upstream (what may be
 * relayed keeps its raw body and its client's signal). Everything else is Koa's.
 */
export function plainRow(mock: Mock, rows: PlainRows, req: Pick<IncomingMessage, 'method' | 'httpVersionMajor' | 'url' | 'headers'>): { row: ModelRow; host: string } | undefined {
  if (req.method !== 'POST' || req.httpVersionMajor !== 1 || mock.options.upstream) return undefined;
  const row = rows.get(req.url!);
  if (!row) return undefined;
  const headers = req.headers;
  const announced = Number(headers['content-length']);
  if (!(announced > 0) || isLarge(announced) || announced > row.bodyLimit || headers['content-encoding'] !== undefined) return undefined;
  if (!isPlainJson(headers['content-type'])) return undefined;
  const host = headers.host;
  // Koa's host is the first of several, and the URL's without any user part.
  if (!host || host.includes(',') || host.includes('@')) return undefined;
  const session = headers['x-mock-session'];
  if (session !== undefined && (typeof session !== 'string' || !sessionTaken(session))) return undefined;
  return { row, host };
}

function sessionTaken(id: string): boolean {
  try {
    checkSessionId(id, 'x-mock-session');
    return true;
  } catch {
    return false;
  }
}

/** The frame and the row's steps, as Koa's app and chain run them. */
async function answer(mock: Mock, hit: PlainHit, row: ModelRow, streams: OpenStreams, end: (ctx: ShellContext) => void): Promise<void> {
  const started = performance.now();
  cors(hit);
  openRequest(mock, hit, (hit.req.headers['x-mock-session'] as string | undefined) || DEFAULT_SESSION, started, end, streams);
  try {
    for (const check of row.checks) check(hit);
    await readPlainJson(hit, row.bodyLimit);
    const turn = turnOf(hit);
    if (!turn || (await turn)) await row.answer(hit);
  } catch (error) {
    caught(mock, hit, error);
  }
  if (!hit.state.detached) record(mock, hit, started);
  hit.end();
}

/** Node's request listener: a plain hit answered here, anything else by `koa`. */
export function plainFirst(mock: Mock, rows: PlainRows, streams: OpenStreams, koa: DualListener): DualListener {
  const end = finish(mock);
  return (req, res) => {
    const plain = plainRow(mock, rows, req);
    if (!plain) return koa(req, res);
    // HTTP/1.1 only, so Node's own request and response.
    answer(mock, new PlainHit(req as IncomingMessage, res as ServerResponse, req.url!, plain.host), plain.row, streams, end).catch((error: unknown) => {
      mock.log('error', `POST ${req.url}: ${(error as Error).stack ?? String(error)}`);
      res.destroy();
    });
  };
}
