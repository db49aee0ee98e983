// The `/__admin` API as a table: each route a thin call of an admin operation, JSON in and out.
// The HTTP shell mounts it (with the admin token, the body parser and the one writer); the MCP
// tools call the same operations.
import { postClock, readClock } from '../exchange/admin/clock.js';
import { listFaults } from '../exchange/admin/faults.js';
import { addFixtures, listFixtures } from '../exchange/admin/fixtures.js';
import { clearDrift, listDrift } from '../exchange/admin/drift.js';
import { health } from '../exchange/admin/health.js';
import { metrics } from '../exchange/admin/metrics.js';
import { clearRequests, listRequests, readRequest } from '../exchange/admin/journal.js';
import { requestFixture, saveRequestFixture } from '../exchange/admin/request-fixture.js';
import type { AdminRequest } from '../exchange/admin/request.js';
import { reset } from '../exchange/admin/reset.js';
import { deleteScenario, putScenario } from '../exchange/admin/scenario.js';
import { listScenarios } from '../exchange/admin/scenarios.js';
import { announceSession } from '../exchange/admin/sessions.js';
import { listTasks } from '../exchange/admin/tasks.js';
import { usage } from '../exchange/admin/usage.js';
import { verify } from '../exchange/admin/verify/verify.js';
import type { Mock } from '../exchange/mock.js';

export interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Whether the route reads a body: JSON within the body limit, or a fixtures document, bounded as a file. */
  body: boolean | 'document';
  /** The status of a success (201 for what it creates). */
  status: number;
  /** The JSON answer, a `JsonAnswer` with a status of its own, or a `TextAnswer` written as is with its content type. */
  run(mock: Mock, request: AdminRequest): unknown;
}

const route = (method: AdminRoute['method'], path: string, run: AdminRoute['run'], body: AdminRoute['body'] = false, status = 200): AdminRoute => ({
  method,
  path: `/__admin${path}`,
  body,
  status,
  run,
});

export const ADMIN_ROUTES: readonly AdminRoute[] = [
  route('GET', '/clock', readClock),
  route('POST', '/clock', postClock, true),
  route('GET', '/health', health),
  route('GET', '/metrics', metrics),
  route('GET', '/requests', listRequests),
  route('DELETE', '/requests', clearRequests),
  route('GET', '/requests/:id', readRequest),
  route('GET', '/requests/:id/fixture', requestFixture),
  route('POST', '/requests/:id/fixture', saveRequestFixture, true, 201),
  route('POST', '/reset', reset),
  route('PUT', '/scenario', putScenario, true),
  route('DELETE', '/scenario', deleteScenario),
  route('GET', '/fixtures', listFixtures),
  route('POST', '/fixtures', addFixtures, 'document', 201),
  route('GET', '/scenarios', listScenarios),
  route('GET', '/faults', listFaults),
  route('GET', '/tasks', listTasks),
  route('POST', '/sessions', announceSession, true),
  route('POST', '/verify', verify, true),
  route('GET', '/usage', usage),
  route('GET', '/drift', listDrift),
  route('DELETE', '/drift', clearDrift),
];
