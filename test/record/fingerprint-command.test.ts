// `model-gateway-mock fingerprint < request.json` prints what `match.fingerprint` takes: the same
// conversation gives the same fingerprint whichever style's body it comes in.
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/conversation/fingerprint.js';
import { COMMAND, ensureBuilt } from '../helpers/built.js';

const run = (body: string, ...args: string[]) => spawnSync(process.execPath, [...COMMAND, 'fingerprint', ...args], { input: body, encoding: 'utf8' });

const expected = fingerprint({ model: 'gpt-4o-mini', system: '', turns: [{ role: 'user', parts: [{ kind: 'text', text: 'What is the capital of Norway?' }] }], tools: [] });

beforeAll(ensureBuilt, 300_000);

describe('the fingerprint command', () => {
  it('prints the same fingerprint for one question in three styles', () => {
    const chat = run(JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the capital of Norway?' }] }));
    const responses = run(JSON.stringify({ model: 'gpt-4o-mini', input: 'What is the capital of Norway?' }));
    const gemini = run(JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'What is the capital of Norway?' }] }] }), '--model', 'gpt-4o-mini');
    for (const result of [chat, responses, gemini]) {
      expect(result.status).toBe(0);
      expect(result.stdout.trim()).toBe(expected);
    }
  }, 60_000);

  it('refuses a body that is not JSON, saying so, without a stack trace', () => {
    const result = run('{ not json');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('not JSON');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
