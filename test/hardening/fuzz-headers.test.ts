// Generated odd headers at every route (key forms, content types, session, scenario and latency
// headers, version headers, query keys), and raw requests that Node's HTTP parser itself refuses:
// every answer is JSON in an error envelope, never a 5xx or a dropped connection.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectClientError, expectEnvelope, expectNoServerError, expectPrototypesClean, send, sendRaw } from './wire.js';
import { bodyOf, envelopeOf, onServer, ROUTES } from './sampled-routes.js';

let server: TestServer;
let sessions = 0;

beforeAll(async () => {
  server = await startTestServer({ bodyLimit: '64kb', scenarioFiles: { 'calm.yaml': 'scenarios:\n  - name: flaky\n    steps: [pass]\n' } });
});
afterAll(() => server.close());

/** What Node's client lets through in a header value: visible ASCII and spaces, no line breaks. */
const headerText = fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((text) => text.replace(/[^\x20-\x7e]/g, '').trim());

const oddHeaders = fc.record(
  {
    authorization: fc.oneof(
      fc.constantFrom('', 'Bearer', 'Bearer ', 'bearer k', 'BEARER  k', 'Basic Zm9vOmJhcg==', 'Token k', 'Bearer k k', 'Bearer\tk', 'k'),
      headerText.map((text) => `Bearer ${text}`),
      headerText,
    ),
    'x-api-key': headerText,
    'x-goog-api-key': headerText,
    'content-type': fc.oneof(
      fc.constantFrom('application/json', 'APPLICATION/JSON', 'application/json;', 'application/json; charset=', 'text/json', 'json', ';', '/', 'a/b/c', 'multipart/mixed'),
      headerText,
    ),
    'x-mock-session': fc.oneof(headerText, fc.constantFrom('__proto__', 'constructor', 'toString', '../..', 'default', ' ')),
    'x-mock-scenario': fc.oneof(headerText, fc.constantFrom('flaky', '__proto__', 'constructor')),
    'x-mock-latency': fc.constantFrom('none', 'NONE', '', 'fast', '0', '-1', '__proto__'),
    'anthropic-version': fc.oneof(headerText, fc.constantFrom('2023-06-01', '1999-01-01')),
    'anthropic-beta': headerText,
    'accept-encoding': fc.constantFrom('gzip', 'br', '*', 'identity;q=0', 'nonsense'),
    accept: fc.constantFrom('*/*', 'text/event-stream', 'application/json', 'image/png', ''),
  },
  { requiredKeys: [] },
);

const oddQuery = fc.oneof(
  fc.constant(''),
  fc.constantFrom('key=k', 'key=', 'key=a&key=b', 'alt=json', 'alt=sse&alt=json', 'mock_scenario=flaky', 'mock_scenario=nope', 'mock_scenario=a&mock_scenario=b',
    'session=x&session=y', 'stream=true', 'stream=true&starting_after=abc', 'limit=-5', 'limit=1e9', 'limit=a&limit=b', 'after=zzz', 'order=sideways',
    'variant=__proto__', 'variant=video&variant=thumbnail', 'pageSize=-1', 'pageToken=%00', '__proto__[x]=1', 'constructor[prototype][x]=1', '%E0%A4%A', 'a=%ZZ'),
);

/** About as many runs in all as when the table had 46 routes: the suite's time stays. */
const RUNS = Math.max(10, Math.round(1400 / ROUTES.length));

describe('generated odd headers and query strings', () => {
  for (const sampled of ROUTES) {
    it(`${sampled.method} ${sampled.path}${sampled.label ? ` (${sampled.label})` : ''} answers in its envelope, never a 5xx`, async () => {
      const route = await onServer(server.url, sampled);
      const { body, contentType } = bodyOf(route);
      await fc.assert(
        fc.asyncProperty(oddHeaders, oddQuery, async (headers, query) => {
          const path = query === '' ? route.path : `${route.path}${route.path.includes('?') ? '&' : '?'}${query}`;
          const sent: Record<string, string> = {
            'x-mock-session': route.session ?? `fuzz-${sessions++}`,
            ...(contentType && { 'content-type': contentType }),
            ...route.headers,
            ...headers,
          };
          const answer = await send(server.url, route.method, path, sent, body);
          // Model lists follow the client's dialect: the door says which envelope these headers get.
          const envelope = envelopeOf(route.key, { headers: sent, query: Object.fromEntries(new URLSearchParams(path.split('?')[1] ?? '')) });
          expectNoServerError(envelope, answer, `${route.method} ${path} with ${JSON.stringify(sent)}`);
          expectPrototypesClean();
        }),
        { numRuns: RUNS },
      );
    });
  }
});

