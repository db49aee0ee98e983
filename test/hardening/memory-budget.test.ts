// Memory by bytes: a previous_response_id chain holds each turn once (the last turn costs what
// the first did), a chain whose oldest responses were evicted is served with those still held,
// and the per-session and overall budgets evict the oldest first, as /__admin/health reports.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { Mock } from '../../src/exchange/mock.js';
import { MemoryBudget } from '../../src/state/memory.js';
import { ResponseParts } from '../../src/state/response-parts.js';
import { journal, keep, storedConversation, type Session } from '../../src/state/session.js';
import { Sessions } from '../../src/state/sessions.js';
import { entryOf, keptBytes, keptEntry, type KeptEntry } from '../../src/state/journal.js';
import { answer, plainMock } from '../helpers/mock.js';
import { startTestServer } from '../helpers/server.js';

const MODELS = { 'models.yaml': 'models:\n  - { id: gpt-4o-mini }\n' };

/** Runs `turns` chained responses in one session; returns each turn's added response bytes and input tokens. */
async function chain(mock: Mock, session: string, turns: number) {
  let previous: string | undefined;
  const added: number[] = [];
  const inputTokens: number[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    const before = mock.sessions.get(session).holdings.use.responses;
    const body = { model: 'gpt-4o-mini', input: `turn ${turn}: and then?`, ...(previous ? { previous_response_id: previous } : {}) };
    const outcome = await answer(mock, 'POST /v1/responses', { headers: { 'x-mock-session': session }, body, bodySize: JSON.stringify(body).length });
    if (!('plan' in outcome) || outcome.plan.kind !== 'json') throw new Error(`turn ${turn}: ${JSON.stringify(outcome)}`);
    const response = outcome.plan.body as { id: string; usage: { input_tokens: number } };
    previous = response.id;
    added.push(mock.sessions.get(session).holdings.use.responses - before);
    inputTokens.push(response.usage.input_tokens);
  }
  return { last: previous!, added, inputTokens };
}

describe('a previous_response_id chain', () => {
  it('of 400 turns holds each turn once: the last turn adds about what the first did, and still carries them all', async () => {
    const mock = plainMock({ fixtures: MODELS });
    const { last, added, inputTokens } = await chain(mock, 'long', 400);
    const session = mock.sessions.get('long');
    const held = [...session.responses.values()].reduce((sum, stored) => sum + stored.turns.length, 0);
    // One input turn and one output turn per response: linear, where copying was quadratic (80,200).
    expect(held).toBe(800);
    expect(added.at(-1)!).toBeLessThanOrEqual(2 * added[0]!);
    expect(storedConversation(session, last)).toHaveLength(800);
    expect(inputTokens.at(-1)!).toBeGreaterThan(100 * inputTokens[0]!);
  });

  it('whose oldest responses were evicted is served with the turns still held', async () => {
    const mock = plainMock({ fixtures: MODELS });
    mock.sessions = new Sessions(100, mock.clock.now, 10_000, new MemoryBudget(1 << 30, 40 * 1024));
    const { last } = await chain(mock, 'short', 60);
    const session = mock.sessions.get('short');
    expect(session.responses.size).toBeLessThan(60);
    const held = storedConversation(session, last)!;
    expect(held.length).toBe(2 * session.responses.size);
    const next = await answer(mock, 'POST /v1/responses', { headers: { 'x-mock-session': 'short' }, body: { model: 'gpt-4o-mini', input: 'more', previous_response_id: last } });
    expect('plan' in next && next.plan.kind).toBe('json');
  });
});

function entry(id: string, path = '/'): KeptEntry {
  const fields = { id, time: '', session: 's', method: 'POST', path, style: null, model: null, status: 200, fixture: null, scenario: null, duration_ms: 0, near_miss: null, source: 'generated', scenario_step: null, fault: null, upstream: null, upstream_refused: null, recorded: null, usage: null, cost_usd: null, said: null, batch: null, mcp: null };
  return keptEntry(fields, 'null', 'null');
}

/** What a session of this id is counted at before it holds anything. */
function sessionCost(id: string): number {
  const sessions = new Sessions(100, () => 0);
  sessions.get(id);
  return sessions.memory.sessions;
}

