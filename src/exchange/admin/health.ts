// `GET /__admin/health`: the files loaded, when, the reload counter tests wait on, and the
// problems of the last reload (while there are any, the last good configuration serves and the
// status is `degraded`), and the bytes held: the sessions' by kind, and the process's caches.
import type { Mock } from '../mock.js';

export function health(mock: Mock): unknown {
  const store = mock.store;
  return {
    status: store.problems.length === 0 ? 'ok' : 'degraded',
    reloads: store.reloads,
    loaded_at: new Date(store.loadedAt).toISOString(),
    files: store.files,
    errors: store.problems,
    memory: { ...mock.sessions.memory },
    ...(mock.otlp && { otlp: { ...mock.otlp } }),
  };
}
