// `GET /__admin/drift` and `DELETE /__admin/drift`: what live drift (`--upstream --drift`) found,
// per endpoint and path. `enabled` says whether the mock compares at all, so an empty list is
// not read as "no drift" when nothing was being watched.
import type { Mock } from '../mock.js';

export function listDrift(mock: Mock): unknown {
  return { enabled: mock.drift !== undefined, findings: mock.drift?.list() ?? [] };
}

export function clearDrift(mock: Mock): unknown {
  return { cleared: mock.drift?.clear() ?? 0 };
}
