// About thirty malformed bodies for each of the other doors, and a field of another kind at every
// row with a JSON body: every one is a 4xx in the route's envelope whose message names the field
// at fault, never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sampleNamed } from '../helpers/samples/index.js';
import { onServer, routeOf, ROUTES } from './sampled-routes.js';
import { expectClientError, send, type EnvelopeName, type Route } from './wire.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Case = [label: string, body: unknown, field: string];

/** A wrong value for each field of a valid body: the field is named in the 400. */
function wrongValues(valid: Record<string, unknown>, wrong: Record<string, unknown[]>): Case[] {
  return Object.entries(wrong).flatMap(([field, values]) =>
    values.map((value): Case => [`${field} = ${JSON.stringify(value)}`, { ...valid, [field]: value }, field]),
  );
}

const text = ['Not a body', 'hi', ''];
const notObjects: Case[] = [
  ['a string body', 'hello', ''],
  ['an array body', [1, 2], ''],
  ['a number body', 7, ''],
];

/** The route of a door's sample: its path, envelope and headers, and the valid body the cases break. */
function sampled(name: string): Route & { valid: Record<string, unknown> } {
  const { key, sample } = sampleNamed(name);
  const route = routeOf(key, sample);
  if (!route.valid) throw new Error(`The sample ${name} has no body.`);
  return { ...route, valid: route.valid };
}

const EMBEDDINGS = sampled('POST /v1/embeddings');
const EMBED_CONTENT = sampled('POST /v1beta/models/:target#embedContent');
const BATCH_EMBED = sampled('POST /v1beta/models/:target#batchEmbedContents');
const RERANK = sampled('POST /v1/rerank');
const MODERATIONS = sampled('POST /v1/moderations');
const COMPLETIONS = sampled('POST /v1/completions');

const embeddings = EMBEDDINGS.valid;
/** A request to embed with nothing but its content, which the cases add to one field at a time. */
const gemini = { content: EMBED_CONTENT.valid.content };
const rerank = RERANK.valid;
const moderation = MODERATIONS.valid;
const completion = COMPLETIONS.valid;

const DOORS: Array<{ route: Route; cases: Case[] }> = [
  {
    route: EMBEDDINGS,
    cases: [
      ...notObjects,
      ['no model', { input: 'hi' }, 'model'],
      ['no input', { model: 'text-embedding-3-small' }, 'input'],
      ['a mixed list', { ...embeddings, input: ['a', [1, 2]] }, 'input[1]'],
      ['an empty token list', { ...embeddings, input: [[]] }, 'input[0]'],
      ['a fractional token id', { ...embeddings, input: [1.5] }, 'input[0]'],
      ['a negative token id', { ...embeddings, input: [-1] }, 'input[0]'],
      ...wrongValues(embeddings, {
        model: [1, true, {}, [], ''],
        input: [1, true, {}, [], [''], [{}], [null], ''],
        encoding_format: ['int8', 1, true, {}],
        dimensions: [0, -1, 1.5, '8', true, 99999],
        user: [1, {}],
      }),
    ],
  },
  {
    route: EMBED_CONTENT,
    cases: [
      ...notObjects,
      ['no content', {}, 'content'],
      ['a title without RETRIEVAL_DOCUMENT', { ...gemini, title: 'T' }, 'title'],
      ['an inline picture part', { content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }, 'content.parts[0].text'],
      ['blank text', { content: { parts: [{ text: '  ' }] } }, 'content'],
      ['another model', { ...gemini, model: 'models/text-embedding-004' }, 'model'],
      ...wrongValues(gemini, {
        content: [1, 'hi', [], {}, { parts: [] }, { parts: 'hi' }, { parts: [{ text: 1 }] }],
        taskType: ['SEARCH', 1, true, {}],
        title: [1, {}, []],
        outputDimensionality: [0, -3, 2.5, 'x', 4000],
        model: [1, {}],
      }),
    ],
  },
  {
    route: BATCH_EMBED,
    cases: [
      ...notObjects,
      ['no requests', {}, 'requests'],
      ['requests null', { requests: null }, 'requests'],
      ['a second request of another task type', { requests: [gemini, { ...gemini, taskType: 'NOPE' }] }, 'requests[1].taskType'],
      ['101 requests', { requests: Array.from({ length: 101 }, () => gemini) }, 'requests'],
      ['a request of another model', { requests: [gemini, { ...gemini, model: 'models/x' }] }, 'requests[1].model'],
      ['a request without content', { requests: [{}] }, 'requests[0].content'],
      ...wrongValues({ requests: [gemini] }, { requests: [1, 'x', {}, [], [1], [null], [{ content: 1 }], [{ content: { parts: [] } }]] }),
      ...wrongValues({ requests: [gemini] }, {
        requests: [
          [{ ...gemini, taskType: 'X' }],
          [{ ...gemini, taskType: 3 }],
          [{ ...gemini, outputDimensionality: 0 }],
          [{ ...gemini, outputDimensionality: 3073 }],
          [{ ...gemini, outputDimensionality: 'big' }],
          [{ ...gemini, title: 'T' }],
          [{ ...gemini, title: 7 }],
          [{ ...gemini, model: 7 }],
          [{ content: { parts: [{ text: '' }] } }],
          [{ content: { parts: [{ text: 1 }] } }],
          [{ content: 'hi' }],
        ],
      }),
    ],
  },
  {
    route: RERANK,
    cases: [
      ...notObjects,
      ['no query', { model: 'rerank-v3.5', documents: ['a'] }, 'query'],
      ['no documents', { model: 'rerank-v3.5', query: 'q' }, 'documents'],
      ['1001 documents', { ...rerank, documents: Array.from({ length: 1001 }, () => 'd') }, 'documents'],
      ['a document without text', { ...rerank, documents: [{ title: 'x' }] }, 'documents[0]'],
      ...wrongValues(rerank, {
        model: [1, true, {}, '', 'gpt-4o-mini'],
        query: [1, true, {}, [], ''],
        documents: [1, 'a', {}, [], [1], [null], [{ text: 1 }]],
        top_n: [0, -1, 1.5, '2', true],
        return_documents: ['yes', 1, {}],
      }),
    ],
  },
  {
    route: MODERATIONS,
    cases: [
      ...notObjects,
      ['no input', {}, 'input'],
      ['a part of no known type', { input: [{ type: 'audio', audio: 'x' }] }, 'input'],
      ['an image part without a url', { input: [{ type: 'image_url', image_url: {} }] }, 'input'],
      ['an image on a text model', { model: 'text-moderation-latest', input: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }, 'input'],
      ...wrongValues(moderation, {
        input: [1, true, {}, [], [1], [null], [[]], ['a', 1], [{ type: 'text' }], [{ type: 'text', text: 1 }], [{}], [{ type: 'image_url', image_url: 'x' }], [{ type: 'text', text: 'a' }, 'b']],
        model: [1, true, {}, [], '', 'gpt-4o-mini', 'text-embedding-3-small', 'rerank-v3.5'],
      }),
    ],
  },
  {
    route: COMPLETIONS,
    cases: [
      ...notObjects,
      ['no model', { prompt: 'hi' }, 'model'],
      ['no prompt', { model: 'gpt-3.5-turbo-instruct' }, 'prompt'],
      ['a chat model', { ...completion, model: 'gpt-4o-mini' }, 'model'],
      ...wrongValues(completion, {
        model: [1, {}, '', 'text-embedding-3-small'],
        prompt: [1, true, {}, [], [1.5], [[]], [null]],
        max_tokens: [-1, 1.5, '16'],
        n: [0, 129, 'x'],
        stream: ['yes', 1],
        stop: [1, ['a', 'b', 'c', 'd', 'e'], [1]],
        echo: ['yes'],
        temperature: [3, -1],
      }),
    ],
  },
];

