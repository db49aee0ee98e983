// The inspector page in a real Chromium: it loads the journal, lives on the event stream, and
// its buttons drive the mock. SDK clients make the requests, as an app beside the page would.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI, { RateLimitError } from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedScenarioFiles } from '../helpers/shipped.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NO_CHROMIUM, chromiumPath, launchChromium, type Browser } from './chromium.js';

if (!chromiumPath) console.warn(NO_CHROMIUM);

const FIXTURES = `
chat:
  - name: weather
    match: { tools: [get_weather], contains: "weather" }
    reply: { text: "Sunny." }
  - name: greeting
    match: { contains: "hello" }
    reply: { text: "Hello from a fixture." }
`;

/** A request should show in the page within this long, without a reload. */
const LIVE_MS = 1000;

let server: TestServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

const openai = (session: string) =>
  new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });

function row(text: string) {
  return page.locator('.row', { hasText: text });
}

describe.skipIf(!chromiumPath)('the inspector page', () => {
  beforeAll(async () => {
    server = await startTestServer({ clock: 'manual', fixtureFiles: { 'chat.yaml': FIXTURES }, scenarioFiles: shippedScenarioFiles() });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    page.on('response', (response) => response.status() >= 400 && problems.push(`${response.status()}: ${response.url()}`));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows a request made before it opened, then each new one live, without a reload', async () => {
    await openai('early').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'made while the page was closed' }] });
    await page.goto(`${server.url}/`);
    expect(page.url()).toBe(`${server.url}/__admin/ui`);
    await row('made while the page was closed').waitFor({ timeout: LIVE_MS });
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 1));

    await openai('live').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'first live question' }] });
    await row('first live question').waitFor({ timeout: LIVE_MS });
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'sk-test', maxRetries: 0 });
    await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'a question for claude' }] });
    await row('a question for claude').waitFor({ timeout: LIVE_MS });
    const genai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.url } });
    const stream = await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'a streamed question for gemini' });
    for await (const _chunk of stream);
    await row('a streamed question for gemini').waitFor({ timeout: LIVE_MS });

    expect(await row('a question for claude').locator('.status').textContent()).toBe('200');
    // The session's total, as GET /__admin/usage counts it, follows the session filter.
    await page.selectOption('select[aria-label="Session"]', 'live');
    const { total } = (await (await server.admin('/usage?session=live')).json()) as { total: { input_tokens: number; output_tokens: number; cost_usd: number } };
    const tokens = (total.input_tokens + total.output_tokens).toLocaleString('en');
    await page.locator('.usage-total', { hasText: `${tokens} tokens · $${Number(total.cost_usd.toPrecision(4))}` }).waitFor({ timeout: LIVE_MS });
    await page.selectOption('select[aria-label="Session"]', '');
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(1);
  });

  it('opens an entry: its source, the near miss in words, and the request', async () => {
    await openai('detail').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'what is the weather like?' }] });
    await openai('detail').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello again' }] });
    await row('what is the weather like?').click();
    const detail = page.locator('.detail');
    await expect.poll(() => detail.locator('.why').textContent()).toContain('closest: fixture weather (chat.yaml) did not match on tools.');
    expect(await detail.locator('.sides').textContent()).toContain('"what is the weather like?"');

    // The keyboard: `/` focuses the filter, arrows move through what it leaves.
    await page.keyboard.press('/');
    await page.keyboard.type('hello again');
    await expect.poll(() => page.locator('.row').count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => detail.locator('.why').textContent()).toContain('Answered by fixture greeting');
    expect(await detail.locator('.why').textContent()).toContain('fixture:greeting');
    await page.locator('.text-filter').fill('');
  });

  it('switches a scenario for one session, and the next OpenAI call gets the 429', async () => {
    await openai('checkout').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'before the switch' }] });
    const select = page.locator('select[data-session="checkout"]');
    await select.waitFor({ timeout: LIVE_MS });
    await select.selectOption('rate_limit');
    await page.locator('.switch.active select[data-session="checkout"]').waitFor();

    const call = openai('checkout').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'after the switch' }] });
    await expect(call).rejects.toBeInstanceOf(RateLimitError);
    await expect.poll(() => row('after the switch').locator('.status').textContent(), { timeout: LIVE_MS }).toBe('429');
    // Other sessions are untouched.
    await openai('other').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'another session' }] });

    await select.selectOption('');
    await expect.poll(() => page.locator('.switch.active').count()).toBe(0);
    await openai('checkout').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'switched back' }] });
  });

  it('moves the clock from its buttons until a video task is complete', async () => {
    const video = await openai('video').videos.create({ model: 'sora-2', prompt: 'a paper boat in the rain' });
    const bar = page.locator(`[data-task="${video.id}"] [role=progressbar]`);
    await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: LIVE_MS }).toBe('0');
    await page.getByRole('button', { name: '+1 s' }).click();
    await page.getByRole('button', { name: '+10 s' }).click();
    await expect.poll(() => bar.getAttribute('aria-valuenow')).toMatch(/^[1-9]\d?$/);
    await page.getByRole('button', { name: '+1 min' }).click();
    await expect.poll(() => bar.getAttribute('aria-valuenow')).toBe('100');
    expect(await page.locator(`[data-task="${video.id}"]`).getAttribute('class')).toContain('completed');
    expect((await openai('video').videos.retrieve(video.id)).status).toBe('completed');
  });

  it('shows a broken file in the health panel as file:line:col, and clears it when fixed', async () => {
    const health = page.locator('.health');
    await expect.poll(() => health.getAttribute('data-status')).toBe('ok');
    await server.writeFixture('broken.yaml', 'chat:\n  - name: broken\n    match: { contains: "x" }\n    reply: { txet: "typo" }\n');
    await expect.poll(() => health.getAttribute('data-status'), { timeout: LIVE_MS }).toBe('degraded');
    expect(await health.locator('.errors').textContent()).toMatch(/broken\.yaml:4:\d+: /);
    await server.writeFixture('broken.yaml', 'chat:\n  - name: mended\n    match: { contains: "x" }\n    reply: { text: "fixed" }\n');
    await expect.poll(() => health.getAttribute('data-status'), { timeout: LIVE_MS }).toBe('ok');
    expect(await health.locator('.errors').count()).toBe(0);
  });

  it('had no console error and no failed request throughout', () => {
    expect(problems).toEqual([]);
  });
});
