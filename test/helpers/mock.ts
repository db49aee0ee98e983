// A mock without a server: the live config, sessions and clock that the operations of
// src/exchange/ take, and plain exchanges to hand them. No Koa, no socket.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigStore } from '../../src/config/store.js';
import type { Exchange } from '../../src/exchange/exchange.js';
import type { Mock } from '../../src/exchange/mock.js';
import { createClock } from '../../src/state/clock.js';
import { EventHub } from '../../src/state/events.js';
import { Sessions } from '../../src/state/sessions.js';

export function plainMock(files: { fixtures?: Record<string, string>; scenarios?: Record<string, string> } = {}, strict = false): Mock {
  const root = mkdtempSync(join(tmpdir(), 'mgm-exchange-'));
  const dirs = { fixturesDir: join(root, 'fixtures'), scenariosDir: join(root, 'scenarios') };
  for (const [dir, texts] of [[dirs.fixturesDir, files.fixtures], [dirs.scenariosDir, files.scenarios]] as const) {
    mkdirSync(dir);
    for (const [name, text] of Object.entries(texts ?? {})) writeFileSync(join(dir, name), text);
  }
  const clock = createClock('2026-01-01T00:00:00Z');
  return {
    store: new ConfigStore({ ...dirs, now: () => 0 }),
    sessions: new Sessions(100, clock.now),
    clock,
    events: new EventHub(),
    options: { seed: 0, latency: 'none', strict, journalMax: 100, bodyLimitBytes: 1 << 20, adminToken: undefined, logLevel: 'silent' },
    log: () => {},
    logs: () => false,
    requestCount: 0,
  };
}

export function plainExchange(mock: Mock, request: Partial<Exchange> & { body: unknown }): Exchange {
  return {
    method: 'POST',
    path: '/',
    params: {},
    query: {},
    headers: {},
    multipart: false,
    uploads: new Map(),
    origin: 'http://mock.test',
    session: mock.sessions.get(request.headers?.['x-mock-session']),
    caller: {},
    ...request,
  };
}