/** A key in the header each vendor's clients send it in, beside the sample's own headers. */
const headersOf = (route: Route) => ({ authorization: 'Bearer k', 'x-goog-api-key': 'k', 'content-type': 'application/json', ...route.headers });

describe('malformed bodies at the other doors', () => {
  it.each(DOORS.map((door) => [door.route.path, door.cases.length, door] as const))('%s: each of %i is a 4xx naming the field', async (_, __, door) => {
    expect(door.cases.length).toBeGreaterThanOrEqual(28);
    for (const [label, body, field] of door.cases) {
      const answer = await send(server.url, 'POST', door.route.path, headersOf(door.route), JSON.stringify(body));
      const context = `${door.route.path} with ${label}`;
      expectClientError(door.route.envelope, answer, context);
      if (field) expect(JSON.parse(answer.text).error.message, `${context}: ${answer.text}`).toContain(field);
    }
    for (const raw of text) {
      const answer = await send(server.url, 'POST', door.route.path, headersOf(door.route), raw);
      expectClientError(door.route.envelope, answer, `${door.route.path} with the text ${JSON.stringify(raw)}`);
    }
  });
});

/** A value of another kind than the sample's: a number for a list or an object, `true` for a text, a text for the rest. */
const otherKind = (value: unknown): unknown => (value !== null && typeof value === 'object' ? 7 : typeof value === 'string' ? true : 'many');

/** The message of an error in its envelope. */
function messageOf(envelope: EnvelopeName, text: string): string {
  const body = JSON.parse(text) as { message?: string; error?: string | { message?: string } };
  if (envelope === 'task' || envelope === 'bedrock') return body.message ?? '';
  return (typeof body.error === 'string' ? body.error : body.error?.message) ?? '';
}

describe('a field of another kind, at every row with a JSON body', () => {
  it.each(ROUTES.filter((route) => route.body === 'json').map((route) => [`${route.method} ${route.path}${route.label ? ` (${route.label})` : ''}`, route] as const))(
    '%s refuses it naming the field',
    async (_, sampled) => {
      const route = await onServer(server.url, sampled);
      const valid = route.valid ?? {};
      for (const [field, value] of Object.entries(valid)) {
        const body = JSON.stringify({ ...valid, [field]: otherKind(value) });
        const headers = { ...headersOf(route), ...(route.session && { 'x-mock-session': route.session }) };
        const answer = await send(server.url, route.method, route.path, headers, body);
        const context = `${route.method} ${route.path} with ${field} = ${JSON.stringify(otherKind(value))}`;
        expectClientError(route.envelope, answer, context);
        expect(messageOf(route.envelope, answer.text), `${context}: ${answer.text.slice(0, 300)}`).toContain(field);
      }
    },
  );
});
