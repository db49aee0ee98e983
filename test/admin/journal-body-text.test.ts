// The journal keeps a JSON body's own text when it is already JSON.stringify's form of the body
// (server/stringified-json.ts), and serialises the body otherwise: either way the admin API and
// verify read back the object the mock decoded, whatever way the client wrote it.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyAnswer } from '../../src/index.js';
import type { JournalEntry } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': 'chat:\n  - name: any\n    match: { contains: "" }\n    reply: { text: "Noted." }\n' } });
});
afterAll(() => server.close());

/** Posts `text` as written, as a client other than the SDKs may write it. */
async function post(session: string, text: string): Promise<void> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', 'x-mock-session': session },
    body: text,
  });
  expect(response.status).toBe(200);
  await response.text();
}

async function journaledBody(session: string): Promise<unknown> {
  const { requests } = (await (await server.admin(`/requests?session=${session}`)).json()) as { requests: JournalEntry[] };
  expect(requests).toHaveLength(1);
  return requests[0]!.body;
}

async function counted(session: string, body: unknown): Promise<number> {
  const response = await server.admin('/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, expect: [{ requests: { body }, count: 1 }] }) });
  return ((await response.json()) as VerifyAnswer).results[0]!.actual as number;
}

// Long enough that the journal keeps a body's own text when it can.
const long = 'a long question '.repeat(2_000);
const question = { model: 'gpt-4o-mini', temperature: 0.5, messages: [{ role: 'user', content: `café/été "quoted" 📦 <tag> & more ${long}` }] };

describe('the journaled request body', () => {
  it('reads back as sent from an SDK', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'sdk' } });
    await client.chat.completions.create(question as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(await journaledBody('sdk')).toEqual(question);
    expect(await counted('sdk', { messages: [{ content: question.messages[0]!.content }] })).toBe(1);
  });

  it('reads back as the same object when the client pretty-printed and escaped it', async () => {
    const escaped = JSON.stringify(question, null, 2)
      .replaceAll('/', '\\/')
      .replace(/[<>&\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .replace('0.5', '5e-1');
    expect(escaped).toContain('\\u00e9');
    await post('escaped', escaped);
    expect(await journaledBody('escaped')).toEqual(question);
    expect(await counted('escaped', { temperature: 0.5, messages: [{ content: question.messages[0]!.content }] })).toBe(1);
  });

  it('holds the last of a key written twice, as the mock read it', async () => {
    await post('twice', `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"first ${long}"}],"messages":[{"role":"user","content":"second ${long}"}]}`);
    expect(await journaledBody('twice')).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `second ${long}` }] });
    expect(await counted('twice', { messages: [{ content: `second ${long}` }] })).toBe(1);
    expect(await counted('twice', { messages: [{ content: `first ${long}` }] })).toBe(0);
  });
});
