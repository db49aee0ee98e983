// Record and replay in the bedrock style, with no internet: one mock plays Bedrock, a second
// forwards to it and records (its binary event stream read back into events), and answers from
// the recording from then on.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const UPSTREAM_FIXTURES = `
chat:
  - name: capital
    match: { contains: "capital of Norway" }
    reply: { text: "The capital of Norway is Oslo, a city by the fjord." }
`;

let upstream: TestServer;
let recorder: TestServer;
let recordDir: string;
const clients: BedrockRuntimeClient[] = [];

function bedrock(url: string): BedrockRuntimeClient {
  const client = new BedrockRuntimeClient({ endpoint: url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 1 });
  clients.push(client);
  return client;
}

const ask = { modelId: 'us.anthropic.claude-sonnet-4-6-v1:0', messages: [{ role: 'user' as const, content: [{ text: 'What is the capital of Norway?' }] }] };

beforeAll(async () => {
  upstream = await startTestServer({ fixtureFiles: { 'up.yaml': UPSTREAM_FIXTURES } });
  recordDir = mkdtempSync(join(tmpdir(), 'mgm-recording-'));
  recorder = await startTestServer({ upstream: upstream.url, record: recordDir });
});
afterAll(async () => {
  for (const client of clients) client.destroy();
  await recorder.close();
  await upstream.close();
  rmSync(recordDir, { recursive: true, force: true });
});

describe('recording Bedrock through a second mock', () => {
  it('relays a ConverseStream, records it under the bedrock style, then answers from the recording', async () => {
    const streamed = await bedrock(recorder.url).send(new ConverseStreamCommand(ask));
    let text = '';
    for await (const event of streamed.stream!) text += event.contentBlockDelta?.delta?.text ?? '';
    expect(text).toBe('The capital of Norway is Oslo, a city by the fjord.');
    const journal = (await (await recorder.admin('/requests')).json()) as { requests: Array<{ style: string; source: string; recorded: string | null }> };
    expect(journal.requests[0]).toMatchObject({ style: 'bedrock', source: 'upstream' });
    expect(journal.requests[0]!.recorded).toMatch(/^bedrock-claude-sonnet-4-6-[0-9a-f]{8}\.yaml$/);
    expect(readdirSync(recordDir)).toContain(journal.requests[0]!.recorded);
    await upstream.close();
    const whole = () => bedrock(recorder.url).send(new ConverseCommand(ask));
    await expect.poll(async () => (await whole().catch(() => undefined))?.output?.message?.content?.[0]?.text, { timeout: 5000 }).toBe('The capital of Norway is Oslo, a city by the fjord.');
  });
});