/** What each of these entries is counted at. */
const J = keptBytes(entry('j0'));

describe('the memory budgets', () => {
  it('evict a session’s oldest items first, whatever their kind, past its own budget', () => {
    const sessions = new Sessions(100, () => 0, 10_000, new MemoryBudget(100 * J, 3 * J));
    const session: Session = sessions.get('s');
    journal(session, entry('j1'));
    keep(session, 'responses', 'r1', { turns: [], parts: new ResponseParts({}, []) }, J);
    journal(session, entry('j2'));
    keep(session, 'pictures', 'p1', { mimeType: 'image/png', data: new Uint8Array(1) }, J);
    expect(session.journal.toArray().map((e) => e.id)).toEqual(['j2']);
    expect([...session.responses.keys()]).toEqual(['r1']);
    keep(session, 'tasks', 't1', {}, 1.5 * J);
    expect([...session.responses.keys()]).toEqual([]);
    expect(session.journal.length).toBe(0);
    expect(session.holdings.use).toEqual({ journal: 0, responses: 0, fixtures: 0, pictures: J, tasks: 1.5 * J, files: 0, batches: 0, sessions: 0, total: 2.5 * J });
    expect(sessions.memory.total).toBe(2.5 * J + sessions.memory.sessions + sessions.memory.caches);
  });

  it('count a journal that dropped thousands of entries at what it still holds, its oldest evicted in turn with other kinds', () => {
    // Room for four entries: each entry past them evicts the oldest item.
    const sessions = new Sessions(100, () => 0, 10_000, new MemoryBudget(100 * J, 4.5 * J));
    const session: Session = sessions.get('s');
    for (let i = 0; i < 3000; i++) {
      journal(session, entry(`j${i}`));
      if (i === 1500) keep(session, 'responses', 'r1', { turns: [], parts: new ResponseParts({}, []) }, J);
    }
    expect(session.journal.toArray().map((e) => e.id)).toEqual(['j2996', 'j2997', 'j2998', 'j2999']);
    expect([...session.responses.keys()]).toEqual([]);
    expect(session.holdings.use).toMatchObject({ journal: 4 * J, responses: 0, total: 4 * J });
    // The response, kept after entry 1500, outlives the four entries before it and goes before the one after it.
    const other: Session = sessions.get('t');
    for (let i = 0; i < 4; i++) journal(other, entry(`k${i}`));
    keep(other, 'responses', 'r2', { turns: [], parts: new ResponseParts({}, []) }, J);
    journal(other, entry('k4'));
    expect(other.journal.toArray().map((e) => e.id)).toEqual(['k2', 'k3', 'k4']);
    expect([...other.responses.keys()]).toEqual(['r2']);
    journal(other, entry('k5'));
    journal(other, entry('k6'));
    journal(other, entry('k7'));
    expect(other.journal.toArray().map((e) => e.id)).toEqual(['k4', 'k5', 'k6', 'k7']);
    expect([...other.responses.keys()]).toEqual([]);
    // A ring at its bound overwrites its oldest, and that entry's own bytes go with it.
    const bounded = new Sessions(3, () => 0, 10_000, new MemoryBudget(100 * J, 50 * J));
    const ring: Session = bounded.get('s');
    const sized = (i: number) => entry(`j${i}`, `/${'v'.repeat(i % 7)}`);
    for (let i = 0; i < 3000; i++) journal(ring, sized(i));
    const held = keptBytes(sized(2997)) + keptBytes(sized(2998)) + keptBytes(sized(2999));
    expect(held).not.toBe(3 * keptBytes(sized(2999)));
    expect(ring.holdings.use).toMatchObject({ journal: held, total: held });
    expect(bounded.memory.journal).toBe(held);
  });

  it('evict from the least recently used session first past the overall budget, and give back a dropped session’s bytes', () => {
    // Room for two entries beside the two sessions themselves.
    const S = sessionCost('a');
    const sessions = new Sessions(100, () => 0, 2, new MemoryBudget(2.5 * J + 2 * S, 50 * J));
    journal(sessions.get('a'), entry('a1'));
    journal(sessions.get('b'), entry('b1'));
    journal(sessions.get('b'), entry('b2'));
    expect(sessions.get('a').journal.length).toBe(0);
    expect(sessions.get('b').journal.length).toBe(2);
    expect(sessions.memory.journal).toBe(2 * J);
    sessions.get('a');
    sessions.get('c'); // past two sessions, the least recently used (b) is dropped
    expect(sessions.memory).toMatchObject({ journal: 0, responses: 0, fixtures: 0, pictures: 0, tasks: 0, files: 0, sessions: 2 * S });
    expect(sessions.memory.total).toBe(2 * S + sessions.memory.caches);
  });

  it('bound the journal of a server started with sessionMemoryLimit, newest kept, and health reports it', async () => {
    const server = await startTestServer({ sessionMemoryLimit: '64kb' });
    try {
      const padding = 'p'.repeat(2000);
      for (let i = 0; i < 100; i += 1) {
        await fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', 'x-mock-session': 'm' },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `request ${i}` }], padding }),
        });
      }
      const { requests } = (await (await server.admin('/requests?session=m')).json()) as { requests: Array<{ body: { messages: Array<{ content: string }> } }> };
      expect(requests.length).toBeGreaterThan(5);
      expect(requests.length).toBeLessThan(100);
      expect(requests.at(-1)!.body.messages[0]!.content).toBe('request 99');
      const { memory } = (await (await server.admin('/health')).json()) as { memory: Record<string, number> };
      expect(Object.keys(memory).sort()).toEqual(['batches', 'cached', 'caches', 'files', 'fixtures', 'journal', 'pictures', 'responses', 'sessions', 'speech', 'tasks', 'total']);
      expect(memory.journal).toBeGreaterThan(0);
      expect(memory.journal).toBeLessThanOrEqual(64 * 1024);
      expect(memory.total).toBe(memory.journal! + memory.responses! + memory.fixtures! + memory.pictures! + memory.tasks! + memory.sessions! + memory.caches!);
    } finally {
      await server.close();
    }
  });
});

