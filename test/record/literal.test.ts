// Recordings and pins are literal: an upstream answer full of `{{ }}` (Jinja, Vue, GitHub Actions
// `${{ }}`, even `{{faker...}}`) is recorded, served offline and replayed from `--fixtures DIR`
// byte for byte, health staying ok; an answer over 100,000 characters is recorded and loads; an
// answer the loader could not load (a tool call without a name) is relayed but never written, and
// the pin route refuses it with a 400.
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TEMPLATED = 'Hello {{ user.name }}! In Actions write ${{ secrets.TOKEN }}; {{faker.person.firstName}}, {{model}} and {{ last_user_message }} stay as they are.';
const ARGUMENTS = { template: '{{ request.model }}', list: ['${{ github.sha }}', '{{faker.number.int({"max": 9})}}'] };
const CHUNKS = ['Vue says {{ ', 'message }}', ' and Jinja {% if x %}{{ x }}{% endif %}'];
const LONG = 'A long answer with {{ braces }} in it. '.repeat(4000).slice(0, 150_000);

/** A gateway in a few lines: each question gets its canned chat-completions answer. */
function answer(question: string, stream: boolean, response: ServerResponse): void {
  const message = (content: string, toolCalls?: unknown[]) => ({
    id: 'chatcmpl-up',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content, ...(toolCalls && { tool_calls: toolCalls }) }, finish_reason: toolCalls ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 9, completion_tokens: 30, total_tokens: 39 },
  });
  const call = (name: string, args: unknown) => ({ id: 'call_up', type: 'function', function: { name, arguments: JSON.stringify(args) } });
  if (stream) {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const piece of CHUNKS) {
      response.write(`data: ${JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
    }
    response.write(`data: ${JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    response.end('data: [DONE]\n\n');
    return;
  }
  const body = question.includes('templated')
    ? message(TEMPLATED, [call('render', ARGUMENTS)])
    : question.includes('long')
      ? message(LONG)
      : message('', [call('', { x: 1 })]);
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

let upstream: Server;
let recorder: TestServer;
let recordDir: string;
const replays: MockServer[] = [];
const logs: string[] = [];

beforeAll(async () => {
  upstream = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    request.on('data', (piece: Buffer) => (text += piece.toString()));
    request.on('end', () => {
      const body = JSON.parse(text) as { messages: Array<{ content: string }>; stream?: boolean };
      answer(body.messages.at(-1)!.content, body.stream === true, response);
    });
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  recordDir = mkdtempSync(join(tmpdir(), 'mgm-literal-'));
  recorder = await startTestServer({
    upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    record: recordDir,
    logLevel: 'error',
    logger: (line) => logs.push(line),
  });
});
afterAll(async () => {
  await Promise.all(replays.map((server) => server.close()));
  await recorder.close();
  upstream.close();
  rmSync(recordDir, { recursive: true, force: true });
});

const openai = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
const argumentsOf = (completion: OpenAI.ChatCompletion): unknown => {
  const call = completion.choices[0]!.message.tool_calls![0]!;
  return call.type === 'function' ? JSON.parse(call.function.arguments) : call;
};
const ask = (content: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content }] });

interface Health {
  status: string;
  errors: unknown[];
}
const healthOf = async (url: string) => (await (await fetch(`${url}/__admin/health`)).json()) as Health;
const recordedFiles = () => readdirSync(recordDir).filter((name) => name.endsWith('.yaml'));

async function lastEntryId(): Promise<string> {
  const { requests } = (await (await recorder.admin('/requests')).json()) as { requests: Array<{ id: string }> };
  return requests.at(-1)!.id;
}

