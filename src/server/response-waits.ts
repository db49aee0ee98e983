// Waits on a response that give up, with `false`, once it closes: a client that leaves frees its
// stream at once, with no listener left behind.
import type { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

/** Resolves true when `settled` does, or early (false) when the response closes first; `cancel` then. */
export function unlessClosed(res: ServerResponse, settled: Promise<unknown>, cancel?: () => void): Promise<boolean> {
  if (res.destroyed || res.writableEnded) {
    cancel?.();
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const onClose = () => {
      cancel?.();
      resolve(false);
    };
    res.once('close', onClose);
    void settled.then(() => {
      res.off('close', onClose);
      resolve(true);
    });
  });
}

/** Calls `then(true)` when `drains` (the response or its socket) takes more, or `then(false)` at once when the response closes (a destroyed one never drains). */
export function whenDrained(res: ServerResponse, drains: EventEmitter, then: (open: boolean) => void): void {
  if (res.destroyed || res.writableEnded) return then(false);
  const onDrain = () => {
    res.off('close', onClose);
    then(true);
  };
  const onClose = () => {
    drains.off('drain', onDrain);
    then(false);
  };
  drains.once('drain', onDrain);
  res.once('close', onClose);
}

export function drain(res: ServerResponse): Promise<boolean> {
  return new Promise((drained) => whenDrained(res, res, drained));
}
