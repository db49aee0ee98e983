// A mock without a server: the live config, sessions and clock that the operations of
// src/exchange/ take, and plain exchanges to hand them. No Koa, no socket.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_ROUTES, type AdminRoute } from '../../src/admin/routes.js';
import { ConfigStore } from '../../src/config/store.js';
import type { AdminRequest } from '../../src/exchange/admin/request.js';
import type { Exchange, Outcome } from '../../src/exchange/exchange.js';
import { modelRoute, type ModelRoute } from '../../src/exchange/model-routes.js';
import type { Mock } from '../../src/exchange/mock.js';
import { serving } from '../../src/mock-app.js';
import { createClock } from '../../src/state/clock.js';
import { EventHub } from '../../src/state/events.js';
import { Metrics } from '../../src/state/metrics.js';
import { Sessions } from '../../src/state/sessions.js';

export function plainMock(files: { fixtures?: Record<string, string>; scenarios?: Record<string, string> } = {}, strict = false): Mock {
  const root = mkdtempSync(join(tmpdir(), 'mgm-exchange-'));
  const dirs = { fixturesDirs: [join(root, 'fixtures')], scenariosDirs: [join(root, 'scenarios')] };
  for (const [dir, texts] of [[dirs.fixturesDirs[0]!, files.fixtures], [dirs.scenariosDirs[0]!, files.scenarios]] as const) {
    mkdirSync(dir);
    for (const [name, text] of Object.entries(texts ?? {})) writeFileSync(join(dir, name), text);
  }
  const clock = createClock('2026-01-01T00:00:00Z');
  const store = new ConfigStore({ ...dirs, now: () => 0 });
  const sessions = new Sessions(100, clock.now);
  const metrics = new Metrics({ openStreams: () => 0, memory: () => sessions.memory, reloads: () => store.reloads, failedReloads: () => store.failedReloads });
  const events = new EventHub();
  return {
    metrics,
    served: serving(events, metrics),
    store,
    sessions,
    clock,
    events,
    options: { seed: 0, latency: 'none', strict, journalMax: 100, bodyLimitBytes: 1 << 20, adminToken: undefined, logLevel: 'silent', upstream: undefined },
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
    search: '',
    headers: {},
    bodySize: 0,
    multipart: false,
    uploads: new Map(),
    origin: 'http://mock.test',
    session: mock.sessions.get(request.headers?.['x-mock-session']),
    caller: {},
    requestId: 'req_test',
    ...request,
  };
}

/**
 * Runs a row of the model route table as the HTTP shell would, without a socket:
 * `answer(mock, 'GET /v1/videos/:id', { params: { id } })`.
 */
export function answer(mock: Mock, route: string, request: Partial<Exchange> = {}): Promise<Outcome> {
  const [method, path] = route.split(' ') as [ModelRoute['method'], string];
  const row = modelRoute(method, path);
  return row.operation(mock, plainExchange(mock, { method, path, body: null, ...request }), row.door);
}

/** Runs a row of the admin table without a socket: `adminCall(mock, 'PUT /scenario', { body })`. */
export function adminCall(mock: Mock, route: string, request: Partial<AdminRequest> = {}): unknown {
  return adminRow(route).run(mock, { query: {}, headers: {}, body: null, ...request });
}

/** The admin row of a method and a path below `/__admin`: `adminRow('GET /health')`. */
export function adminRow(route: string): AdminRoute {
  const [method, path] = route.split(' ') as [AdminRoute['method'], string];
  const row = ADMIN_ROUTES.find((r) => r.method === method && r.path === `/__admin${path}`);
  if (!row) throw new Error(`No admin route ${route}.`);
  return row;
}
