// The inspector page in a real Chromium while things happen: the journal says it is loading until
// its first page answers, a paced stream's row shows its model and what the user said while it
// plays, and a fake MCP server's tool call is a row of its own with its tool, arguments and result.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { WEATHER } from '../tools/weather.js';
import { NO_CHROMIUM, chromiumPath, launchChromium, watchProblems, type Browser } from './chromium.js';

if (!chromiumPath) console.warn(NO_CHROMIUM);

// 60 characters at 50 ms each: three seconds of stream to look at.
const PACED = `
chat:
  - name: slow-story
    match: { contains: "tell me slowly" }
    reply: { text: "${'a slow story '.repeat(5).slice(0, 60)}" }
    stream: { first_chunk_ms: 10, chunk_ms: 50, chunk_by: char }
`;

/** A request should show in the page within this long, without a reload. */
const LIVE_MS = 2000;

let server: TestServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

/** The page opened, its event stream live and its journal loaded. */
async function openPage(): Promise<void> {
  await page.goto(`${server.url}/__admin/ui`);
  await page.locator('.connection.live').waitFor({ timeout: LIVE_MS });
  await page.locator('p.empty:not(.loading), .row').first().waitFor({ timeout: LIVE_MS });
}

describe.skipIf(!chromiumPath)('the inspector page, live', () => {
  beforeAll(async () => {
    server = await startTestServer({ fixtureFiles: { 'paced.yaml': PACED, 'weather.yaml': WEATHER } });
    browser = await launchChromium();
    page = await browser.context.newPage();
    watchProblems(page, problems);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('says it is loading, not that there are no requests, until the journal has answered', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/__admin/requests*', async (route) => {
      await answered;
      await route.continue();
    });
    await page.goto(`${server.url}/__admin/ui`);
    await page.locator('.connection.live').waitFor({ timeout: LIVE_MS });
    await page.getByRole('status').filter({ hasText: 'Loading the journal' }).waitFor({ timeout: LIVE_MS });
    expect(await page.getByText('No requests yet').count()).toBe(0);
    release();
    await page.getByText('No requests yet').waitFor({ timeout: LIVE_MS });
    expect(await page.getByText('Loading the journal').count()).toBe(0);
    await page.unroute('**/__admin/requests*');
  });

  it('shows a paced stream in flight with its model and the start of what the user said', async () => {
    await openPage();
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const stream = await openai.chat.completions.create(
      { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'please tell me slowly about the sea' }] },
      { headers: { 'x-mock-latency': 'realistic' } },
    );
    const flying = page.locator('.row.in-flight', { hasText: 'please tell me slowly about the sea' });
    await flying.waitFor({ timeout: LIVE_MS });
    expect(await flying.locator('.source').textContent()).toBe('in flight · gpt-4o-mini');
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toHaveLength(60);
    const done = page.locator('.row:not(.in-flight)', { hasText: 'please tell me slowly about the sea' });
    await done.waitFor({ timeout: LIVE_MS });
    expect(await done.locator('.status').textContent()).toBe('200');
    expect(await page.locator('.row.in-flight').count()).toBe(0);
  });

  it('shows a fake MCP tool call as its own row: style mcp, the tool, its arguments and its result', async () => {
    await openPage();
    const client = new Client({ name: 'inspector-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/weather`), { requestInit: { headers: { 'x-mock-session': 'tools' } } }));
    try {
      await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } });
    } finally {
      await client.close();
    }
    const call = page.locator('.row', { hasText: 'get_forecast {"city":"Paris"}' });
    await call.waitFor({ timeout: LIVE_MS });
    expect(await call.locator('.path').textContent()).toBe('/mcp/weather');
    expect(await call.locator('.session').textContent()).toBe('tools');
    // The session's other traffic (initialize, list) is the transport's, not rows of their own.
    expect(await page.locator('.row', { hasText: '/mcp/weather' }).count()).toBe(1);
    await call.click();
    const detail = page.locator('.detail');
    await expect.poll(() => detail.locator('.meta').textContent()).toContain('mcp');
    expect(await detail.locator('.side.request').textContent()).toContain('"Paris"');
    expect(await detail.locator('.sides .side').nth(1).textContent()).toContain('12 °C and rain');
  });

  it('had no page error and no failed request throughout', () => {
    expect(problems).toEqual([]);
  });
});
