// Generated malformed bodies at every route: invalid JSON, wrong types at every known field, huge
// strings, deep nesting, arrays for objects, nulls, odd unicode, numbers out of range, empty
// bodies, odd content types and encodings, multipart garbage. Every answer is a 4xx in the route's
// own envelope (or, for a body that turned out valid, a success), never a 5xx or a dropped
// connection, and the server keeps serving.
import fc from 'fast-check';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectClientError, expectNoServerError, expectPrototypesClean, fieldPaths, formFields, multipart, send, withValueAt, type Route } from './wire.js';
import { onServer, ROUTES } from './sampled-routes.js';

const LIMIT = 256 * 1024;
let server: TestServer;
let sessions = 0;

beforeAll(async () => {
  server = await startTestServer({
    bodyLimit: LIMIT,
    scenarioFiles: { 'calm.yaml': 'scenarios:\n  - name: flaky\n    steps: [pass]\n' },
  });
});
afterAll(() => server.close());

/**
 * A session per request: what one request adds (fixtures, a scenario) never reaches the next; a
 * route made from what its session holds (a video, a batch's file) is sent in that session.
 */
function headersFor(route: Route, contentType: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: 'Bearer sk-fuzz',
    'x-mock-session': route.session ?? `fuzz-${sessions++}`,
    ...(contentType === undefined ? {} : { 'content-type': contentType }),
    ...route.headers,
    ...extra,
  };
}

const SPECIAL_STRINGS = ['', ' ', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'null', 'NaN',
  '<|endoftext|>', '\u0000', '\ud800', '\udfff', '\u202e', '🧨'.repeat(50), 'a'.repeat(20_000), '{{ request.model }}', '../../etc/passwd', '%00'];

/** Values of every JSON type and then some, for a field that expects something else. */
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, -0, 2 ** 53 + 2, 1e308, -1e308, 5e-324),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(...SPECIAL_STRINGS),
  fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 }),
  fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('constructor', 'prototype', 'toString')), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
  fc.jsonValue({ maxDepth: 6 }),
);

/** Number literals JSON allows but JavaScript numbers cannot hold. */
const RAW_NUMBERS = ['1e400', '-1e400', '123456789012345678901234567890', '-0.0', '1e-400', '0.1e1', '9007199254740993'];

interface Attempt {
  label: string;
  body: string | Buffer;
  contentType: string | undefined;
  headers?: Record<string, string>;
  /** Invalid whatever the route: must be a 4xx. Otherwise a success is allowed too. */
  surelyInvalid: boolean;
}

const PLACEHOLDER = '"__RAW_NUMBER__"';

