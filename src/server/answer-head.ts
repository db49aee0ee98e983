// A plain hit's status line and headers, kept by the hit rather than on Node's response, and its
// whole answer written to the socket in one write. Node's ServerResponse would store each header
// in its map, copy the map for the journal, check every header again as it spells the head, and
// write the head and the body through the socket's corked `writev`: about 7 % of a hit's busy
// samples. What Node's response does for the connection's next request (the keep-alive timer, a
// pipelined answer waiting its turn, `Connection: close`, 'finish' and 'close' for their
// listeners) is still its own: it is ended as one whose head was already sent, and its 'finish'
// comes after the socket took the bytes, as with its own write. A stream's head is spelled here
// too and left on Node's response as its `writeHead` leaves one, to go with the stream's first
// write: Node's map of headers and its checks of each header again were about 3.5 % of a fresh
// server's busy samples under a burst of streams.
import { ServerResponse, STATUS_CODES, validateHeaderName, validateHeaderValue, type OutgoingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';
import { HEADER_VALUE } from '../conversation/header-rules.js';

/**
 * Headers whose names change what Node does with the connection or the body (its `matchHeader`,
 * Content-Length apart: it is checked to be the number the shell set), and `__proto__`, which a
 * plain object cannot hold: an answer that sets or removes one is written by Node.
 */
const NODE_READS = new Set(['connection', 'transfer-encoding', 'date', 'expect', 'trailer', 'keep-alive', '__proto__']);

/** Node's ServerResponse fields this module reads or sets (lib/_http_outgoing.js, _http_server.js). */
interface NodeResponse {
  _header: string | null;
  _headerSent: boolean;
  _last: boolean;
  _hasBody: boolean;
  _keepAliveTimeout: number;
  _maxRequestsPerSocket: number;
  _defaultKeepAlive: boolean;
  _removedConnection: boolean;
  _expect_continue: boolean;
  _removedTE: boolean;
  _removedContLen: boolean;
  _contentLength: number | null;
  chunkedEncoding: boolean;
  useChunkedEncodingByDefault: boolean;
  maxRequestsOnConnectionReached: boolean;
}

/** Node's test of a `Connection` header's value for a connection to close after the answer. */
const CONNECTION_CLOSE = /(?:^|\W)close(?:$|\W)/i;

/** Header names already checked, with their keys: an answer sets the same few names every time. */
const checkedNames = new Map<string, string>();
/** Past this many names the memo starts again (names come from the mock and its files, not from clients). */
const CHECKED_NAMES_MAX = 256;

/**
 * `name`'s key (its lowercase), the header checked as Node's `setHeader` checks it and with
 * Node's own errors; a name is checked once, and a plain text value by Node's own pattern, which
 * spares Node's two checks and their error wrappers on every header of every answer.
 */
function checkedKey(name: string, value: unknown): string {
  let key = checkedNames.get(name);
  if (key === undefined) {
    validateHeaderName(name);
    key = name.toLowerCase();
    if (checkedNames.size >= CHECKED_NAMES_MAX) checkedNames.clear();
    checkedNames.set(name, key);
  }
  if (typeof value !== 'string' || !HEADER_VALUE.test(value)) validateHeaderValue(name, value as string);
  return key;
}

/** `checkedKey`, or undefined where Node's `setHeader` would throw. */
function settableKey(name: string, value: string): string | undefined {
  try {
    return checkedKey(name, value);
  } catch {
    return undefined;
  }
}

/** The Date header, made once a second as Node makes it (its `utcDate`): the wire's real time, not the mock's clock. */
let date: string | undefined;
function utcDate(): string {
  if (date === undefined) {
    const now = new Date();
    date = now.toUTCString();
    setTimeout(() => (date = undefined), 1000 - now.getMilliseconds()).unref();
  }
  return date;
}

let keptTimeout = -1;
let keptMax = -1;
let keepAliveLines = '';
/** What Node's `_storeHeader` adds for a connection kept open, made again only when the server's settings change. */
function keepAliveTail(timeoutMs: number, max: number, announced: boolean): string {
  if (!announced) return 'Connection: keep-alive\r\n';
  if (timeoutMs !== keptTimeout || max !== keptMax) {
    keptTimeout = timeoutMs;
    keptMax = max;
    keepAliveLines = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(timeoutMs / 1000)}${~~max > 0 ? `, max=${max}` : ''}\r\n`;
  }
  return keepAliveLines;
}

export class AnswerHead {
  /**
   * As Node's `getHeaders()` gives them: lowercased names in the order first set, values as set.
   * An object literal rather than Node's prototype-less one, which V8 keeps as a hash table: its
   * fields are added, listed and turned into JSON in about 2 µs a hit rather than 3.5.
   */
  readonly headers: OutgoingHttpHeaders = {};
  /** A name as it was set, where that is not its lowercase (Node writes the name as set last). */
  private cased: Record<string, string> | undefined;
  /** Whether a header's name or value needs Node's own writing (a list, or a name of NODE_READS). */
  private byNode = false;

  /** Checked as Node's `setHeader` checks it, so a bad header throws where it is set. */
  set(name: string, value: string | number | readonly string[]): void {
    const key = checkedKey(name, value);
    // `__proto__` would set the object's prototype rather than a field.
    if (key === '__proto__') Object.defineProperty(this.headers, key, { value, enumerable: true, writable: true, configurable: true });
    else this.headers[key] = value as string | number | string[];
    if (key !== name) (this.cased ??= Object.create(null) as Record<string, string>)[key] = name;
    else if (this.cased !== undefined) delete this.cased[key];
    if (typeof value === 'object' || NODE_READS.has(key)) this.byNode = true;
  }

  /** Node's `removeHeader` on `res` too, for the flags it sets there (no Date, no Content-Length...). */
  remove(name: string, res: ServerResponse): void {
    const key = name.toLowerCase();
    delete this.headers[key];
    res.removeHeader(name);
    if (NODE_READS.has(key)) this.byNode = true;
  }

  /** The headers given to Node's response, as the shell would have set them there. */
  handTo(res: ServerResponse): void {
    for (const key in this.headers) res.setHeader(this.cased?.[key] ?? key, this.headers[key]!);
  }

  /**
   * Whether this may spell `res`'s head as Node would for an answer of `status` with a body: its
   * headers all plain, Node's own response on its own socket with nothing before it, the status
   * one with a body and its own message, and none of Node's settings this does not spell. A
   * response that is not Node's own on a socket (an in-process request of light-my-request's
   * `inject`, as `drift` asks the mock) reads what goes through its `end`.
   */
  private spelledHere(res: ServerResponse, status: number): boolean {
    const socket = res.socket as (Socket & { _httpMessage?: unknown }) | null;
    const node = res as unknown as NodeResponse;
    if (this.byNode || !(socket instanceof Socket) || Object.getPrototypeOf(res) !== ServerResponse.prototype) return false;
    if (socket._httpMessage !== res || !socket.writable || node._header !== null) return false;
    if (status < 200 || status === 204 || status === 304 || !node._hasBody || res.statusMessage || !res.sendDate) return false;
    return !node._removedConnection && !node._expect_continue && !node.maxRequestsOnConnectionReached;
  }

  /**
   * `body` with its head in one write straight to the socket, and `res` ended as Node ends a
   * response whose head went with its first chunk. False, having done nothing, when Node must
   * write it (see `spelledHere`; and a body without its Content-Length).
   */
  writeWhole(res: ServerResponse, body: string): boolean {
    const node = res as unknown as NodeResponse;
    const status = res.statusCode;
    if (!this.spelledHere(res, status) || typeof this.headers['content-length'] !== 'number') return false;
    const message = STATUS_CODES[status] ?? 'unknown';
    let head = this.spelled(status, message);
    if (res.shouldKeepAlive) head += keepAliveTail(node._keepAliveTimeout, node._maxRequestsPerSocket, node._keepAliveTimeout > 0 && node._defaultKeepAlive);
    else {
      head += 'Connection: close\r\n';
      node._last = true;
    }
    head += '\r\n';
    res.statusMessage = message;
    node._header = head;
    node._headerSent = true;
    res.socket!.write(head + body);
    // With its head sent and nothing of its own to write, Node's `end` emits 'finish' once the
    // socket has taken what is queued on it, and the server then serves the connection's next request.
    res.end();
    return true;
  }

  /**
   * A stream's head, as Node's `writeHead(status, own)` after the hit's headers makes it: the
   * hit's headers, the stream's `own` added to them, its Date and Transfer-Encoding lines. Kept on
   * `res` as Node keeps a head it made, to go with the stream's first write, without Node's map
   * of headers or its checks of every header again. False, having done nothing, when Node must
   * make it (see `spelledHere`; and a stream header Node would refuse, one whose name is not in
   * lowercase, one of NODE_READS besides the `connection` every HTTP/1 stream says, a length, or
   * an HTTP/1.0 client's answer).
   */
  writeStreamHead(res: ServerResponse, status: number, own: Readonly<Record<string, string>>): boolean {
    const node = res as unknown as NodeResponse;
    if (!this.spelledHere(res, status) || this.headers['content-length'] !== undefined || own.connection === undefined) return false;
    if (!node.useChunkedEncodingByDefault || node._removedTE || node._removedContLen || node._contentLength !== null) return false;
    for (const name in own) {
      if (settableKey(name, own[name]!) !== name || (name !== 'connection' && (NODE_READS.has(name) || name === 'content-length'))) return false;
    }
    for (const name in own) {
      this.headers[name] = own[name];
      if (this.cased !== undefined) delete this.cased[name];
    }
    const message = STATUS_CODES[status] ?? 'unknown';
    if (CONNECTION_CLOSE.test(own.connection)) node._last = true;
    else res.shouldKeepAlive = true;
    res.statusCode = status;
    res.statusMessage = message;
    node.chunkedEncoding = true;
    node._header = `${this.spelled(status, message)}Transfer-Encoding: chunked\r\n\r\n`;
    node._headerSent = false;
    return true;
  }

  /** The status line, the headers in the order set and the Date line, as Node's `_storeHeader` spells them. */
  private spelled(status: number, message: string): string {
    let head = `HTTP/1.1 ${status} ${message}\r\n`;
    const cased = this.cased;
    for (const key in this.headers) head += `${cased?.[key] ?? key}: ${this.headers[key] as string | number}\r\n`;
    return `${head}Date: ${utcDate()}\r\n`;
  }
}