describe('a journal past half the overall budget', () => {
  it('packs its entries 32 at a time, holding a fraction of what they count, and reads them back the same', () => {
    const sessions = new Sessions(1000, () => 0, 10_000, new MemoryBudget(256 * 1024, 256 * 1024));
    const session = sessions.get('s');
    const made = Array.from({ length: 400 }, (_, i) => {
      const fields = { id: `req_${i}`, time: `t${i}`, session: 's', method: 'POST', path: '/v1/chat/completions', style: 'chat-completions', model: 'gpt-4o-mini', status: 200, fixture: null, scenario: null, duration_ms: 1.5, near_miss: null, source: 'generated', scenario_step: null, fault: null, upstream: null, upstream_refused: null, recorded: null, usage: null, cost_usd: null, said: null, batch: null, mcp: null };
      const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `question ${i}: where is my parcel?` }] });
      const response = JSON.stringify({ status: 200, headers: { 'content-type': 'application/json', 'x-request-id': `req_${i}` }, body: { choices: [{ message: { content: `Answer ${i}: it left the depot this morning.` } }] } });
      return keptEntry(fields, body, response);
    });
    const expected = made.map(entryOf);
    for (const entry of made) journal(session, entry);
    const held = session.journal.toArray();
    expect(held.map(entryOf)).toEqual(expected.slice(-held.length));
    const packed = held.filter((entry) => entry.payload.heldBytes < entry.payload.bytes);
    expect(packed.length).toBeGreaterThan(100);
    const heldBytes = packed.reduce((sum, entry) => sum + entry.payload.heldBytes, 0);
    const counted = packed.reduce((sum, entry) => sum + entry.payload.bytes, 0);
    expect(heldBytes).toBeLessThan(counted / 4);
  });
});