function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function jsonAttempts(route: Route): fc.Arbitrary<Attempt> {
  const valid = route.valid ?? {};
  const paths = fieldPaths(valid);
  const json = (body: unknown): string => JSON.stringify(body);
  const pathArb = paths.length > 0 ? fc.constantFrom(...paths) : fc.constant(['model']);
  return fc.oneof(
    // An empty body reads as {} (as co-body has it), so not-JSON has something in it.
    fc.string().filter((text) => text.trim() !== '' && !isJson(text)).map((text) => ({ label: 'not JSON', body: text, contentType: 'application/json', surelyInvalid: true })),
    fc.constantFrom('{', '{"model":', '[1,2', '{"a":1,}', "{'a':1}", '{"a":undefined}', 'nul', '{"a":"\\x41"}').map((text) => ({
      label: 'broken JSON',
      body: text,
      contentType: 'application/json',
      surelyInvalid: true,
    })),
    fc.oneof(fc.jsonValue(), fc.constant(null)).filter((value) => value === null || typeof value !== 'object' || Array.isArray(value)).map((value) => ({
      label: 'not an object',
      body: json(value),
      contentType: 'application/json',
      surelyInvalid: true,
    })),
    fc.tuple(pathArb, weirdValue).map(([path, value]) => ({
      label: `wrong value at ${path.join('.')}`,
      body: json(withValueAt(valid, path, value)),
      contentType: 'application/json',
      surelyInvalid: false,
    })),
    fc.tuple(pathArb, fc.constantFrom(...RAW_NUMBERS)).map(([path, literal]) => ({
      label: `number ${literal} at ${path.join('.')}`,
      body: json(withValueAt(valid, path, '__RAW_NUMBER__')).replace(PLACEHOLDER, literal),
      contentType: 'application/json',
      surelyInvalid: false,
    })),
    fc.tuple(pathArb, fc.integer({ min: MAX_DEPTH_PROBE, max: 20_000 }), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>).map(
      ([path, depth, kind]) => ({
        label: `${depth} levels deep at ${path.join('.')}`,
        body: json(withValueAt(valid, path, '__RAW_NUMBER__')).replace(PLACEHOLDER, nested(depth, kind)),
        contentType: 'application/json',
        surelyInvalid: true,
      }),
    ),
    fc.tuple(pathArb, fc.integer({ min: LIMIT + 1, max: LIMIT * 3 })).map(([path, size]) => ({
      label: `${size} characters at ${path.join('.')}`,
      body: json(withValueAt(valid, path, 'x'.repeat(size))),
      contentType: 'application/json',
      surelyInvalid: true,
    })),
    fc.constantFrom('__proto__', 'constructor', 'prototype').map((key) => ({
      label: `a "${key}" key`,
      body: json(valid).replace(/^\{/, `{"${key}":{"polluted":true,"prototype":{"polluted":true}},`),
      contentType: 'application/json',
      surelyInvalid: key === '__proto__',
    })),
    fc.constantFrom('', ' ', '\r\n').map((text) => ({ label: 'empty body', body: text, contentType: 'application/json', surelyInvalid: false })),
    fc
      .constantFrom(
        undefined,
        '',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/octet-stream',
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'application/json; charset=latin1',
        'application/json; charset=nonsense',
        'application/json, text/plain',
        'image/png',
        '*/*',
        'garbage///',
        'application/vnd.api+json',
      )
      .map((contentType) => ({ label: `content type ${String(contentType)}`, body: json(valid), contentType, surelyInvalid: false })),
    fc.tuple(fc.constantFrom('gzip', 'deflate', 'br', 'compress', 'identity, gzip', 'x-nonsense'), fc.uint8Array({ minLength: 1, maxLength: 64 })).map(
      ([encoding, bytes]) => ({
        label: `content-encoding ${encoding}`,
        body: Buffer.from(bytes),
        contentType: 'application/json',
        headers: { 'content-encoding': encoding },
        // A few random bytes can be a whole brotli stream (of nothing); the others always fail.
        surelyInvalid: encoding !== 'br',
      }),
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((text) => ({
      label: 'urlencoded garbage',
      body: `${text}&__proto__[polluted]=1&constructor[prototype][polluted]=1&a[b][c][d][e][f][g][h]=1`,
      contentType: 'application/x-www-form-urlencoded',
      surelyInvalid: false,
    })),
  );
}

/** The smallest depth past the limit a body may nest. */
const MAX_DEPTH_PROBE = 130;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const fieldName = fc.oneof(
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 30 }).filter((name) => !/["\r\n\\]/.test(name)),
  fc.constantFrom('__proto__', '__proto__[polluted]', 'constructor[prototype][polluted]', 'prototype', 'a[b][]', 'metadata[content][][type]',
    'a[4294967294]', 'a[99999999999]', 'a[1001]', `${'a'.repeat(10)}${'[x]'.repeat(200)}`, 'image[]', 'model[]', 'prompt[0]'),
);

function multipartAttempts(route: Route): fc.Arbitrary<Attempt> {
  const fields = formFields(route.valid ?? {});
  return fc.oneof(
    fc.tuple(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=x', 'multipart/form-data; boundary="a b"')).map(
      ([bytes, contentType]) => ({ label: 'multipart garbage', body: Buffer.from(bytes), contentType, surelyInvalid: true }),
    ),
    fc
      .tuple(
        fc.array(fc.tuple(fieldName, fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...SPECIAL_STRINGS))), { maxLength: 4 }),
        fc.array(fc.tuple(fc.constantFrom('image', 'mask', 'input_reference', '__proto__', 'constructor', 'image[]'), fc.uint8Array({ maxLength: 64 })), { maxLength: 3 }),
        fc.boolean(),
      )
      .map(([extra, files, withPng]) => {
        const form = multipart(
          [...fields, ...extra],
          [
            ...(route.files ?? []),
            ...files.map(([name, data]): [string, string, Buffer] => [name, 'f.png', Buffer.from(data)]),
            ...(withPng ? [['image', 'ok.png', PNG] as [string, string, Buffer]] : []),
          ],
        );
        return { label: `form with ${JSON.stringify(extra).slice(0, 200)}`, body: form.body, contentType: form.contentType, surelyInvalid: false };
      }),
    fc.tuple(fc.integer({ min: MAX_DEPTH_PROBE, max: 5000 }), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>).map(([depth, kind]) => {
      const form = multipart([...fields, ['metadata', nested(depth, kind)]], route.files);
      return { label: `metadata text ${depth} levels deep`, body: form.body, contentType: form.contentType, surelyInvalid: false };
    }),
    fc.integer({ min: LIMIT + 1, max: LIMIT * 2 }).map((size) => {
      const form = multipart(fields, [['image', 'big.png', Buffer.alloc(size, 1)]]);
      return { label: `a file of ${size} bytes`, body: form.body, contentType: form.contentType, surelyInvalid: true };
    }),
  );
}

