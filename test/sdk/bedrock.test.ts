// @aws-sdk/client-bedrock-runtime with its default handler (HTTP/2 with prior knowledge to an
// `http://` endpoint) pointed at the mock: Converse, ConverseStream, InvokeModel and
// InvokeModelWithResponseStream, their streams read by the SDK's own event-stream decoder.
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  ResourceNotFoundException,
  ThrottlingException,
  type ConverseStreamOutput,
  type Message,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttp2Handler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;
const clients: BedrockRuntimeClient[] = [];

function client(headers: Record<string, string> = {}): BedrockRuntimeClient {
  const made = new BedrockRuntimeClient({
    endpoint: server.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    maxAttempts: 1,
  });
  made.middlewareStack.add(
    (next) => (args) => {
      Object.assign((args.request as { headers: Record<string, string> }).headers, headers);
      return next(args);
    },
    { step: 'build', name: 'mockHeaders' },
  );
  clients.push(made);
  return made;
}

const WEATHER = {
  name: 'get_weather',
  description: 'The weather in a city',
  inputSchema: { json: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } }, required: ['city', 'days'], additionalProperties: false } },
};

const ask = (text: string): Message[] => [{ role: 'user', content: [{ text }] }];

async function collect(stream: AsyncIterable<ConverseStreamOutput> | undefined): Promise<ConverseStreamOutput[]> {
  const events: ConverseStreamOutput[] = [];
  for await (const event of stream!) events.push(event);
  return events;
}

const BROKEN = `
scenarios:
  - name: broken_stream
    steps: [ { fault: stream_error, after_chunks: 2, error: rate_limit } ]
`;

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { ...shippedScenarioFiles(), 'broken.yaml': BROKEN } });
});
afterAll(async () => {
  for (const made of clients) made.destroy();
  await server.close();
});

