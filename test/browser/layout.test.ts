// The inspector made for reading (SPEC 13), judged from the page's own layout in Chromium at
// 1440x900 and 1280x800: the detail gets at least the journal's width, nothing in it is cut off,
// a stream's events read one line each, rows show path and source whole, memory below 1 MB reads
// in KB, and a paced stream shows as a row at once that fills as the stream goes.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NO_CHROMIUM, chromiumPath, launchChromium, type Browser } from './chromium.js';

if (!chromiumPath) console.warn(NO_CHROMIUM);

const FIXTURES = `
chat:
  - name: weather-answer-with-a-long-name
    match: { contains: "weather" }
    reply: { text: "Sunny with a light breeze over the whole of the afternoon, as the forecast tool reports for Paris." }
  - name: slow-story
    match: { contains: "slow story" }
    reply: { text: "Once upon a time there was a mock server that streamed its stories one word at a time, slowly enough to watch." }
    stream: { first_chunk_ms: 100, chunk_ms: 120, chunk_by: word }
`;

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
];

let server: TestServer;
let browser: Browser;
let page: Page;

/** Elements inside `root` drawn past its right edge, or clipped inside a box that does not scroll. */
function cutOff(page: Page, root: string): Promise<string[]> {
  return page.locator(root).evaluate((box) => {
    // The test's TypeScript has no DOM library; the page has.
    const overflowX = (element: unknown) => (globalThis as unknown as { getComputedStyle(e: unknown): { overflowX: string } }).getComputedStyle(element).overflowX;
    const scrolls = (element: unknown) => ['auto', 'scroll'].includes(overflowX(element));
    const right = box.getBoundingClientRect().right;
    const cut: string[] = [];
    for (const element of box.querySelectorAll('*')) {
      const name = `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${element.textContent!.slice(0, 40)}"`;
      let inScroller = false;
      for (let up = element.parentElement; up && up !== box; up = up.parentElement) if (scrolls(up)) inScroller = true;
      if (inScroller) continue;
      if (element.getBoundingClientRect().right > right + 1) cut.push(`past the edge: ${name}`);
      if (!scrolls(element) && overflowX(element) !== 'visible' && element.scrollWidth > element.clientWidth + 1) cut.push(`clipped: ${name}`);
    }
    return cut;
  });
}

async function widths(page: Page): Promise<{ journal: number; detail: number }> {
  const width = (selector: string) => page.locator(selector).evaluate((element) => element.getBoundingClientRect().width);
  return { journal: await width('.journal-pane'), detail: await width('.detail') };
}

describe.skipIf(!chromiumPath)('the inspector, laid out for reading', () => {
  beforeAll(async () => {
    server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the weather in Paris?' }] });
    await openai.responses.create({ model: 'gpt-4.1', input: 'And the weather in Rome?' });
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'sk-test', maxRetries: 0 });
    const stream = anthropic.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 300, messages: [{ role: 'user', content: 'A streamed weather report, please' }] });
    await stream.finalMessage();
    const genai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.url } });
    for await (const _chunk of await genai.models.generateContentStream({ model: 'gemini-2.5-flash-image', contents: 'Gemini, the weather in Oslo' }));
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  describe.each(WIDTHS)('at $width x $height', (size) => {
    beforeAll(async () => {
      await page.setViewportSize(size);
      await page.goto(`${server.url}/__admin/ui`);
      await page.locator('.row').nth(3).waitFor();
    });

    it('gives the detail at least the journal width', async () => {
      await page.locator('.row', { hasText: 'What is the weather in Paris?' }).click();
      await page.locator('.detail .why').waitFor();
      const { journal, detail } = await widths(page);
      expect(detail).toBeGreaterThanOrEqual(journal);
    });

    it('cuts nothing off in the detail: a whole answer with its usage, a stream and its events', async () => {
      await page.locator('.row', { hasText: 'What is the weather in Paris?' }).click();
      await page.locator('.detail .usage').waitFor();
      expect(await cutOff(page, '.detail')).toEqual([]);
      await page.locator('.row', { hasText: 'A streamed weather report' }).click();
      await page.locator('.detail .usage').waitFor();
      expect(await cutOff(page, '.detail')).toEqual([]);
      expect(await page.locator('.detail').evaluate((pane) => pane.scrollWidth - pane.clientWidth)).toBeLessThanOrEqual(1);
    });

    it('shows a stream as its joined text, and its events one line each, a click from the whole event', async () => {
      await page.locator('.row', { hasText: 'A streamed weather report' }).click();
      const detail = page.locator('.detail');
      await expect.poll(() => detail.locator('.stream-text').textContent()).toContain('Sunny with a light breeze');
      await detail.getByRole('button', { name: /^\d+ events$/ }).click();
      const heights = await detail.locator('.events > li').evaluateAll((items) => items.map((item) => item.getBoundingClientRect().height));
      expect(heights.length).toBeGreaterThan(5);
      for (const height of heights) expect(height).toBeLessThan(24);
      // The pane itself never scrolls sideways: a long event is cut at the line's end, whole a click away.
      expect(await detail.evaluate((pane) => pane.scrollWidth - pane.clientWidth)).toBeLessThanOrEqual(1);
      const first = detail.locator('.events > li').first();
      await first.locator('.event-line').click();
      expect(await first.locator('pre.json').textContent()).toContain('"message_start"');
    });

    it('shows each row with its path and source whole', async () => {
      const clipped = await page.locator('.row').evaluateAll((rows) =>
        rows.flatMap((row) =>
          [...row.querySelectorAll('.path, .source')].flatMap((cell) => {
            const inside = cell.getBoundingClientRect().right <= row.getBoundingClientRect().right + 1;
            return cell.scrollWidth <= cell.clientWidth + 1 && inside ? [] : [cell.textContent];
          }),
        ),
      );
      expect(clipped).toEqual([]);
      expect(await page.locator('.row .path', { hasText: '/v1beta/models/gemini-2.5-flash-image:streamGenerateContent' }).count()).toBe(1);
    });

    it('reads memory below 1 MB in KB', async () => {
      await expect.poll(() => page.locator('.health').textContent()).toMatch(/\b\d+ KB held/);
    });
  });

  it('shows a paced stream as a row at once, filling as it goes, then as its entry', async () => {
    const url = `${server.url}/v1/chat/completions`;
    const body = JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'a slow story' }] });
    const answer = fetch(url, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json', 'x-mock-latency': 'realistic' }, body }).then((response) => response.text());
    const flying = page.locator('.row.in-flight', { hasText: '/v1/chat/completions' });
    await flying.waitFor({ timeout: 1000 });
    const fill = flying.locator('[role=progressbar]');
    await expect.poll(async () => Number(await fill.getAttribute('aria-valuenow')), { timeout: 5000 }).toBeGreaterThan(0);
    expect(Number(await fill.getAttribute('aria-valuenow'))).toBeLessThan(100);
    await answer;
    await page.locator('.row:not(.in-flight)', { hasText: 'a slow story' }).waitFor({ timeout: 1000 });
    expect(await page.locator('.row.in-flight').count()).toBe(0);
  });
});
