// The fixture writer: the same answer gives the same bytes, and what it writes loads back through
// the project's own loader as the fixture it describes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { chatFixtureYaml, shortened, type ChatFixtureDocument } from '../../src/conversation/fixture-yaml.js';

function load(yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'mgm-fixture-yaml-'));
  writeFileSync(join(dir, 'recorded.yaml'), yaml);
  return loadConfig({ fixturesDirs: [dir], scenariosDirs: [] });
}

const pinned: ChatFixtureDocument = {
  name: 'chat-completions-gpt-4o-1a2b3c',
  comment: 'last user message: What is\nthe weather   in Paris?',
  match: { contains: 'weather in Paris', model: 'gpt-4o', fingerprint: '0123456789abcdef' },
  reply: {
    text: '  Sunny: 21°C.\nWear "light" things: {a: 1}  ',
    chunks: ['  Sunny', ': 21°C.\nWear', ' "light" things: {a: 1}  '],
    reasoning: 'The user wants weather.',
    toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', days: [1, 2], deep: { yes: true, none: null } } }],
    finishReason: 'tool_calls',
    usage: { inputTokens: 21, outputTokens: 7 },
  },
  stream: { first_chunk_ms: 300, chunk_ms: 25 },
};

describe('chatFixtureYaml', () => {
  it('writes the keys in a fixed order, a one-line comment first, chunks one a line', () => {
    const yaml = chatFixtureYaml(pinned);
    expect(yaml.split('\n')[0]).toBe('# last user message: What is the weather in Paris?');
    const keys = [...yaml.matchAll(/^\s*-?\s*([a-z_]+):/gm)].map((m) => m[1]);
    expect(keys).toEqual(['chat', 'name', 'match', 'fingerprint', 'model', 'contains', 'reply', 'literal', 'text', 'chunks', 'reasoning', 'tool_calls', 'name', 'arguments', 'city', 'days', 'deep', 'yes', 'none', 'finish_reason', 'usage', 'stream']);
    expect(yaml).toContain('        - ": 21°C.\\nWear"\n');
    expect(yaml).toContain('usage: { input_tokens: 21, output_tokens: 7 }');
    expect(chatFixtureYaml({ ...pinned, match: { fingerprint: '0123456789abcdef', model: 'gpt-4o', contains: 'weather in Paris' } })).toBe(yaml);
  });

  it('loads back through the loader as the same reply', () => {
    const result = load(chatFixtureYaml(pinned));
    expect(result.problems).toEqual([]);
    const [fixture] = result.config!.chat;
    expect(fixture!.name).toBe(pinned.name);
    expect(fixture!.text!.template.constant).toBe('  Sunny: 21°C.\nWear "light" things: {a: 1}  ');
    expect(fixture!.reasoning!.template.constant).toBe('The user wants weather.');
    expect(fixture!.toolCalls.map((call) => [call.name, call.arguments({} as never)])).toEqual([
      ['get_weather', { city: 'Paris', days: [1, 2], deep: { yes: true, none: null } }],
    ]);
    expect(fixture!.finishReason).toBe('tool_calls');
    expect(fixture!.usage).toEqual({ inputTokens: 21, outputTokens: 7 });
    expect(fixture!.chunks).toEqual(['  Sunny', ': 21°C.\nWear', ' "light" things: {a: 1}  ']);
  });

  it('writes an error reply that loads back with its status, kind, message and headers', () => {
    const error = { status: 429, kind: 'rate_limit' as const, message: 'Slow down: "now"', headers: { 'x-ratelimit-remaining-requests': '0', 'retry-after': '2' } };
    const yaml = chatFixtureYaml({ name: 'limited', comment: 'last user message: hi', match: { fingerprint: 'ffffffffffffffff' }, reply: { error } });
    expect(yaml.indexOf('retry-after')).toBeLessThan(yaml.indexOf('x-ratelimit-remaining-requests'));
    const result = load(yaml);
    expect(result.problems).toEqual([]);
    expect(result.config!.chat[0]!.error).toEqual(error);
  });

  it('shortens a long message to one line with an ellipsis', () => {
    expect(shortened('word '.repeat(50), 20)).toBe('word word word word…');
    expect(shortened('  short\n\ttext ')).toBe('short text');
  });
});
