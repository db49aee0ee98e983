// Node's request listener: a plain chat hit on its own path (plain-hit.ts), everything else through
// the Koa app (app.ts). The Koa app and its route table are built at the first request that needs
// them, not at the start: a plain hit needs neither, and their modules' evaluation and the router's
// compiling of every route's path were a tenth of a start's work before its listening line.
import type { Mock } from '../exchange/mock.js';
import type { AdminAccess } from './admin-guard.js';
import type { OpenStreams } from './open-streams.js';
import { plainFirst } from './plain-hit.js';
import { plainRows } from './routes.js';
import type { DualListener } from './shared-port.js';

export function createListener(mock: Mock, access: AdminAccess, streams: OpenStreams): DualListener {
  let koa: DualListener | undefined;
  let building: Promise<DualListener> | undefined;
  const viaKoa: DualListener = (req, res) => {
    if (koa) return koa(req, res);
    // Requests that come while it is built wait for it, in their order.
    building ??= import('./app.js').then(({ koaListener }) => (koa = koaListener(mock, access, streams)));
    building.then(
      (listener) => listener(req, res),
      (error: unknown) => {
        mock.log('error', `${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
        res.destroy();
      },
    );
  };
  return plainFirst(mock, plainRows(mock), streams, viaKoa);
}