async function attempt(route: Route, tried: Attempt): Promise<void> {
  const context = `${route.method} ${route.path} with ${tried.label}`;
  const answer = await send(server.url, route.method, route.path, headersFor(route, tried.contentType, tried.headers), tried.body);
  if (tried.surelyInvalid) expectClientError(route.envelope, answer, context);
  else expectNoServerError(route.envelope, answer, context);
  expectPrototypesClean();
}

/** About as many runs in all as when the table had 28 routes with a body: the suite's time stays. */
const BODY_ROUTES = ROUTES.filter((r) => r.body !== 'none');
const RUNS = Math.max(20, Math.round(2800 / BODY_ROUTES.length));

describe('generated malformed bodies', () => {
  for (const sampled of BODY_ROUTES) {
    it(`${sampled.method} ${sampled.path}${sampled.label ? ` (${sampled.label})` : ''} answers each in its envelope, never a 5xx`, async () => {
      const route = await onServer(server.url, sampled);
      const attempts = route.body === 'multipart' ? fc.oneof(jsonAttempts(route), multipartAttempts(route)) : jsonAttempts(route);
      await fc.assert(
        fc.asyncProperty(attempts, (tried) => attempt(route, tried)),
        { numRuns: RUNS },
      );
    });
  }

  it('ignores any body on routes that take none, answering as without it', async () => {
    // Mutating admin routes refuse a body that is not JSON (415), so no form can drive them.
    const bodyless = ROUTES.filter((r) => r.body === 'none' && (r.method === 'GET' || !r.path.startsWith('/__admin')));
    const plain = new Map<Route, number>();
    for (const route of bodyless) plain.set(route, (await send(server.url, route.method, route.path, headersFor(route, undefined, { 'x-mock-session': 'bodyless' }))).status);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bodyless), jsonAttempts(ROUTES[0]!), async (route, tried) => {
        const answer = await send(server.url, route.method, route.path, headersFor(route, tried.contentType, { 'x-mock-session': 'bodyless', ...tried.headers }), tried.body);
        expect(answer.status, `${route.method} ${route.path} with ${tried.label}: ${answer.text.slice(0, 200)}`).toBe(plain.get(route));
      }),
      { numRuns: 80 },
    );
  });

  it('keeps serving a well-formed request through the SDK afterwards', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'still there?' }] });
    expect(completion.choices[0]!.message.content).toBeTruthy();
    expectPrototypesClean();
  });
});