describe('a long journal entry (a stream of events, a large body)', () => {
  it('is kept as it is while the overall budget is under half full, and deflated alone as it comes past that', () => {
    const budget = new MemoryBudget(1024 * 1024, 1024 * 1024);
    const session = new Sessions(1000, () => 0, 10_000, budget).get('s');
    const entry = (i: number) => {
      const fields = { id: `req_${i}`, time: `t${i}`, session: 's', method: 'POST', path: '/v1/chat/completions', style: 'chat-completions', model: 'gpt-4o-mini', status: 200, fixture: null, scenario: null, duration_ms: 1.5, near_miss: null, source: 'generated', scenario_step: null, fault: null, upstream: null, upstream_refused: null, recorded: null, usage: null, cost_usd: null, said: null, batch: null, mcp: null };
      const events = Array.from({ length: 600 }, (_, n) => ({ event: null, data: { choices: [{ delta: { content: ` token ${n}` } }] } }));
      return keptEntry(fields, '{"stream":true}', JSON.stringify({ status: 200, headers: {}, events }));
    };
    const first = entry(0);
    journal(session, first);
    expect(first.payload.heldBytes).toBe(first.payload.bytes);
    while (budget.use.total <= budget.limitBytes / 2) journal(session, entry(budget.use.total));
    const late = entry(-1);
    journal(session, late);
    expect(late.payload.heldBytes).toBeLessThan(late.payload.bytes / 4);
    expect(entryOf(late)).toEqual(entryOf(entry(-1)));
  });
});

describe('stored responses past half the overall budget', () => {
  it('are packed 32 at a time and shown, with their input items, as they were answered', async () => {
    const mock = plainMock({ fixtures: MODELS });
    mock.sessions = new Sessions(1000, mock.clock.now, 10_000, new MemoryBudget(300 * 1024, 300 * 1024));
    const answered = new Map<string, unknown>();
    let previous: string | undefined;
    for (let turn = 0; turn < 120; turn += 1) {
      const body = { model: 'gpt-4o-mini', input: [{ role: 'user', content: `turn ${turn}: and then?` }], ...(previous ? { previous_response_id: previous } : {}) };
      const outcome = await answer(mock, 'POST /v1/responses', { headers: { 'x-mock-session': 'p' }, body, bodySize: JSON.stringify(body).length });
      if (!('plan' in outcome) || outcome.plan.kind !== 'json') throw new Error(JSON.stringify(outcome));
      const response = outcome.plan.body as { id: string };
      answered.set(response.id, JSON.parse(JSON.stringify(response)));
      previous = response.id;
    }
    const session = mock.sessions.get('p');
    expect(session.responses.size).toBeGreaterThan(60);
    for (const id of session.responses.keys()) {
      const shown = await answer(mock, 'GET /v1/responses/:id', { headers: { 'x-mock-session': 'p' }, params: { id } });
      expect('plan' in shown && shown.plan.kind === 'json' && JSON.parse(JSON.stringify(shown.plan.body))).toEqual(answered.get(id));
      const items = await answer(mock, 'GET /v1/responses/:id/input_items', { headers: { 'x-mock-session': 'p' }, params: { id } });
      expect('plan' in items && items.plan.kind === 'json' && (items.plan.body as { data: Array<{ content: Array<{ text: string }> }> }).data[0]!.content[0]!.text).toMatch(/^turn \d+: and then\?$/);
    }
  });
});

describe('session ids', () => {
  it('are at most 256 characters (a 400 naming the header or parameter) and count in the budget', async () => {
    const server = await startTestServer();
    try {
      const client = (session: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
      const ask = (session: string) => client(session).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      const refused = await ask('s'.repeat(257)).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('x-mock-session');
      expect((refused as Error).message).toMatch(/257 characters/);
      const admin = await server.admin(`/requests?session=${'q'.repeat(300)}`);
      expect(admin.status).toBe(400);
      expect(((await admin.json()) as { error: { param: string } }).error.param).toBe('session');

      const before = ((await (await server.admin('/health')).json()) as { memory: Record<string, number> }).memory;
      for (let i = 0; i < 200; i++) await ask(`${i}-${'s'.repeat(250)}`);
      const after = ((await (await server.admin('/health')).json()) as { memory: Record<string, number> }).memory;
      // Each session counts its id and its fixed state (about 2 KB), beside what it holds.
      expect(after.sessions! - before.sessions!).toBeGreaterThan(200 * 2000);
      expect(after.total).toBe(after.journal! + after.responses! + after.fixtures! + after.pictures! + after.tasks! + after.sessions! + after.caches!);
    } finally {
      await server.close();
    }
  });
});
