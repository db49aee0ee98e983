// `PUT /__admin/scenario` `{ "name": NAME }` and `DELETE /__admin/scenario`: the active scenario of
// one session, or the global one (a session's own wins over it).
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { unknownScenario } from '../../scenarios/choose.js';
import { parseBody } from '../../styles/validate.js';
import type { Mock } from '../mock.js';
import { sessionParam, type AdminRequest } from './request.js';

const body = madeAtFirstUse(() => z.strictObject({ name: z.string().min(1) }));

function setScenario(mock: Mock, id: string | undefined, name: string | undefined): void {
  if (id === undefined) mock.sessions.globalScenario = name;
  else mock.sessions.heard(id).scenario = name;
  mock.events.publish('scenario', { session: id ?? null, name: name ?? null });
}

export function putScenario(mock: Mock, request: AdminRequest): unknown {
  const { name } = parseBody(body(), request.body);
  const scenarios = mock.store.current.scenarios;
  if (!scenarios.has(name)) throw unknownScenario(name, 'the body of PUT /__admin/scenario', scenarios.keys(), 'name');
  const id = sessionParam(request);
  setScenario(mock, id, name);
  return { scenario: name, session: id ?? null };
}

export function deleteScenario(mock: Mock, request: AdminRequest): unknown {
  const id = sessionParam(request);
  setScenario(mock, id, undefined);
  return { scenario: null, session: id ?? null };
}
