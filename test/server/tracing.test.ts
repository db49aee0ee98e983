// --otlp-endpoint: a span per model API request reaches an OTLP/HTTP receiver started in the
// test, in the client's trace, named and attributed by the GenAI semantic conventions.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface OtlpSpan {
  traceId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number; arrayValue?: { values: Array<{ stringValue: string }> } } }>;
}

const spans: OtlpSpan[] = [];
let receiver: Server;
let server: TestServer;

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
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startTestServer({ otlpEndpoint: endpoint, fixtureFiles: { 'chat.yaml': 'chat:\n  - name: greeting\n    match: { contains: hello }\n    reply: { text: "Hi there." }\n' } });
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : value?.arrayValue?.values.map((v) => v.stringValue));
};

describe('--otlp-endpoint', () => {
  it("exports a GenAI span per model request, a child of the client's trace, flushed when the server closes", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0, defaultHeaders: { traceparent: `00-${traceId}-${parent}-01` } });
    const reply = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    await server.admin('/health');
    await server.close();

    expect(spans).toHaveLength(1);
    const span = spans[0]!;
    expect(span.name).toBe('chat gpt-4o-mini');
    expect(span.traceId).toBe(traceId);
    expect(span.parentSpanId).toBe(parent);
    expect(attribute(span, 'gen_ai.operation.name')).toBe('chat');
    expect(attribute(span, 'gen_ai.request.model')).toBe('gpt-4o-mini');
    expect(attribute(span, 'gen_ai.response.model')).toBe('gpt-4o-mini');
    expect(attribute(span, 'gen_ai.response.finish_reasons')).toEqual(['stop']);
    expect(attribute(span, 'mock.source')).toBe('fixture:greeting');
    expect(attribute(span, 'gen_ai.usage.input_tokens')).toBe(reply.usage!.prompt_tokens);
    expect(attribute(span, 'gen_ai.usage.output_tokens')).toBe(reply.usage!.completion_tokens);
  });
});
