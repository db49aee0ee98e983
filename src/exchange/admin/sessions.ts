// `POST /__admin/sessions` `{ "session": ID }`: announces a session before it has done anything,
// so `verify` over it judges "nothing was asked" instead of failing on a session never heard of
// (SPEC 17). The test-runner plugins announce each test's session as the test starts.
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { checkSessionId } from '../../state/sessions.js';
import { parseBody } from '../../styles/validate.js';
import type { Mock } from '../mock.js';
import type { AdminRequest } from './request.js';

const body = madeAtFirstUse(() => z.strictObject({ session: z.string().min(1) }));

export function announceSession(mock: Mock, request: AdminRequest): unknown {
  const { session } = parseBody(body(), request.body);
  checkSessionId(session, 'session');
  mock.sessions.heard(session);
  return { session };
}
