// The chat operation without HTTP: a plain request in, a plan and its notes out, in every style;
// scenario steps come back as data (an error with its wait, a fault for the writer).
import { describe, expect, it, vi } from 'vitest';
import { STYLES } from '../../src/styles/registry.js';
import { answer, plainMock } from '../helpers/mock.js';

const mock = plainMock({
  fixtures: {
    'models.yaml': 'models:\n  - { id: gpt-4o-mini }\n  - { id: claude-sonnet-4-5, owned_by: anthropic }\n',
    'chat.yaml': 'chat:\n  - name: weather\n    match: { contains: weather, tools: [get_weather] }\n    reply: { text: "Sunny." }\n  - name: greeting\n    match: { contains: hello }\n    reply: { text: "Hi there." }\n',
  },
  scenarios: {
    's.yaml': [
      'scenarios:',
      '  - name: twice',
      '    steps: [ { error: rate_limit, times: 1, headers: { retry-after: "3" } }, { fault: cut_stream, after_chunks: 2, times: 1 }, { error: timeout, delay_ms: 250 } ]',
    ].join('\n'),
  },
});

const ask = (text: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });

describe('chat, as a plain operation', () => {
  it('answers a fixture as a JSON plan and notes where the answer came from', async () => {
    const outcome = await answer(mock, 'POST /v1/chat/completions', { body: ask('hello!') });
    expect(outcome.notes).toMatchObject({ style: 'chat-completions', model: 'gpt-4o-mini', fixture: 'greeting', scenario: null, fault: null });
    if (!('plan' in outcome) || outcome.plan.kind !== 'json') throw new Error('expected a JSON plan');
    expect((outcome.plan.body as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe('Hi there.');
  });

  it('makes the events of a stream when they are first read, not before its headers can go', async () => {
    const making = vi.spyOn(STYLES['chat-completions'].style, 'events');
    try {
      const outcome = await answer(mock, 'POST /v1/chat/completions', { body: { ...ask('hello'), stream: true } });
      if (!('plan' in outcome) || outcome.plan.kind !== 'stream') throw new Error('expected a stream plan');
      expect(making).not.toHaveBeenCalled();
      expect(outcome.plan.events).toBe(outcome.plan.events);
      expect(making).toHaveBeenCalledTimes(1);
    } finally {
      making.mockRestore();
    }
  });

  it('plans a stream as events whose text joins to the fixture', async () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hello' }] };
    const outcome = await answer(mock, 'POST /v1/messages', { headers: { 'anthropic-version': '2023-06-01' }, body });
    if (!('plan' in outcome) || outcome.plan.kind !== 'stream') throw new Error('expected a stream plan');
    const deltas = outcome.plan.events
      .map((event) => event.data as { type?: string; delta?: { text?: string } })
      .filter((data) => data.type === 'content_block_delta')
      .map((data) => data.delta?.text ?? '');
    expect(deltas.join('')).toBe('Hi there.');
    expect(outcome.plan.events[0]!.event).toBe('message_start');
  });

  it('notes the closest fixture and its failed keys when nothing matches', async () => {
    const outcome = await answer(mock, 'POST /v1/responses', { body: { model: 'gpt-4o-mini', input: 'weather please' } });
    expect(outcome.notes.fixture).toBeNull();
    expect(outcome.notes.nearMiss).toMatchObject({ fixture: 'weather', failed: ['tools'] });
  });

  it('returns a client mistake as an error outcome naming the field, with what it noted so far', async () => {
    const outcome = await answer(mock, 'POST /v1/chat/completions', { body: { model: 'gpt-4o-mini', messages: 'hi' } });
    if (!('error' in outcome)) throw new Error('expected an error');
    expect(outcome.error.kind).toBe('invalid_request');
    expect(outcome.error.options.param).toBe('messages');
    expect(outcome.notes.style).toBe('chat-completions');
  });

  it('takes scenario steps as data: an error, then a fault, then an error after its wait', async () => {
    const exchange = () => ({ headers: { 'x-mock-session': 'steps', 'x-mock-scenario': 'twice' }, body: { ...ask('hello'), stream: true } });
    const first = await answer(mock, 'POST /v1/chat/completions', exchange());
    if (!('error' in first)) throw new Error('expected the 429');
    expect(first.error.kind).toBe('rate_limit');
    expect(first.error.options.headers).toEqual({ 'retry-after': '3' });
    expect(first.notes).toMatchObject({ scenario: 'twice', scenarioStep: 0, fault: 'rate_limit' });

    const second = await answer(mock, 'POST /v1/chat/completions', exchange());
    if (!('plan' in second)) throw new Error('expected a plan');
    expect(second.fault).toEqual({ kind: 'cut_stream', afterChunks: 2 });
    expect(second.notes).toMatchObject({ scenarioStep: 1, fault: 'cut_stream', fixture: 'greeting' });

    const third = await answer(mock, 'POST /v1/chat/completions', exchange());
    if (!('error' in third)) throw new Error('expected the timeout');
    expect(third.waitMs).toBe(250);
    expect(third.notes).toMatchObject({ scenarioStep: 2, fault: 'timeout' });
  });
});
