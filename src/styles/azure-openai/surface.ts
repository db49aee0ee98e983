// Azure's classic surface names the model by its deployment in the path and wants `api-version`
// in the query; without it Azure answers a bare 404, as for a path it does not know.
import { MockError } from '../../conversation/errors.js';

export function requireApiVersion(params: Record<string, string>, query: Record<string, unknown>): void {
  if (params.deployment !== undefined && !query['api-version']) throw new MockError('not_found', 'Resource not found', { status: 404, body: { error: { code: '404', message: 'Resource not found' } } });
}
