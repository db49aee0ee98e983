// The page under a full journal (10,000 entries, only the rows in view rendered) and behind
// --admin-token (asked for once, sent as a bearer token and as the event stream's ?token=).
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NO_CHROMIUM, chromiumPath, launchChromium, type Browser } from './chromium.js';

if (!chromiumPath) console.warn(NO_CHROMIUM);

let browser: Browser;

/** Many requests, some at a time: GET /v1/models is the cheapest journaled request. */
async function fill(server: TestServer, count: number): Promise<void> {
  const batch = 250;
  for (let sent = 0; sent < count; sent += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, count - sent) }, () => fetch(`${server.url}/v1/models`).then((r) => r.arrayBuffer())));
  }
}

describe.skipIf(!chromiumPath)('the inspector page at scale and behind a token', () => {
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('holds 10,000 entries, rendering only the rows in view, and follows a burst live', async () => {
    const server = await startTestServer({ journalMax: 20_000 });
    try {
      await fill(server, 1);
      const [real] = ((await server.admin('/requests').then((r) => r.json())) as { requests: Array<Record<string, unknown>> }).requests;
      // The journal the page loads is 10,000 copies of a real entry: making them through HTTP
      // would spend the test's time in the server, not in the page.
      const journal = Array.from({ length: 10_000 }, (_, i) => ({ ...real, id: `req_bulk_${i}`, path: `/v1/models?bulk=${i}` }));
      const page = await browser.context.newPage();
      await page.route('**/__admin/requests', (route) => route.fulfill({ json: { requests: journal } }));
      await page.goto(`${server.url}/__admin/ui`);
      await expect.poll(() => page.locator('.count').textContent(), { timeout: 5000 }).toBe('10000 of 10000');
      expect(await page.locator('.row').count()).toBeLessThan(100);

      await fill(server, 300);
      await expect.poll(() => page.locator('.count').textContent(), { timeout: 5000 }).toBe('10300 of 10300');
      // The oldest entry is reachable by scrolling to the end, and the filter still answers.
      await page.locator('.journal').evaluate((element) => (element.scrollTop = element.scrollHeight));
      await expect.poll(() => page.locator('.row').last().getAttribute('data-id')).toBe('req_bulk_0');
      expect(await page.locator('.row').count()).toBeLessThan(100);
      await page.locator('.text-filter').fill('bulk=4242');
      await expect.poll(() => page.locator('.count').textContent()).toBe('1 of 10300');
      await page.close();
    } finally {
      await server.close();
    }
  });

  it('asks for the admin token once, then loads and follows the journal with it', async () => {
    const server = await startTestServer({ adminToken: 'let-me-in' });
    try {
      const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
      await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'before the token' }] });
      const page = await browser.context.newPage();
      const refused: string[] = [];
      page.on('response', (response) => response.status() >= 400 && refused.push(response.url()));
      await page.goto(`${server.url}/__admin/ui`);
      await page.locator('input[name=token]').fill('let-me-in');
      await page.keyboard.press('Enter');
      await page.locator('.row', { hasText: 'before the token' }).waitFor({ timeout: 2000 });
      await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'after the token' }] });
      await page.locator('.row', { hasText: 'after the token' }).waitFor({ timeout: 1000 });
      // Reloaded, the page remembers the token for this tab and does not ask again.
      await page.reload();
      await page.locator('.row', { hasText: 'after the token' }).waitFor({ timeout: 2000 });
      expect(await page.locator('input[name=token]').count()).toBe(0);
      expect(refused).toEqual([]);
      await page.close();
    } finally {
      await server.close();
    }
  });
});
