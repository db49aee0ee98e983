// The inspector's `request` event carries the journal entry as the admin API shows it. Its JSON is
// made around the body and the response as they are kept, never parsed back and spelled again:
// a client parsing it reads exactly the entry.
import { describe, expect, it } from 'vitest';
import { shownEntry, shownEntryJson, type EntryFields } from '../../src/state/journal.js';

const fields = (overrides: Partial<EntryFields> = {}): EntryFields => ({
  id: 'req_1', time: '2026-11-29T10:00:00.000Z', session: 's "quoted" \u2028', method: 'POST', path: '/v1/chat/completions', style: 'chat-completions',
  model: 'gpt-4o-mini', status: 200, fixture: 'a "fixture" named :body', scenario: null, duration_ms: 1.5, near_miss: { fixture: 'x', file: 'f.yaml', failed: ['contains'] },
  source: 'fixture', scenario_step: null, fault: null, upstream: null, upstream_refused: null, recorded: null, usage: null, cost_usd: null, batch: null,
  said: null, mcp: null, ...overrides,
});

describe('a request event', () => {
  it('parses to the entry shownEntry makes, for bodies and responses of every kind', () => {
    const bodies = [JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `caf\u00e9 "q" \\ ${'x'.repeat(100_000)}` }], n: 1e21, t: -0 }), 'null', JSON.stringify('[a body of about 9 characters, not kept]')];
    const responses = ['null', JSON.stringify({ status: 200, headers: { 'content-type': 'application/json' }, body: { id: 'chatcmpl-1', choices: [] } })];
    for (const body of bodies) {
      for (const response of responses) {
        for (const entry of [fields(), fields({ fixture: null, near_miss: null })]) {
          expect(JSON.parse(shownEntryJson(entry, body, response))).toEqual(shownEntry(entry, body, response));
          expect(JSON.stringify(JSON.parse(shownEntryJson(entry, body, response)))).toBe(JSON.stringify(shownEntry(entry, body, response)));
        }
      }
    }
  });

  it('shows an MCP call\'s arguments and result, read from the body and the response', () => {
    const entry = fields({ mcp: { server: 'docs', tool: 'search', is_error: false } });
    const body = JSON.stringify({ arguments: { q: 'parcel' } });
    const response = JSON.stringify({ status: 200, headers: {}, body: { content: [] } });
    expect(JSON.parse(shownEntryJson(entry, body, response))).toEqual(shownEntry(entry, body, response));
  });
});
