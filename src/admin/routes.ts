// The `/__admin` API: JSON in and out, no key (an --admin-token, when set, is required as a
// bearer token), errors in the chat-completions envelope.
import type Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { MockError } from '../conversation/errors.js';
import type { Mock } from '../server/context.js';
import { eventStream } from '../server/event-stream.js';
import { answer } from './answer.js';
import { clockRoutes } from './clock.js';
import { indexRoute } from './index-route.js';
import { addFixtures, listFixtures } from './fixtures.js';
import { clearRequests, listRequests } from './journal.js';
import { reset } from './reset.js';
import { deleteScenario, putScenario } from './scenario.js';
import { listScenarios } from './scenarios.js';
import { listTasks } from './tasks.js';
import { uiFile, uiPage, uiSettings, uiVendorFile } from './ui.js';

function adminAuth(mock: Mock): Middleware {
  return async (ctx: Context, next: Next) => {
    const token = mock.options.adminToken;
    if (token && ctx.get('authorization') !== `Bearer ${token}`) {
      throw new MockError('unauthorized', 'The admin API needs "Authorization: Bearer <admin token>".');
    }
    await next();
  };
}

export function health(mock: Mock) {
  const store = mock.store;
  return {
    status: 'ok',
    reloads: store.reloads,
    loaded_at: new Date(store.loadedAt).toISOString(),
    files: store.files,
    errors: store.problems,
  };
}

export function adminRoutes(router: Router, mock: Mock, body: Middleware): void {
  const guard = adminAuth(mock);
  clockRoutes(router, mock, guard, body);
  router.get('/__admin/health', guard, answer(() => health(mock)));
  router.get('/__admin/requests', guard, answer(listRequests(mock)));
  router.delete('/__admin/requests', guard, answer(clearRequests(mock)));
  router.post('/__admin/reset', guard, answer(reset(mock)));
  router.put('/__admin/scenario', guard, body, answer(putScenario(mock)));
  router.delete('/__admin/scenario', guard, answer(deleteScenario(mock)));
  router.get('/__admin/fixtures', guard, answer(listFixtures(mock)));
  router.post('/__admin/fixtures', guard, body, answer(addFixtures(mock), 201));
  router.get('/__admin/scenarios', guard, answer(listScenarios(mock)));
  router.get('/__admin/tasks', guard, answer(listTasks(mock)));
  router.get('/__admin/events', eventStream(mock));
  router.get(['/__admin/ui', '/__admin/ui/'], uiPage());
  router.get('/__admin/ui/settings.json', answer(uiSettings(mock)));
  router.get('/__admin/ui/vendor/:file', uiVendorFile());
  router.get('/__admin/ui/:file', uiFile());
  router.get('/', indexRoute());
}
