// The fixture keys replay needs, written by hand: `match.fingerprint` pins one turn of one
// conversation in every style, `reply.chunks` are the stream's deltas, `reply.error` answers an
// error in the style's envelope with its headers.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/conversation/fingerprint.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const question = [{ role: 'user' as const, content: 'What is the capital of Norway?' }];
const pinned = fingerprint({ model: 'gpt-4o-mini', system: '', turns: [{ role: 'user', parts: [{ kind: 'text', text: question[0]!.content }] }], tools: [] });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: {
      'replay.yaml': [
        'chat:',
        '  - name: capital',
        `    match: { fingerprint: "${pinned}" }`,
        '    reply:',
        '      chunks: ["Os", "lo", " it is."]',
        '  - name: busy',
        '    match: { contains: busy }',
        '    reply:',
        '      error: { kind: rate_limit, status: 429, message: "Slow down.", headers: { retry-after: "7", x-ratelimit-remaining-requests: "0" } }',
        '  - name: refused',
        '    match: { contains: refuse }',
        '    reply: { error: invalid_request, message: "Nope." }',
      ].join('\n'),
    },
  });
});
afterAll(() => server.close());

const openai = () => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });

describe('replay keys', () => {
  it('streams reply.chunks as the deltas, and joins them for a whole reply', async () => {
    const stream = await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: question, stream: true });
    const deltas: string[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    expect(deltas).toEqual(['Os', 'lo', ' it is.']);
    const whole = await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: question });
    expect(whole.choices[0]!.message.content).toBe('Oslo it is.');
  });

  it('matches the fingerprint in another style, and not after another turn', async () => {
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'sk-test', maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'gpt-4o-mini', max_tokens: 50, messages: question });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Oslo it is.' });
    const longer = await openai().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [...question, { role: 'assistant', content: 'Oslo it is.' }, ...question],
    });
    expect(longer.choices[0]!.message.content).not.toBe('Oslo it is.');
  });

  it('answers reply.error in the style envelope with its status and headers', async () => {
    const error = await openai()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'busy?' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('7');
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).message).toContain('Slow down.');
    const refused = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'refuse this' }] }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'Nope.' } });
  });

  it('refuses chunks that do not join to the text, and a malformed fingerprint, at file:line:col', async () => {
    const { loadConfig } = await import('../../src/config/load.js');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'mgm-keys-'));
    writeFileSync(join(dir, 'bad.yaml'), 'chat:\n  - match: { fingerprint: xyz }\n    reply: { text: a }\n');
    const shown = () => loadConfig({ fixturesDir: dir }).problems.map((p) => `${p.line}:${p.col} ${p.message}`).join('\n');
    expect(shown()).toMatch(/^2:\d+ .*fingerprint.*16 hex digits/);
    writeFileSync(join(dir, 'bad.yaml'), 'chat:\n  - reply: { text: ab, chunks: [a, c] }\n');
    expect(shown()).toMatch(/^2:\d+ .*reply\.chunks joined must equal reply\.text/);
  });
});
