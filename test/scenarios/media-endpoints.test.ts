// Scenarios reach the images and video endpoints too, matched on the prompt, each answered in
// the endpoint's own envelope; and the journal records what those requests were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCENARIOS = `
scenarios:
  - name: limited
    steps: [ { error: rate_limit, times: 1, headers: { retry-after: "1" } }, pass ]
  - name: broken
    steps: [ { error: server_error, message: "The render farm is down." } ]
  - name: no-cats
    match: { contains: "cat" }
    steps: [ { error: forbidden, message: "No cats." } ]
  - name: garbled
    steps: [ { fault: malformed } ]
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock: 'manual', scenarioFiles: { 'media.yaml': SCENARIOS } });
});
afterAll(() => server.close());

function call(method: string, path: string, session: string, scenario: string | undefined, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { authorization: 'Bearer sk-test', 'content-type': 'application/json', 'x-mock-session': session };
  if (scenario) headers['x-mock-scenario'] = scenario;
  return fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

describe('scenarios on the media endpoints', () => {
  it('rate-limits an image request once, with the OpenAI headers, then passes', async () => {
    const body = { model: 'gpt-image-1', prompt: 'a lamp', size: '64x64' };
    const limited = await call('POST', '/v1/images/generations', 'img-limit', 'limited', body);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(((await limited.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
    expect((await call('POST', '/v1/images/generations', 'img-limit', 'limited', body)).status).toBe(200);
  });

  it('fails a video creation in the OpenAI envelope and a gateway status read in its own wrapper', async () => {
    const failed = await call('POST', '/v1/videos', 'vid-broken', 'broken', { prompt: 'a storm' });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ error: { message: 'The render farm is down.', type: 'server_error' } });

    const created = (await (await call('POST', '/v1/video/generations', 'vid-broken', undefined, { prompt: 'a storm' })).json()) as { id: string };
    const read = await call('GET', `/v1/video/generations/${created.id}`, 'vid-broken', 'broken');
    expect(read.status).toBe(500);
    expect(await read.json()).toEqual({ code: 'server_error', message: 'The render farm is down.', data: null });
  });

  it('matches on the prompt: a cat is refused, a dog is not', async () => {
    const cat = await call('POST', '/v1/videos', 'vid-match', 'no-cats', { prompt: 'a cat on a roof' });
    expect(cat.status).toBe(403);
    expect(((await cat.json()) as { error: { message: string } }).error.message).toBe('No cats.');
    expect((await call('POST', '/v1/videos', 'vid-match', 'no-cats', { prompt: 'a dog on a roof' })).status).toBe(200);
    const image = await call('POST', '/v1/images/generations', 'vid-match', 'no-cats', { prompt: 'a cat', size: '64x64' });
    expect(image.status).toBe(403);
  });

  it('garbles the JSON body of an image answer with the malformed fault', async () => {
    const response = await call('POST', '/v1/images/generations', 'img-garbled', 'garbled', { prompt: 'a lamp', size: '64x64' });
    expect(response.status).toBe(200);
    await expect(response.clone().json()).rejects.toThrow();
    expect((await response.text()).startsWith('{"created":')).toBe(true);
  });
});

describe('the journal of media requests', () => {
  it('names the style, the model and the scenario', async () => {
    await call('POST', '/v1/images/generations', 'journal', undefined, { prompt: 'a kettle', size: '64x64' });
    await call('POST', '/v1/videos', 'journal', 'no-cats', { prompt: 'a cat' });
    const created = (await (await call('POST', '/v1/video/generations', 'journal', undefined, { prompt: 'waves' })).json()) as { id: string };
    await call('GET', `/v1/video/generations/${created.id}`, 'journal', undefined);
    const { requests } = (await (await server.admin('/requests?session=journal')).json()) as {
      requests: Array<{ path: string; style: string; model: string; status: number; scenario: string | null }>;
    };
    expect(requests.map(({ path, style, model, status, scenario }) => ({ path, style, model, status, scenario }))).toEqual([
      { path: '/v1/images/generations', style: 'images', model: 'gpt-image-1', status: 200, scenario: null },
      { path: '/v1/videos', style: 'videos', model: 'sora-2', status: 403, scenario: 'no-cats' },
      { path: '/v1/video/generations', style: 'videos', model: 'sora-2', status: 200, scenario: null },
      { path: `/v1/video/generations/${created.id}`, style: 'videos', model: 'sora-2', status: 200, scenario: null },
    ]);
  });
});
