// The routes the hardening tests send to, one per sample of every row of both route tables
// (test/helpers/samples/), so a new row is fuzzed as soon as it has its sample. A sample made
// from another's answer (a video's id, a batch's file) is sent with ids no session holds until
// `onServer` makes what it needs on the server under test.
import { ADMIN_ROUTES } from '../../src/admin/routes.js';
import type { Envelope } from '../../src/conversation/errors.js';
import { modelRoute, type ModelRoute } from '../../src/exchange/model-routes.js';
import { azureEnvelope } from '../../src/styles/azure-openai/envelope.js';
import { bedrockEnvelope } from '../../src/styles/bedrock/envelope.js';
import { generateContentEnvelope } from '../../src/styles/generate-content/envelope.js';
import { messagesEnvelope } from '../../src/styles/messages/envelope.js';
import { ollamaEnvelope } from '../../src/styles/ollama/envelope.js';
import { openaiEnvelope } from '../../src/styles/openai-envelope.js';
import { openrouterEnvelope } from '../../src/styles/openrouter/envelope.js';
import { taskEnvelope } from '../../src/styles/videos/gateway.js';
import { isAdminKey, ROW_SAMPLES, sampleNamed } from '../helpers/samples/index.js';
import type { Made, RouteSample } from '../helpers/samples/sample.js';
import { formFields, multipart, send, type EnvelopeName, type Route } from './wire.js';

/** What a setup's answer looks like where none ran: ids and a picture's URL that no session holds. */
const STAND_IN: Made = {
  id: 'unknown',
  task_id: 'task_unknown',
  data: [{ url: 'http://mock.test/v1/images/files/default/img_unknown.png' }],
  requests: [{ id: 'req_unknown' }],
};

const ENVELOPES = new Map<Envelope, EnvelopeName>([
  [openaiEnvelope, 'openai'],
  [messagesEnvelope, 'anthropic'],
  [generateContentEnvelope, 'gemini'],
  [taskEnvelope, 'task'],
  [bedrockEnvelope, 'bedrock'],
  // Azure's errors are OpenAI's object with Azure's codes.
  [azureEnvelope, 'openai'],
  [openrouterEnvelope, 'openrouter'],
  [ollamaEnvelope, 'ollama'],
]);

/** The envelope a row answers a request in, as its door says (the admin API's is OpenAI's). */
export function envelopeOf(key: string, request: { headers: Record<string, string>; query: Record<string, string> }): EnvelopeName {
  if (isAdminKey(key)) return 'openai';
  const [method, path] = key.split(' ') as [ModelRoute['method'], string];
  const name = ENVELOPES.get(modelRoute(method, path).door.envelope(request));
  if (!name) throw new Error(`The door of ${key} answers in an envelope the hardening tests do not know.`);
  return name;
}

function bodyKind(key: string): Route['body'] {
  const [method, path] = key.split(' ') as [ModelRoute['method'], string];
  if (!isAdminKey(key)) return modelRoute(method, path).body;
  const row = ADMIN_ROUTES.find((found) => found.method === method && found.path === path);
  return row?.body ? 'json' : 'none';
}

/** A path parameter as a client writes it: generate-content's `model:action` keeps its colon. */
const segment = (value: string): string => encodeURIComponent(value).replace(/%3A/g, ':');

/** The route a sample is sent to, made from `made` (a setup's answer, or the stand-in). */
export function routeOf(key: string, sample: RouteSample, made: Made = STAND_IN): Route {
  const request = typeof sample.request === 'function' ? sample.request(made) : sample.request;
  const [method, template] = key.split(' ') as [Route['method'], string];
  const query = request.query ?? {};
  const search = new URLSearchParams(query).toString();
  const path = template.replace(/:(\w+)/g, (_, name: string) => segment(request.params?.[name] ?? '')) + (search ? `?${search}` : '');
  const headers = request.headers ?? {};
  const files = Object.entries(request.uploads ?? {}).flatMap(([field, uploads]) => uploads.map((upload): [string, string, Buffer] => [field, upload.filename, upload.data]));
  return {
    key,
    ...(sample.label && { label: sample.label }),
    method,
    path,
    envelope: envelopeOf(key, { headers, query }),
    body: bodyKind(key),
    ...(request.body !== undefined && { valid: request.body as Record<string, unknown> }),
    ...(files.length > 0 && { files }),
    ...(request.headers && { headers }),
  };
}

const SAMPLED = ROW_SAMPLES.flatMap((row) => row.samples.map((sample) => ({ sample, route: routeOf(row.key, sample) })));

/** One route per sample of every row, the model rows first. */
export const ROUTES: Route[] = SAMPLED.map(({ route }) => route);

const SAMPLE_OF = new Map<Route, RouteSample>(SAMPLED.map(({ route, sample }) => [route, sample]));

/** A sample's route's body as a client sends it, with its content type. */
export function bodyOf(route: Route): { body?: string | Buffer; contentType?: string } {
  if (route.body === 'none') return {};
  if (route.body === 'multipart') {
    const form = multipart(formFields(route.valid ?? {}), route.files);
    return { body: form.body, contentType: form.contentType };
  }
  return { body: JSON.stringify(route.valid ?? {}), contentType: 'application/json' };
}

/** Sends a route's sample as it is, in `session`, and returns the JSON it was answered with. */
async function answerOn(url: string, route: Route, session: string): Promise<Made> {
  const { body, contentType } = bodyOf(route);
  const headers = { authorization: 'Bearer sk-wire', 'x-mock-session': session, ...(contentType && { 'content-type': contentType }), ...route.headers };
  const answer = await send(url, route.method, route.path, headers, body);
  if (answer.status >= 300) throw new Error(`The setup ${route.key} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return JSON.parse(answer.text) as Made;
}

/** A sample's route once what it is made from was made, in `session`, on the server at `url`. */
async function made(url: string, key: string, sample: RouteSample, session: string): Promise<Route> {
  if (!sample.after) return { ...routeOf(key, sample), session };
  const setup = sampleNamed(sample.after);
  const answered = await answerOn(url, await made(url, setup.key, setup.sample, session), session);
  if (sample.waitMs) await send(url, 'POST', '/__admin/clock', { 'content-type': 'application/json' }, JSON.stringify({ advance_ms: sample.waitMs }));
  return { ...routeOf(key, sample, answered), session };
}

/**
 * The route with what its sample is made from made first on the server at `url`, in a session
 * of its own: the id of a video that exists, a batch's file that was uploaded.
 */
export async function onServer(url: string, route: Route): Promise<Route> {
  const sample = SAMPLE_OF.get(route);
  return sample?.after ? made(url, route.key, sample, `wire-${route.key}`.replace(/[^\w-]/g, '-')) : route;
}
