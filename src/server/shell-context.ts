// What the shell's steps read of a request and set on its answer: Koa's context, or a plain hit's
// own (server/plain-hit.ts), which answers a plain model request without Koa. Koa's context is
// one such object as it is, so the frame's, the route's and the writer's functions are the same
// code for both.
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';

export interface ShellRequest {
  /** The parsed body, set by the body's step. */
  body?: unknown;
  /** Uploaded files by field, set by the multipart parser. */
  files?: Readonly<Record<string, unknown>>;
  readonly path: string;
  /** The query string without its `?`. */
  readonly querystring: string;
  readonly query: ParsedUrlQuery;
  readonly protocol: string;
  /** The Host the client reached (`:authority` over HTTP/2). */
  readonly host: string;
  is(type: string | string[], ...types: string[]): string | false | null;
}

export interface ShellContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The shell's MockState (server/state.ts), as every step reads it. */
  readonly state: object;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly query: ParsedUrlQuery;
  readonly request: ShellRequest;
  readonly response: { readonly headers: OutgoingHttpHeaders };
  /** False once the writer (or a client that left) took the response out of the shell's hands. */
  respond?: boolean;
  status: number;
  body: unknown;
  /** Content-Length, set (the shell never reads it back). */
  set length(bytes: number);
  /** Content-Type from a type or an extension, as Koa's sets it. */
  set type(type: string);
  /** A request header by name, `''` when absent. */
  get(field: string): string;
  set(field: Record<string, string>): void;
  set(field: string, value: string): void;
  onerror(error: Error): void;
  /**
   * A stream's head (status, the headers set so far and the stream's `own`) made ready for its
   * first write, and the response taken out of the shell's hands, as `respond = false` and Node's
   * `writeHead` would; false, having done nothing, when Node must make it. A plain hit's own
   * (server/plain-hit.ts); Koa's context has none.
   */
  headStream?(status: number, own: Readonly<Record<string, string>>): boolean;
}
