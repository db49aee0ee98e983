// Live drift: a mock forwarding to a gateway with `--drift` sets each forwarded answer beside its own
// answer to the same request, and gathers what differs in GET /__admin/drift and `event: drift`.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMockServer } from '../../src/index.js';
import { startDriftingGateway, type DriftingGateway } from '../helpers/drifting-gateway.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Row {
  endpoint: string;
  style: string;
  path: string;
  kind: string;
  upstream: string;
  mock: string;
  count: number;
  first_seen: string;
  last_seen: string;
  example: string;
}

const MODELS = 'models:\n  - { id: gpt-4o-mini, owned_by: openai, kind: chat }\n';

let faithful: TestServer;
let gateway: DriftingGateway;
let mock: TestServer;

const openai = () => new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-client', maxRetries: 0 });
const findings = async (): Promise<Row[]> => ((await (await mock.admin('/drift')).json()) as { findings: Row[] }).findings;

/** Polls to a deadline: the comparison runs after the relayed answer ended, on a later turn. */
const POLL = { timeout: 10_000, interval: 10 };

/** The `event: drift` frames of /__admin/events, read until `count` came. */
async function driftEvents(count: number, abort: AbortSignal): Promise<Row[]> {
  const response = await fetch(`${mock.url}/__admin/events`, { signal: abort });
  const rows: Row[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: drift$/m.test(frame)) rows.push(JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as Row);
      }
      if (rows.length >= count) return rows;
    }
  } catch {
    // Ended by the test, or by the server closing.
  }
  return rows;
}

beforeAll(async () => {
  faithful = await startTestServer();
  // Only questions that say "drift" come back drifted.
  gateway = await startDriftingGateway(faithful.url, (body) => /drift/i.test(body));
  // The mock lists the model, so it can answer itself what it forwards (an unlisted one is the upstream's alone).
  mock = await startTestServer({ upstream: gateway.url, drift: true, upstreamKey: 'sk-upstream', fixtureFiles: { 'models.yaml': MODELS } });
});
afterAll(async () => {
  await mock.close();
  await gateway.close();
  await faithful.close();
});

describe('live drift', () => {
  it('gathers each drift of forwarded answers per endpoint and path, and nothing for a faithful answer', async () => {
    const abort = new AbortController();
    const events = driftEvents(6, abort.signal);
    const same = await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'A faithful question.' }] });
    expect(same.choices[0]!.finish_reason).toBe('stop');
    const client = openai();
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Please drift.' }] });
    // The client gets the gateway's answer as it is.
    expect(answer.choices[0]!.finish_reason).toBe('completed');
    const journal = (await (await mock.admin('/requests')).json()) as { requests: Array<{ id: string; body: { messages?: Array<{ content: string }> } }> };
    const example = journal.requests.find((entry) => entry.body.messages?.[0]?.content === 'Please drift.')!.id;
    const stream = await new Anthropic({ baseURL: mock.url, apiKey: 'sk-client', maxRetries: 0 }).messages.create({ model: 'gpt-4o-mini', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Drift, in a stream.' }] });
    for await (const _event of stream);

    const rows = await vi.waitUntil(async () => {
      const now = await findings();
      return now.some((row) => row.endpoint === 'POST /v1/messages') && now.length >= 6 ? now : undefined;
    }, POLL);
    const chat = rows.filter((row) => row.endpoint === 'POST /v1/chat/completions');
    expect(chat.map((row) => `${row.style} ${row.path} ${row.kind}`)).toEqual([
      'chat-completions choices[].finish_reason new value',
      'chat-completions choices[].logprobs mock has, upstream lacks',
      'chat-completions metadata upstream has, mock lacks',
      'chat-completions system_fingerprint type differs',
    ]);
    for (const row of chat) expect(row).toMatchObject({ count: 1, example, first_seen: row.last_seen });
    const messages = rows.filter((row) => row.endpoint === 'POST /v1/messages').map((row) => `${row.style} ${row.path} ${row.kind}`);
    expect(messages).toEqual(['messages event:rate_limit_status upstream has, mock lacks', 'messages events event order differs']);
    // Ids, times, texts, token counts and request ids differ on every drifted answer: never reported.
    expect(rows.map((row) => row.path).filter((path) => /^(id|created|usage|header:)|content/.test(path))).toEqual([]);

    const announced = await events;
    abort.abort();
    expect(announced.map((row) => row.path)).toEqual(expect.arrayContaining(['metadata', 'events']));
  }, 30_000);

  it('counts a drift seen again, and forgets all on DELETE', async () => {
    await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Drift again.' }] });
    await vi.waitUntil(async () => (await findings()).find((row) => row.path === 'metadata')?.count === 2, POLL);
    const cleared = (await (await mock.admin('/drift', { method: 'DELETE' })).json()) as { cleared: number };
    expect(cleared.cleared).toBe(6);
    expect(await (await mock.admin('/drift')).json()).toEqual({ enabled: true, findings: [] });
  }, 30_000);

  it('says when drift is not watched, and is refused without an upstream', async () => {
    expect(await (await faithful.admin('/drift')).json()).toEqual({ enabled: false, findings: [] });
    await expect(startMockServer({ drift: true, watch: false })).rejects.toThrow('--drift compares what --upstream answers');
  });
});
