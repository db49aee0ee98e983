// Drift by shape: what the comparison names, and what it never names (values).
import { describe, expect, it } from 'vitest';
import { compareShapes, eventPattern, MAX_SHAPE_DEPTH, MAX_SHAPE_PATHS, type ShapedAnswer } from '../../src/styles/drift-shapes.js';

const completion = (overrides: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  ...overrides,
});
const whole = (body: unknown, headers: Record<string, string> = { 'x-request-id': 'a' }): ShapedAnswer => ({ status: 200, headers, body });

describe('compareShapes', () => {
  it('finds nothing when only values differ: ids, times, texts, numbers', () => {
    const other = completion({ id: 'chatcmpl-2', created: 99, choices: [{ index: 0, message: { role: 'assistant', content: 'Something else entirely.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 30, completion_tokens: 20, total_tokens: 50 } });
    expect(compareShapes(whole(other, { 'x-request-id': 'zzz' }), whole(completion()))).toEqual([]);
  });

  it('names a new field, a dropped field and a changed type by path', () => {
    const upstream = completion({ service_tier: 'default', usage: { prompt_tokens: 3, completion_tokens: '2', total_tokens: 5, prompt_tokens_details: { cached_tokens: 0 } } });
    const mock = completion({ system_fingerprint: 'fp' });
    expect(compareShapes(whole(upstream), whole(mock))).toEqual([
      { path: 'service_tier', kind: 'upstream has, mock lacks', upstream: 'string', mock: '-' },
      { path: 'system_fingerprint', kind: 'mock has, upstream lacks', upstream: '-', mock: 'string' },
      { path: 'usage.completion_tokens', kind: 'type differs', upstream: 'string', mock: 'number' },
      // Only the topmost missing path is named, not each field under it.
      { path: 'usage.prompt_tokens_details', kind: 'upstream has, mock lacks', upstream: 'object', mock: '-' },
    ]);
  });

  it('names a value of an enum-like field that the mock never sends', () => {
    const upstream = completion({ choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'end_turn' }] });
    expect(compareShapes(whole(upstream), whole(completion()))).toEqual([{ path: 'choices[].finish_reason', kind: 'new value', upstream: 'end_turn', mock: 'stop' }]);
  });

  it('says nothing of list elements when one side sent the list empty', () => {
    const upstream = completion({ tools: [{ type: 'function', name: 'x' }] });
    const mock = completion({ tools: [] });
    expect(compareShapes(whole(upstream), whole(mock))).toEqual([]);
  });

  it('names a header SDKs read that one side lacks', () => {
    expect(compareShapes(whole(completion(), { 'x-request-id': 'a', 'x-ratelimit-remaining-requests': '9' }), whole(completion()))).toEqual([
      { path: 'header:x-ratelimit-remaining-requests', kind: 'upstream has, mock lacks', upstream: 'string', mock: '-' },
    ]);
  });

  it('compares a stream by its event pattern, repeated deltas folded, and each event by its shape', () => {
    const events = (names: string[]) => names.map((event) => ({ event, data: { type: event } }));
    const mock: ShapedAnswer = { status: 200, headers: {}, events: events(['message_start', 'content_block_delta', 'content_block_delta', 'message_stop']) };
    const same: ShapedAnswer = { status: 200, headers: {}, events: events(['message_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'message_stop']) };
    expect(compareShapes(same, mock)).toEqual([]);
    const drifted: ShapedAnswer = { status: 200, headers: {}, events: events(['message_start', 'ping', 'content_block_delta', 'message_stop']) };
    expect(compareShapes(drifted, mock)).toEqual([
      { path: 'events', kind: 'event order differs', upstream: 'message_start ping content_block_delta message_stop', mock: 'message_start content_block_delta+ message_stop' },
      { path: 'event:ping', kind: 'upstream has, mock lacks', upstream: 'object', mock: '-' },
    ]);
  });

  it('folds bare data lines by their type, as chat-completions streams send them', () => {
    expect(eventPattern([{ event: null, data: { object: 'chat.completion.chunk' } }, { event: null, data: { object: 'chat.completion.chunk' } }, { event: null, data: '[DONE]' }])).toEqual(['data+']);
  });

  it('names only the status when one side answered an error and the other did not', () => {
    expect(compareShapes({ status: 429, headers: {}, body: { error: { type: 'rate_limit' } } }, whole({ id: 'x' }))).toEqual([
      { path: 'status', kind: 'type differs', upstream: '429', mock: '200' },
    ]);
  });

  it('names only the topmost of many paths the mock lacks, and keys holding dots or brackets as paths of their own', () => {
    const extra: Record<string, unknown> = {};
    for (let i = 0; i < 1000; i++) extra[`k${i}`] = { inner: { deeper: [i] } };
    const upstream = completion({ extra, 'usage.more': 1, 'extra.more': 1, choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.', refusal: null }, finish_reason: 'stop', logprobs: { content: [{ token: 'a' }] } }] });
    const findings = compareShapes(whole(upstream), whole(completion()));
    expect(findings).toEqual([
      { path: 'choices[].logprobs', kind: 'upstream has, mock lacks', upstream: 'object', mock: '-' },
      { path: 'choices[].message.refusal', kind: 'upstream has, mock lacks', upstream: 'null', mock: '-' },
      { path: 'extra.more', kind: 'upstream has, mock lacks', upstream: 'number', mock: '-' },
      { path: 'extra', kind: 'upstream has, mock lacks', upstream: 'object', mock: '-' },
      { path: 'usage.more', kind: 'upstream has, mock lacks', upstream: 'number', mock: '-' },
    ].sort((a, b) => (a.path < b.path ? -1 : 1)));
  });

  it(`compares an answer's first ${MAX_SHAPE_PATHS} paths, ${MAX_SHAPE_DEPTH} levels deep`, () => {
    const wide: Record<string, number> = {};
    for (let i = 0; i < 90_000; i++) wide[`key${String(i).padStart(5, '0')}`] = i;
    const findings = compareShapes(whole(wide), whole({}));
    // The root and the request id header are two of the paths.
    expect(findings).toHaveLength(MAX_SHAPE_PATHS - 2);
    expect(findings.at(-1)).toEqual({ path: `key${String(MAX_SHAPE_PATHS - 3).padStart(5, '0')}`, kind: 'upstream has, mock lacks', upstream: 'number', mock: '-' });
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    const deepFindings = compareShapes(whole({ x: deep }), whole({ x: deep }));
    expect(deepFindings).toEqual([]);
    expect(compareShapes(whole({ x: deep }), whole({ x: 1 }))).toEqual([
      { path: 'x', kind: 'type differs', upstream: 'object', mock: 'number' },
      { path: 'x.d', kind: 'upstream has, mock lacks', upstream: 'object', mock: '-' },
    ]);
  });
});
