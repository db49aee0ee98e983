// What the hardening tests share: a raw HTTP client (fetch cannot send every malformed request,
// and hides dropped connections behind retries), the four error envelopes, and the shape of a
// route with a valid body for the fuzzer to break (the routes themselves: sampled-routes.ts).
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'vitest';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Keep-alive, as the SDKs use it: a request that leaves a connection in a bad state shows on the next one. */
export const keepAlive = new Agent({ keepAlive: true, maxSockets: 16 });

/** Rejects when the connection drops before a whole answer arrived. */
export function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  // Node frames a GET's body only when told its length.
  const framing = body === undefined || headers['transfer-encoding'] ? {} : { 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers: { ...framing, ...headers }, agent: keepAlive }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Writes raw bytes on a fresh socket and collects everything until the server closes or goes quiet after `expected` answers. */
export function sendRaw(url: string, bytes: string | Buffer, expected = 1): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    const answers = (): RawAnswer[] => parseAnswers(received.toString('latin1'));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (answers().length >= expected) socket.end();
    });
    socket.on('close', () => resolve(answers()));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/** HTTP/1.1 answers with Content-Length or chunked bodies, back to back. */
function parseAnswers(data: string): RawAnswer[] {
  const out: RawAnswer[] = [];
  let rest = data;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    let body = rest.slice(end + 4);
    let text: string;
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (Buffer.byteLength(body, 'latin1') < length) break;
      text = body.slice(0, length);
      rest = body.slice(length);
    } else if (headers['transfer-encoding'] === 'chunked') {
      text = '';
      for (;;) {
        const lineEnd = body.indexOf('\r\n');
        if (lineEnd < 0) return out;
        const size = parseInt(body.slice(0, lineEnd), 16);
        if (size === 0) {
          body = body.slice(lineEnd + 4);
          break;
        }
        text += body.slice(lineEnd + 2, lineEnd + 2 + size);
        body = body.slice(lineEnd + 2 + size + 2);
      }
      rest = body;
    } else {
      text = body;
      rest = '';
    }
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, text: Buffer.from(text, 'latin1').toString('utf8') });
  }
  return out;
}

export type EnvelopeName = 'openai' | 'anthropic' | 'gemini' | 'task' | 'bedrock' | 'openrouter' | 'ollama';

/** Asserts the error body has exactly the shape of the named envelope. */
export function expectEnvelope(envelope: EnvelopeName, answer: RawAnswer, context: string): void {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    throw new Error(`${context}: a ${answer.status} whose body is not JSON: ${answer.text.slice(0, 200)}`);
  }
  const error = body.error as Record<string, unknown> | undefined;
  const where = `${context} answered ${answer.status} ${answer.text.slice(0, 300)}`;
  switch (envelope) {
    case 'openai':
      expect(Object.keys(body), where).toEqual(['error']);
      expect(typeof error?.message, where).toBe('string');
      expect(typeof error?.type, where).toBe('string');
      expect(error?.param === null || typeof error?.param === 'string', where).toBe(true);
      expect(error?.code === null || typeof error?.code === 'string', where).toBe(true);
      return;
    case 'anthropic':
      expect(body.type, where).toBe('error');
      expect(typeof error?.type, where).toBe('string');
      expect(typeof error?.message, where).toBe('string');
      return;
    case 'gemini':
      expect(Object.keys(body), where).toEqual(['error']);
      expect(error?.code, where).toBe(answer.status);
      expect(typeof error?.message, where).toBe('string');
      expect(typeof error?.status, where).toBe('string');
      return;
    case 'task':
      expect(typeof body.code, where).toBe('string');
      expect(typeof body.message, where).toBe('string');
      expect(body.data, where).toBeNull();
      return;
    case 'bedrock':
      expect(Object.keys(body), where).toEqual(['message']);
      expect(typeof body.message, where).toBe('string');
      expect(answer.headers['x-amzn-errortype'], where).toMatch(/^[A-Za-z]+Exception:/);
      return;
    case 'openrouter':
      expect(Object.keys(body), where).toEqual(['error']);
      expect(error?.code, where).toBe(answer.status);
      expect(typeof error?.message, where).toBe('string');
      return;
    case 'ollama':
      expect(Object.keys(body), where).toEqual(['error']);
      expect(typeof body.error, where).toBe('string');
  }
}

