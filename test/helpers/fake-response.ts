// A stand-in for the response the writer writes on: what it was given, whether it was closed,
// and the listeners left on it; `contextFor` puts it in the little of a Koa context the writer reads.
import { EventEmitter } from 'node:events';
import type { Context } from 'koa';
import { OpenStreams } from '../../src/server/open-streams.js';

export class FakeResponse extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  statusCode = 200;
  written: string[] = [];
  /** When set, write() reports a full buffer, as a slow client would. */
  full = false;

  writeHead(status: number): this {
    this.statusCode = status;
    return this;
  }
  flushHeaders(): void {}
  write(data: string, done?: (error?: Error) => void): boolean {
    if (this.destroyed) {
      done?.(new Error('destroyed'));
      return false;
    }
    this.written.push(data);
    if (done) queueMicrotask(() => done());
    return !this.full;
  }
  /** As a real response's: what `data` holds is written before the end. */
  end(data?: string): void {
    if (data && !this.destroyed) this.written.push(data);
    this.writableEnded = true;
    this.emit('close');
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
  listeners_(): number {
    return this.listenerCount('close') + this.listenerCount('drain');
  }
}

export function contextFor(res: FakeResponse): Context {
  return { res, req: { socket: { destroy: () => res.destroy() } }, respond: true, response: { headers: {} }, state: { streams: new OpenStreams() } } as unknown as Context;
}
