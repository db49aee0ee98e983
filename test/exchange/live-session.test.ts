// The seam for doors that stay open, shown with a door of the test's own and no protocol: opened
// in a mock session, two chat turns through the chat operation, closed. Each turn is served like
// a request sent alone: journaled in the opening's session with what it said and what answered
// it, counted in metrics and announced to the inspector.
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/exchange/exchange.js';
import { openLiveSession, type LiveDoor } from '../../src/exchange/live-session.js';
import { modelRoute } from '../../src/exchange/model-routes.js';
import { adminCall, plainExchange, plainMock } from '../helpers/mock.js';

const mock = plainMock({ fixtures: { 'chat.yaml': 'chat:\n  - name: greeting\n    match: { contains: hello }\n    reply: { text: "Hi there." }\n' } });
const chat = modelRoute('POST', '/v1/chat/completions');

/** The test's door: each turn's outcome sent as one JSON message, as a socket might. */
const written: unknown[] = [];
const door: LiveDoor = {
  door: chat.door,
  route: '/v1/live-double',
  async write(outcome: Outcome, requestId: string) {
    const { status, body } = 'error' in outcome ? outcome.envelope(outcome.error, requestId) : outcome.plan.kind === 'json' ? outcome.plan : { status: 500, body: null };
    written.push(body);
    return { status, response: JSON.stringify({ status, headers: {}, body }) };
  },
};

const said = (text: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });
const replyOf = (body: unknown) => (body as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content;

interface Entry {
  id: string;
  session: string;
  method: string;
  path: string;
  style: string;
  source: string;
  body: unknown;
  response: { status: number; body: unknown };
}

describe('a live session', () => {
  it('serves each turn as one journal entry of its session, counted and announced', async () => {
    const watcher = mock.events.subscribe();
    const opening = plainExchange(mock, { method: 'GET', path: '/v1/live-double', headers: { 'x-mock-session': 'live-1' }, body: null });
    const live = openLiveSession(mock, opening, door);
    await live.turn(chat.operation, said('hello there'));
    await live.turn(chat.operation, said('what now?'));
    live.close();
    await expect(live.turn(chat.operation, said('hello again'))).rejects.toThrow(/closed/);

    const { requests } = adminCall(mock, 'GET /requests', { query: { session: 'live-1' } }) as { requests: Entry[] };
    expect(requests).toHaveLength(2);
    for (const entry of requests) expect(entry).toMatchObject({ session: 'live-1', method: 'GET', path: '/v1/live-double', style: 'chat-completions' });
    const byText = new Map(requests.map((entry) => [(entry.body as ReturnType<typeof said>).messages[0]!.content, entry]));
    expect([...byText.keys()].sort()).toEqual(['hello there', 'what now?']);
    expect(byText.get('hello there')).toMatchObject({ source: 'fixture:greeting', response: { status: 200 } });
    expect(replyOf(byText.get('hello there')!.response.body)).toBe('Hi there.');
    expect(byText.get('what now?')!.source).toBe('generated');
    expect(replyOf(byText.get('what now?')!.response.body)).toBe(replyOf(written[1]));

    const metrics = (await mock.metrics.exposition()).text;
    const counted = (source: string) => `mock_requests_total{route="/v1/live-double",style="chat-completions",status="200",source="${source}"} 1`;
    expect(metrics).toContain(counted('fixture:greeting'));
    expect(metrics).toContain(counted('generated'));

    const announced: string[] = [];
    for await (const event of watcher) {
      if (event.name === 'request') announced.push((JSON.parse(event.json) as Entry).id);
      if (announced.length === 2) break;
    }
    expect(announced.sort()).toEqual(requests.map((entry) => entry.id).sort());
  });

  it('serves a turn the mock itself failed as a server error, and takes the next turn', async () => {
    const opening = plainExchange(mock, { method: 'GET', path: '/v1/live-double', headers: { 'x-mock-session': 'live-2' }, body: null });
    const live = openLiveSession(mock, opening, door);
    const broken = await live.turn(async () => {
      throw new Error('a defect');
    }, said('hello'));
    expect('error' in broken && broken.error.kind).toBe('server_error');
    await live.turn(chat.operation, said('hello'));
    const { requests } = adminCall(mock, 'GET /requests', { query: { session: 'live-2' } }) as { requests: Entry[] };
    expect(requests.map((entry) => entry.response.status).sort()).toEqual([200, 500]);
  });
});
