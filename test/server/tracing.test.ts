// --otlp-endpoint: a span per model API request and per batch line reaches an OTLP/HTTP receiver
// started in the test, in the client's trace, named and attributed by the GenAI semantic
// conventions.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchFile, chatLines } from '../batches/helpers.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer } from '../helpers/server.js';
import { WEATHER } from '../tools/weather.js';

interface OtlpSpan {
  traceId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number; arrayValue?: { values: Array<{ stringValue: string }> } } }>;
}

const spans: OtlpSpan[] = [];
let receiver: Server;
let endpoint: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(text) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
beforeEach(() => {
  spans.length = 0;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : value?.arrayValue?.values.map((v) => v.stringValue));
};

const routeOf = (span: OtlpSpan) => attribute(span, 'http.route');

describe('--otlp-endpoint', () => {
  it("exports a GenAI span per model request and per batch line, in the client's trace, flushed when the server closes", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const server = await startTestServer({ otlpEndpoint: endpoint, fixtureFiles: { 'chat.yaml': 'chat:\n  - name: greeting\n    match: { contains: hello }\n    reply: { text: "Hi there." }\n' } });
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0, defaultHeaders: { traceparent: `00-${traceId}-${parent}-01` } });
    const reply = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    // A batch's line is answered as if its client had sent it alone, in the trace of the batch's request.
    const file = await openai.files.create({ file: await toFile(Buffer.from(batchFile(chatLines(1))), 'line.jsonl'), purpose: 'batch' });
    const batch = await openai.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await server.advanceClock(25 * 3600 * 1000);
    expect((await openai.batches.retrieve(batch.id)).status).toBe('completed');
    await server.admin('/health');
    await server.close();

    // The admin API's calls are not spanned.
    expect(spans.map(routeOf).sort()).toEqual(['/v1/batches', '/v1/batches/:id', '/v1/chat/completions', '/v1/chat/completions', '/v1/files']);
    const chat = spans.filter((span) => routeOf(span) === '/v1/chat/completions');
    const span = chat.find((one) => attribute(one, 'mock.source') === 'fixture:greeting')!;
    expect(span.name).toBe('chat gpt-4o-mini');
    expect(span.traceId).toBe(traceId);
    expect(span.parentSpanId).toBe(parent);
    expect(attribute(span, 'gen_ai.operation.name')).toBe('chat');
    expect(attribute(span, 'gen_ai.request.model')).toBe('gpt-4o-mini');
    expect(attribute(span, 'gen_ai.response.model')).toBe('gpt-4o-mini');
    expect(attribute(span, 'gen_ai.response.finish_reasons')).toEqual(['stop']);
    expect(attribute(span, 'gen_ai.usage.input_tokens')).toBe(reply.usage!.prompt_tokens);
    expect(attribute(span, 'gen_ai.usage.output_tokens')).toBe(reply.usage!.completion_tokens);

    const line = chat.find((one) => one !== span)!;
    expect(line).toMatchObject({ name: 'chat gpt-4o-mini', traceId, parentSpanId: parent });
    expect(attribute(line, 'mock.source')).toBe('generated');
    expect(attribute(line, 'http.response.status_code')).toBe(200);
  });

  it('exports a span per call of a fake MCP tool, and none for the transport\'s own requests', async () => {
    const server = await startTestServer({ otlpEndpoint: endpoint, fixtureFiles: { 'weather.yaml': WEATHER } });
    const client = new Client({ name: 'tracing-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/weather`)));
    await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } });
    await client.close();
    await server.close();

    expect(spans).toHaveLength(1);
    const [span] = spans as [OtlpSpan];
    expect(span.name).toBe('execute_tool get_forecast');
    expect(attribute(span, 'gen_ai.operation.name')).toBe('execute_tool');
    expect(attribute(span, 'gen_ai.tool.name')).toBe('get_forecast');
    expect(attribute(span, 'http.route')).toBe('/mcp/:server');
    expect(attribute(span, 'mock.source')).toBe('fixture:weather/get_forecast#0');
  });

  it("names each span's operation as the request's door does, or by the door's own name", async () => {
    const server = await startTestServer({ otlpEndpoint: endpoint });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const hello = [{ role: 'user', content: 'hello' }];
    await post('/v1beta/models/gemini-2.5-flash:generateContent', { contents: [{ parts: [{ text: 'hello' }] }] });
    await post('/v1/messages', { model: 'claude-sonnet-4-6', max_tokens: 20, messages: hello }, { 'anthropic-version': '2023-06-01' });
    await post('/v1/responses', { model: 'gpt-4o-mini', input: 'hello' });
    await post('/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'hello' });
    await post('/v1/embeddings', { model: 'text-embedding-3-small', input: 'hello' });
    await post('/v1/messages/batches', { requests: [{ custom_id: 'a', params: { model: 'claude-sonnet-4-6', max_tokens: 20, messages: hello } }] }, { 'anthropic-version': '2023-06-01' });
    await fetch(`${server.url}/v1/models`, { headers: { authorization: 'Bearer k' } });
    await server.close();

    const operations = Object.fromEntries(spans.map((span) => [attribute(span, 'http.route'), attribute(span, 'gen_ai.operation.name')]));
    expect(operations).toEqual({
      '/v1beta/models/:target': 'generate_content',
      '/v1/messages': 'chat',
      '/v1/responses': 'chat',
      '/v1/completions': 'text_completion',
      '/v1/embeddings': 'embeddings',
      '/v1/messages/batches': 'message-batches',
      '/v1/models': 'models',
    });
  });
});
