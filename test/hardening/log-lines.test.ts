// What a client sends never writes raw into the log: a model name with terminal escapes and a line
// break (any web page can send one) shows escaped, on its request's own single line.
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const lines: string[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ logLevel: 'debug', logger: (line) => lines.push(line) });
});
afterAll(() => server.close());

it('escapes control characters of a model name: no terminal escape, no forged line', async () => {
  const model = 'gpt-4o-mini\x1b[2J\x1b[31m\r\n12:00:00.000 POST /v1/chat/completions chat-completions gpt-4o 200 fixture:forged 1ms\u2028';
  const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] }).catch(() => undefined);
  await expect.poll(() => lines.some((line) => line.includes('POST /v1/chat/completions'))).toBe(true);
  const logged = lines.join('\n');
  expect(logged).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]/);
  const requestLines = lines.filter((line) => line.includes('/v1/chat/completions'));
  expect(requestLines).toHaveLength(1);
  expect(requestLines[0]).toContain('gpt-4o-mini\\u001b[2J\\u001b[31m\\r\\n12:00:00.000 POST');
  expect(requestLines[0]).toContain('1ms\\u2028');
  expect(lines.every((line) => !line.includes('\n'))).toBe(true);
});
