// A recording says where it went (SPEC 1): the log line names the file written, so a user finds
// the fixture to edit without listing the directory.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, expect, it, vi } from 'vitest';
import { startMockServer } from '../../src/index.js';

const recordDir = mkdtempSync(join(tmpdir(), 'mgm-recorded-line-'));
afterAll(() => rmSync(recordDir, { recursive: true, force: true }));

it('the log names the file a recording wrote', async () => {
  const upstream = await startMockServer({ port: 0, watch: false, logLevel: 'silent' });
  const lines: string[] = [];
  const recorder = await startMockServer({ port: 0, watch: false, upstream: upstream.url, record: recordDir, logLevel: 'info', logger: (line) => lines.push(line) });
  try {
    const client = new OpenAI({ baseURL: `${recorder.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'a question never asked before' }] });
    const named = await vi.waitUntil(() => lines.map((line) => / recorded into (\S+)$/.exec(line)?.[1]).find((file) => file !== undefined), { timeout: 10_000, interval: 50 });
    expect(named.startsWith(recordDir)).toBe(true);
    expect(existsSync(named)).toBe(true);
  } finally {
    await recorder.close();
    await upstream.close();
  }
});