describe('every method at every route', () => {
  it('answers without a 5xx, its errors in JSON', async () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND']) {
      for (const route of ROUTES) {
        const answer = await send(server.url, method, route.path, { authorization: 'Bearer k', ...route.headers });
        const context = `${method} ${route.path}`;
        expect(answer.status, `${context}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
        // A method the route does not take is an unknown URL, or another route of that path.
        if (answer.status >= 400 && method !== 'HEAD') expect(() => JSON.parse(answer.text), context).not.toThrow();
      }
    }
  });
});

/** An HTTP/1.1 request as bytes, the body framed by its length unless headers say otherwise. */
function raw(method: string, path: string, headers: string[], body = ''): string {
  return [`${method} ${path} HTTP/1.1`, 'host: localhost', ...headers, '', body].join('\r\n');
}

describe('requests the HTTP parser refuses', () => {
  const cases: Array<[string, string]> = [
    ['a Content-Length that is not a number', raw('POST', '/v1/chat/completions', ['content-length: abc', 'content-type: application/json'], '{}')],
    ['a negative Content-Length', raw('POST', '/v1/chat/completions', ['content-length: -1'], '{}')],
    ['two different Content-Lengths', raw('POST', '/v1/chat/completions', ['content-length: 2', 'content-length: 3'], '{}')],
    ['Content-Length and chunked together', raw('POST', '/v1/chat/completions', ['content-length: 2', 'transfer-encoding: chunked'], '{}')],
    ['a NUL byte in a header', raw('POST', '/v1/chat/completions', ['authorization: Bearer \u0000k', 'content-length: 2'], '{}')],
    ['a header name with a space', raw('GET', '/v1/models', ['bad header: x'])],
    ['a header line without a colon', raw('GET', '/v1/models', ['authorization'])],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['an unknown HTTP version', 'GET /v1/models HTTP/9.9\r\nhost: x\r\n\r\n'],
    ['headers larger than Node takes', raw('GET', '/v1/models', [`x-big: ${'a'.repeat(20_000)}`])],
    ['a chunk size that is not hex', raw('POST', '/v1/chat/completions', ['transfer-encoding: chunked', 'content-type: application/json'], 'zz\r\n{}\r\n0\r\n\r\n')],
  ];
  for (const [label, bytes] of cases) {
    it(`answers ${label} with a JSON 4xx`, async () => {
      const [answer, ...rest] = await sendRaw(server.url, bytes);
      expect(answer, label).toBeDefined();
      expectClientError('openai', answer!, label);
      expect(rest).toEqual([]);
    });
  }

  it('answers an oversized Content-Length in the route envelope before the body is sent', async () => {
    const routes = ROUTES.filter((route) => route.body !== 'none');
    for (const route of routes) {
      const headers = Object.entries({ authorization: 'Bearer k', 'content-type': 'application/json', 'content-length': '99999999999', ...route.headers }).map(
        ([name, value]) => `${name}: ${value}`,
      );
      const [answer] = await sendRaw(server.url, raw(route.method, route.path, headers));
      expect(answer, route.path).toBeDefined();
      expect(answer!.status, `${route.path}: ${answer!.text}`).toBe(413);
      expectEnvelope(route.envelope, answer!, `${route.method} ${route.path}`);
    }
  });

  it('answers a body longer than its Content-Length, then the leftover as a bad request, on one connection', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const answers = await sendRaw(server.url, raw('POST', '/v1/chat/completions', ['authorization: Bearer k', 'content-type: application/json', 'content-length: 10'], body), 2);
    expect(answers.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expectClientError('openai', answer, 'a short Content-Length');
  });

  it('ignores a body sent with a GET and serves the next request on the same connection', async () => {
    const junk = '{"model": [[[[ not json';
    const first = raw('GET', '/v1/models', ['authorization: Bearer k', 'content-type: application/json', `content-length: ${junk.length}`], junk);
    const second = raw('GET', '/v1/models/gpt-4o-mini', ['authorization: Bearer k']);
    const answers = await sendRaw(server.url, first + second, 2);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(JSON.parse(answers[1]!.text)).toMatchObject({ id: 'gpt-4o-mini' });
  });

  it('keeps serving after all of it', async () => {
    const answer = await send(server.url, 'GET', '/v1/models', { authorization: 'Bearer k' });
    expect(answer.status).toBe(200);
    expectPrototypesClean();
  });
});
