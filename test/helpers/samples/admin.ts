// Samples of the `/__admin` rows. The journal's rows need an entry: a message batch's line is
// journaled without a socket too, so the same chain serves the seam and the fuzzer's server.
import { firstOf, idOf, type DoorSamples, type Made } from './sample.js';

/** The sample journal entry: a line of the sample message batch, answered by the messages operation. */
const byEntry = (made: Made) => ({ params: { id: idOf(firstOf(made, 'requests') as Made) } });

export const ADMIN_SAMPLES: DoorSamples = {
  door: 'admin',
  rows: {
    'GET /__admin/clock': { request: {}, status: 200 },
    'POST /__admin/clock': { request: { body: { advance_ms: 1000 } }, status: 200 },
    'GET /__admin/health': { request: {}, status: 200 },
    'GET /__admin/metrics': { request: {}, status: 200 },
    'GET /__admin/requests': { after: 'GET /v1/messages/batches/:id/results', request: { query: { path: '/v1/messages' } }, status: 200 },
    'DELETE /__admin/requests': { request: {}, status: 200 },
    'GET /__admin/requests/:id': { after: 'GET /__admin/requests', request: byEntry, status: 200 },
    'GET /__admin/requests/:id/fixture': { after: 'GET /__admin/requests', request: byEntry, status: 200 },
    'POST /__admin/requests/:id/fixture': { after: 'GET /__admin/requests', request: (made) => ({ ...byEntry(made), body: { file: 'pinned-sample.yaml' } }), status: 201 },
    'POST /__admin/reset': { request: {}, status: 200 },
    'PUT /__admin/scenario': { request: { body: { name: 'flaky' } }, status: 200 },
    'DELETE /__admin/scenario': { request: {}, status: 200 },
    'GET /__admin/fixtures': { request: {}, status: 200 },
    'POST /__admin/fixtures': {
      request: { body: { chat: [{ name: 'added', match: { contains: 'fuzz' }, reply: { text: 'ok', tool_calls: [{ name: 'f', arguments: { a: 1 } }] } }] } },
      status: 201,
    },
    'GET /__admin/scenarios': { request: {}, status: 200 },
    'GET /__admin/faults': { request: {}, status: 200 },
    'GET /__admin/tasks': { after: 'POST /v1/videos', request: {}, status: 200 },
    'POST /__admin/verify': { request: { body: { expect: [{ requests: { path: '/v1/chat/completions' }, count: { max: 1 } }] } }, status: 200 },
    'POST /__admin/sessions': { request: { body: { session: 'announced' } }, status: 200 },
    'GET /__admin/usage': { request: {}, status: 200 },
    'GET /__admin/drift': { request: {}, status: 200 },
    'DELETE /__admin/drift': { request: {}, status: 200 },
  },
};
