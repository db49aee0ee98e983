// The Responses API over WebSocket through the openai SDK's own `ResponsesWS`: each
// `response.create` answered with the typed events of the SSE stream (numbered from 0 per
// response), `previous_response_id` chained within the socket, a refused turn as an `error`
// event on a socket that stays open, and a scenario's cut dropping the socket mid-response.
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let mock: TestServer;
beforeAll(async () => {
  mock = await startTestServer({
    fixtureFiles: {
      'chat.yaml': [
        'chat:',
        '  - name: greeting',
        '    match: { contains: hello }',
        '    reply: { text: "Hi there, how can I help?" }',
        '  - name: follow-up',
        '    match: { contains: "again", turn: 2 }',
        '    reply: { text: "Still here." }',
      ].join('\n'),
    },
    scenarioFiles: {
      'cut.yaml': ['scenarios:', '  - name: cut_ws', '    steps:', '      - { fault: cut_stream, after_chunks: 2 }'].join('\n'),
    },
  });
});
afterAll(async () => {
  await mock.close();
});

type Event = { type: string; sequence_number?: number; [field: string]: unknown };

function connect(headers: Record<string, string> = {}) {
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `http://127.0.0.1:${mock.port}/v1` });
  const socket = new ResponsesWS(client, { headers });
  const events: Event[] = [];
  const errors: unknown[] = [];
  let closed = false;
  socket.on('event', (event) => events.push(event as unknown as Event));
  socket.on('error', (error) => errors.push(error));
  socket.socket.on('close', () => (closed = true));
  const next = async (type: string, after = 0): Promise<Event> => {
    let found: Event | undefined;
    await expect.poll(() => (found = events.slice(after).find((event) => event.type === type)), { timeout: 15_000, interval: 20 }).toBeTruthy();
    return found!;
  };
  return { socket, events, errors, next, closed: () => closed };
}

describe('Responses over WebSocket', () => {
  it('answers response.create with the typed events of the SSE stream, and chains previous_response_id', async () => {
    const { socket, events, next } = connect({ 'x-mock-session': 'rws-chain' });
    socket.send({ type: 'response.create', model: 'gpt-4o-mini', input: 'hello' });
    const completed = (await next('response.completed')) as Event & { response: { id: string; output_text?: string; output: Array<{ content: Array<{ text: string }> }> } };
    expect(completed.response.output[0]!.content[0]!.text).toBe('Hi there, how can I help?');
    const first = events.slice();
    expect(first.map((event) => event.type)).toEqual(expect.arrayContaining(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_text.delta', 'response.output_text.done', 'response.completed']));
    expect(first.map((event) => event.sequence_number)).toEqual(first.map((_, at) => at));
    expect(first.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta).join('')).toBe('Hi there, how can I help?');

    const after = events.length;
    socket.send({ type: 'response.create', model: 'gpt-4o-mini', input: 'say it again', previous_response_id: completed.response.id });
    const second = (await next('response.completed', after)) as Event & { response: { previous_response_id: string; output: Array<{ content: Array<{ text: string }> }> } };
    expect(second.response.output[0]!.content[0]!.text).toBe('Still here.');
    expect(second.response.previous_response_id).toBe(completed.response.id);
    expect(events[after]!.sequence_number).toBe(0);
    socket.close();

    const { requests } = (await (await mock.admin('/requests?session=rws-chain')).json()) as { requests: Array<{ style: string; path: string; source: string }> };
    expect(requests.map(({ style, path, source }) => ({ style, path, source }))).toEqual([
      { style: 'responses-ws', path: '/v1/responses', source: 'fixture:greeting' },
      { style: 'responses-ws', path: '/v1/responses', source: 'fixture:follow-up' },
    ]);
  });

  it('answers an unknown previous response with an error event, and the socket stays open', async () => {
    const { socket, events, errors, next, closed } = connect();
    socket.send({ type: 'response.create', model: 'gpt-4o-mini', input: 'hello', previous_response_id: 'resp_nowhere' });
    const error = await next('error');
    expect(error).toMatchObject({ type: 'error', status: 404, code: 'previous_response_not_found', param: 'previous_response_id', error: { code: 'previous_response_not_found' } });
    expect(errors).toHaveLength(1);
    socket.send({ type: 'response.create', model: 'gpt-4o-mini', input: 'hello' });
    await next('response.completed', events.length);
    expect(closed()).toBe(false);
    socket.close();
  });

  it('answers a message nested too deep with an error event, without parsing it, and the socket stays open', async () => {
    const { socket, events, next, closed } = connect();
    const deep = `${'['.repeat(150_000)}${']'.repeat(150_000)}`;
    // The SDK queues nothing written to its socket directly: wait until it is open.
    if (socket.socket.readyState !== 1) await new Promise((opened) => socket.socket.on('open', opened));
    const parse = vi.spyOn(JSON, 'parse');
    socket.socket.send(deep);
    await next('error');
    expect(parse.mock.calls.filter(([text]) => text === deep)).toEqual([]);
    parse.mockRestore();
    socket.send({ type: 'response.create', model: 'gpt-4o-mini', input: 'hello' });
    await next('response.completed', events.length);
    expect(closed()).toBe(false);
    socket.close();
  });

  it('refuses background over the socket, naming the field', async () => {
    const { socket, next } = connect();
    socket.send({ type: 'response.create', model: 'gpt-4o-mini', input: 'hello', background: true });
    expect(await next('error')).toMatchObject({ param: 'background', status: 400 });
    socket.close();
  });

  it('drops the socket mid-response under a cut_stream scenario', async () => {
    const { socket, events, closed } = connect({ 'x-mock-scenario': 'cut_ws', 'x-mock-session': 'rws-cut' });
    socket.send({ type: 'response.create', model: 'gpt-4o-mini', input: 'hello' });
    await expect.poll(closed, { timeout: 15_000, interval: 20 }).toBe(true);
    expect(events.filter((event) => event.type === 'response.output_text.delta')).toHaveLength(2);
    expect(events.some((event) => event.type === 'response.completed')).toBe(false);
    const { requests } = (await (await mock.admin('/requests?session=rws-cut')).json()) as { requests: Array<{ source: string }> };
    expect(requests[0]!.source).toBe('scenario:cut_ws#0');
  });
});