describe('recording template-looking answers', () => {
  it('records them literally: served offline as they came, health ok', async () => {
    const whole = await openai(recorder.url).chat.completions.create(ask('templated answer please'));
    expect(whole.choices[0]!.message.content).toBe(TEMPLATED);
    let streamed = '';
    for await (const chunk of await openai(recorder.url).chat.completions.create({ ...ask('a templated stream'), stream: true })) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(CHUNKS.join(''));
    const long = await openai(recorder.url).chat.completions.create(ask('a long answer'));
    expect(long.choices[0]!.message.content).toBe(LONG);
    await expect.poll(() => recordedFiles().length, { timeout: 5000 }).toBe(3);
    expect(await healthOf(recorder.url)).toMatchObject({ status: 'ok', errors: [] });

    // The recorder itself now answers from the recordings, as they were said.
    const again = await openai(recorder.url).chat.completions.create(ask('templated answer please')).withResponse();
    expect(again.response.headers.get('x-mock-source')).toMatch(/^recorded:/);
    expect(again.data.choices[0]!.message.content).toBe(TEMPLATED);
    expect(argumentsOf(again.data)).toEqual(ARGUMENTS);
  });

  it('replays them byte for byte with --fixtures DIR and no upstream, in any style', async () => {
    const replay = await startMockServer({ fixtures: recordDir });
    replays.push(replay);
    expect(await healthOf(replay.url)).toMatchObject({ status: 'ok', errors: [] });
    const whole = await openai(replay.url).chat.completions.create(ask('templated answer please')).withResponse();
    expect(whole.response.headers.get('x-mock-source')).toMatch(/^fixture:/);
    expect(whole.data.choices[0]!.message.content).toBe(TEMPLATED);
    expect(argumentsOf(whole.data)).toEqual(ARGUMENTS);

    const deltas: string[] = [];
    for await (const chunk of await openai(replay.url).chat.completions.create({ ...ask('a templated stream'), stream: true })) {
      const piece = chunk.choices[0]?.delta.content;
      if (piece) deltas.push(piece);
    }
    expect(deltas).toEqual(CHUNKS);

    const anthropic = new Anthropic({ baseURL: replay.url, apiKey: 'sk-test', maxRetries: 0 });
    let long = '';
    for await (const event of await anthropic.messages.create({ model: 'gpt-4o-mini', max_tokens: 64_000, messages: [{ role: 'user', content: 'a long answer' }], stream: true })) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') long += event.delta.text;
    }
    expect(long).toBe(LONG);
  });
});

describe('an answer the loader could not load', () => {
  it('is relayed but not recorded, and the pin route refuses it with a 400', async () => {
    const before = recordedFiles();
    const nameless = await openai(recorder.url).chat.completions.create(ask('a call without a name'));
    const call = nameless.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && call.function.name).toBe('');
    const id = await lastEntryId();
    await expect.poll(() => logs.join('\n'), { timeout: 5000 }).toMatch(/is not recorded, as loading it would fail: .*tool_calls\[0\]\.name/);
    expect(recordedFiles()).toEqual(before);
    expect(await healthOf(recorder.url)).toMatchObject({ status: 'ok', errors: [] });

    const shown = await recorder.admin(`/requests/${id}/fixture`);
    expect(shown.status).toBe(400);
    const refusal = (await shown.json()) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBe('request_not_pinnable');
    expect(refusal.error.message).toMatch(/would not load .*tool_calls\[0\]\.name/);
    const saved = await recorder.admin(`/requests/${id}/fixture`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file: 'nameless.yaml' }) });
    expect(saved.status).toBe(400);
    expect(existsSync(join(recorder.fixturesDir, 'nameless.yaml'))).toBe(false);
  });

  it('pins a template-looking answer literally: saved, loaded at once, replayed as it came', async () => {
    await openai(recorder.url).chat.completions.create(ask('templated answer please'));
    const id = await lastEntryId();
    const saved = await recorder.admin(`/requests/${id}/fixture`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file: 'templated.yaml' }) });
    expect(saved.status).toBe(201);
    expect(readFileSync(join(recorder.fixturesDir, 'templated.yaml'), 'utf8')).toContain('literal: true');
    // Loaded at once: the very next request is answered by the pin, which outranks the recording by file order.
    const again = await openai(recorder.url).chat.completions.create(ask('templated answer please')).withResponse();
    expect(again.response.headers.get('x-mock-source')).toBe('fixture:templated');
    expect(again.data.choices[0]!.message.content).toBe(TEMPLATED);
    expect(await healthOf(recorder.url)).toMatchObject({ status: 'ok', errors: [] });
  });
});