describe('Bedrock through the AWS SDK', () => {
  it('uses HTTP/2 by default', () => {
    expect(client().config.requestHandler).toBeInstanceOf(NodeHttp2Handler);
  });

  it('Converse and ConverseStream say the same, with usage, for every form of the model id', async () => {
    const bedrock = client({ 'x-mock-session': 'bedrock-converse' });
    const whole = await bedrock.send(new ConverseCommand({ modelId: 'anthropic.claude-sonnet-4-6-v1:0', messages: ask('Tell me about rivers.'), inferenceConfig: { maxTokens: 300 } }));
    const text = whole.output?.message?.content?.[0]?.text;
    expect(text?.length).toBeGreaterThan(0);
    expect(whole.stopReason).toBe('end_turn');
    expect(whole.usage?.inputTokens).toBeGreaterThan(0);
    expect(whole.usage?.totalTokens).toBe(whole.usage!.inputTokens! + whole.usage!.outputTokens!);
    for (const modelId of ['us.anthropic.claude-sonnet-4-6-v1:0', 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-6-v1:0', 'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-sonnet-4-6-v1:0']) {
      const streamed = await bedrock.send(new ConverseStreamCommand({ modelId, messages: ask('Tell me about rivers.'), inferenceConfig: { maxTokens: 300 } }));
      const events = await collect(streamed.stream);
      expect(events[0]?.messageStart?.role).toBe('assistant');
      expect(events.map((event) => event.contentBlockDelta?.delta?.text ?? '').join('')).toBe(text);
      expect(events.find((event) => event.messageStop)?.messageStop?.stopReason).toBe('end_turn');
      expect(events.at(-1)?.metadata?.usage).toEqual(whole.usage);
    }
  });

  it('a tool call has schema-true arguments, whole and streamed', async () => {
    const bedrock = client();
    const toolConfig = { tools: [{ toolSpec: WEATHER }], toolChoice: { tool: { name: 'get_weather' } } };
    const whole = await bedrock.send(new ConverseCommand({ modelId: 'claude-sonnet-4-6', messages: ask('Weather in Paris?'), toolConfig }));
    expect(whole.stopReason).toBe('tool_use');
    const call = whole.output?.message?.content?.find((block) => block.toolUse)?.toolUse;
    expect(call?.name).toBe('get_weather');
    const input = call?.input as { city: unknown; days: unknown };
    expect(typeof input.city).toBe('string');
    expect(Number.isInteger(input.days) && (input.days as number) >= 1 && (input.days as number) <= 7).toBe(true);
    const events = await collect((await bedrock.send(new ConverseStreamCommand({ modelId: 'claude-sonnet-4-6', messages: ask('Weather in Paris?'), toolConfig }))).stream);
    expect(events.find((event) => event.contentBlockStart)?.contentBlockStart?.start?.toolUse).toEqual({ toolUseId: expect.stringMatching(/^toolu_/), name: 'get_weather' });
    const json = events.map((event) => event.contentBlockDelta?.delta?.toolUse?.input ?? '').join('');
    expect(JSON.parse(json)).toEqual(call?.input);
  });

  it('InvokeModel and its stream answer the messages body, each event as chunk bytes', async () => {
    const bedrock = client();
    const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 300, messages: [{ role: 'user', content: 'Tell me about rivers.' }] });
    const whole = await bedrock.send(new InvokeModelCommand({ modelId: 'us.anthropic.claude-sonnet-4-6-v1:0', contentType: 'application/json', body }));
    const message = JSON.parse(new TextDecoder().decode(whole.body)) as { type: string; content: Array<{ text: string }>; usage: { input_tokens: number; output_tokens: number } };
    expect(message.type).toBe('message');
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    const streamed = await bedrock.send(new InvokeModelWithResponseStreamCommand({ modelId: 'us.anthropic.claude-sonnet-4-6-v1:0', contentType: 'application/json', body }));
    const events: Array<{ type: string; delta?: { text?: string } }> = [];
    for await (const part of streamed.body!) events.push(JSON.parse(new TextDecoder().decode(part.chunk!.bytes)));
    expect(events[0]?.type).toBe('message_start');
    expect(events.at(-1)?.type).toBe('message_stop');
    expect(events.map((event) => event.delta?.text ?? '').join('')).toBe(message.content[0]!.text);
  });

  it('a rate_limit scenario is the SDK ThrottlingException, an unknown model its ResourceNotFoundException', async () => {
    const throttled = await client({ 'x-mock-scenario': 'rate_limit' })
      .send(new ConverseCommand({ modelId: 'anthropic.claude-sonnet-4-6-v1:0', messages: ask('hi') }))
      .catch((error: unknown) => error);
    expect(throttled).toBeInstanceOf(ThrottlingException);
    expect((throttled as ThrottlingException).$metadata.httpStatusCode).toBe(429);
    const unknown = await client()
      .send(new ConverseCommand({ modelId: 'anthropic.claude-nonexistent-v1:0', messages: ask('hi') }))
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ResourceNotFoundException);
  });

  it('an error mid-stream is an event-stream exception the SDK throws as its own', async () => {
    const streamed = await client({ 'x-mock-scenario': 'broken_stream' }).send(new ConverseStreamCommand({ modelId: 'claude-sonnet-4-6', messages: ask('Tell me about rivers.') }));
    let text = '';
    const error = await (async () => {
      for await (const event of streamed.stream!) text += event.contentBlockDelta?.delta?.text ?? '';
    })().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ThrottlingException);
    expect(text.length).toBeGreaterThan(0);
  });

  it('journals, verifies and counts the requests under the bedrock style', async () => {
    await client({ 'x-mock-session': 'bedrock-journal' }).send(new ConverseCommand({ modelId: 'anthropic.claude-sonnet-4-6-v1:0', messages: ask('hi') }));
    const journal = (await (await server.admin('/requests', { headers: { 'x-mock-session': 'bedrock-journal' } })).json()) as { requests: Array<{ style: string; model: string; status: number; usage: { input_tokens: number } | null }> };
    expect(journal.requests[0]).toMatchObject({ style: 'bedrock', model: 'claude-sonnet-4-6', status: 200 });
    expect(journal.requests[0]!.usage?.input_tokens).toBeGreaterThan(0);
    const verify = async (style: string) =>
      (await server.admin('/verify?fail=409', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: 'bedrock-journal', expect: [{ requests: { style }, count: 1 }] }) })).status;
    expect(await verify('bedrock')).toBe(200);
    expect(await verify('messages')).toBe(409);
    const metrics = await (await server.admin('/metrics')).text();
    expect(metrics).toMatch(/^mock_requests_total\{route="\/model\/:modelId\/:operation",style="bedrock",status="200",[^}]*\} \d+$/m);
  });
});