/** Every answer to a malformed request: never a 5xx; a 4xx in the route's envelope. */
export function expectClientError(envelope: EnvelopeName, answer: RawAnswer, context: string): void {
  expect(answer.status, `${context}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, `${context}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  expectEnvelope(envelope, answer, context);
}

/** For requests that may be valid after all: never a 5xx, and a 4xx is in the envelope. */
export function expectNoServerError(envelope: EnvelopeName, answer: RawAnswer, context: string): void {
  expect(answer.status, `${context}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) expectEnvelope(envelope, answer, context);
}

export interface Route {
  /** The row the route is a sample of, `METHOD path` as its table writes it. */
  key: string;
  /** What sets the sample apart when its row has more than one. */
  label?: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path with its parameters and query filled in. */
  path: string;
  /** The envelope with the sample's headers (model lists change it with the client's headers). */
  envelope: EnvelopeName;
  body: 'json' | 'multipart' | 'none';
  /** A body the route accepts, for the fuzzer to break one field at a time. */
  valid?: Record<string, unknown>;
  /** The files a multipart sample sends with its fields. */
  files?: Array<[field: string, filename: string, data: Buffer]>;
  headers?: Record<string, string>;
  /** The session that holds what the sample was made from (a video, a batch), once made on a server. */
  session?: string;
}

/** Sets `value` at `path` in a copy of `body`, creating what is missing on the way. */
export function withValueAt(body: Record<string, unknown>, path: ReadonlyArray<string | number>, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: Record<string | number, unknown> = copy;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    node[key] = next !== null && typeof next === 'object' ? next : {};
    node = node[key] as Record<string | number, unknown>;
  });
  return copy;
}

/** Every path to a value in `body`: the fields the route knows, however deep. */
export function fieldPaths(body: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (body === null || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([key, value]) => {
    const path = [...prefix, Array.isArray(body) ? Number(key) : key];
    return [path, ...fieldPaths(value, path)];
  });
}

/** A multipart/form-data body from fields and files, as an SDK writes it. */
export function multipart(
  fields: Array<[name: string, value: string]>,
  files: Array<[name: string, filename: string, data: Buffer]> = [],
  boundary = 'hardening-boundary',
): { body: Buffer; contentType: string } {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, filename, data] of files) {
    parts.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`),
      data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The fields of a JSON body as a form writes them: nested values spelled with brackets. */
export function formFields(body: Record<string, unknown>, prefix = ''): Array<[string, string]> {
  return Object.entries(body).flatMap(([key, value]): Array<[string, string]> => {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (value !== null && typeof value === 'object') return formFields(value as Record<string, unknown>, name);
    return [[name, String(value)]];
  });
}

/** Nothing in the process gained a property through a request or a file. */
export function expectPrototypesClean(): void {
  const probe = {} as Record<string, unknown>;
  for (const key of ['polluted', 'isAdmin', 'hardening']) expect(probe[key], `Object.prototype.${key}`).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(Object.getOwnPropertyNames(Object.prototype).filter((name) => !BUILTIN_OBJECT_PROTOTYPE.has(name))).toEqual([]);
  expect(Object.getOwnPropertyNames(Array.prototype).filter((name) => !BUILTIN_ARRAY_PROTOTYPE.has(name))).toEqual([]);
}

const BUILTIN_OBJECT_PROTOTYPE = new Set(Object.getOwnPropertyNames(Object.prototype));
const BUILTIN_ARRAY_PROTOTYPE = new Set(Object.getOwnPropertyNames(Array.prototype));
