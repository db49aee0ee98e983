// Runs a row's sample through the seam, as the HTTP shell would hand it over but with no socket:
// its setup first (another row's sample, in the same session), then the request, read back as
// the status, the JSON a client would parse and the notes the journal would keep.
import { MockError } from '../../src/conversation/errors.js';
import { JsonAnswer, TextAnswer } from '../../src/exchange/admin/request.js';
import type { Notes, Outcome } from '../../src/exchange/exchange.js';
import { modelRoute, type ModelRoute } from '../../src/exchange/model-routes.js';
import type { Mock } from '../../src/exchange/mock.js';
import { openaiEnvelope } from '../../src/styles/openai-envelope.js';
import { adminCall, adminRow, answer } from './mock.js';
import { isAdminKey, sampleNamed } from './samples/index.js';
import type { Made, RouteSample, SampleRequest } from './samples/sample.js';

export interface SeamAnswer {
  status: number;
  /** What a client would parse: a JSON body, a text body, or nothing for bytes and streams. */
  body: unknown;
  /** The model rows' notes; the admin rows have none. */
  notes?: Notes;
  /** An error's message, to say why a sample did not answer as expected. */
  message?: string;
}

/** The request a sample sends, once its setup (if any) answered: made from that answer. */
export async function sampleRequest(mock: Mock, sample: RouteSample, session: string): Promise<SampleRequest> {
  let made: Made = {};
  if (sample.after) {
    const setup = sampleNamed(sample.after);
    const answered = await runSample(mock, setup.key, setup.sample, session);
    if (answered.status >= 300) throw new Error(`The setup ${sample.after} answered ${answered.status}: ${answered.message ?? ''}`);
    made = answered.body as Made;
  }
  if (sample.waitMs) mock.clock.advance(sample.waitMs);
  return typeof sample.request === 'function' ? sample.request(made) : sample.request;
}

export async function runSample(mock: Mock, key: string, sample: RouteSample, session: string): Promise<SeamAnswer> {
  const request = await sampleRequest(mock, sample, session);
  const headers = { ...request.headers, 'x-mock-session': session };
  return isAdminKey(key) ? adminAnswer(mock, key, { ...request, headers }) : modelAnswer(mock, key, { ...request, headers });
}

function modelAnswer(mock: Mock, key: string, request: SampleRequest): Promise<SeamAnswer> {
  const [method, path] = key.split(' ') as [ModelRoute['method'], string];
  const query = request.query ?? {};
  return answer(mock, key, {
    params: request.params ?? {},
    query,
    search: new URLSearchParams(query).toString(),
    headers: request.headers ?? {},
    body: request.body ?? null,
    multipart: modelRoute(method, path).body === 'multipart',
    uploads: new Map(Object.entries(request.uploads ?? {})),
  }).then(read);
}

function read(outcome: Outcome): SeamAnswer {
  if ('error' in outcome) return { status: outcome.envelope(outcome.error).status, body: undefined, notes: outcome.notes, message: outcome.error.message };
  return { status: outcome.plan.status, body: outcome.plan.kind === 'json' ? outcome.plan.body : undefined, notes: outcome.notes };
}

async function adminAnswer(mock: Mock, key: string, request: SampleRequest): Promise<SeamAnswer> {
  try {
    const route = key.replace(' /__admin', ' ');
    const result = await adminCall(mock, route, { params: request.params ?? {}, query: request.query ?? {}, headers: request.headers ?? {}, body: request.body ?? null });
    if (result instanceof JsonAnswer) return { status: result.status, body: result.body };
    return { status: adminRow(route).status, body: result instanceof TextAnswer ? result.text : result };
  } catch (error) {
    if (!(error instanceof MockError)) throw error;
    return { status: openaiEnvelope(error).status, body: undefined, message: error.message };
  }
}
