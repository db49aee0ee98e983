// The detail pane's answer side, fed journal entries whose `response` holds the events each
// style really sent (captured from the mock's own streams): the joined text must read as the
// fixture's text in every style, beside the events as sent, the usage and the scenario step;
// and "save as fixture" against its SPEC 12 contract.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NO_CHROMIUM, chromiumPath, launchChromium, type Browser } from './chromium.js';

if (!chromiumPath) console.warn(NO_CHROMIUM);

const TEXT = 'The quick brown fox jumps over the lazy dog.';
const FIXTURES = `
chat:
  - name: fox
    match: { contains: "fox" }
    reply: { text: "${TEXT}" }
    stream: { chunk_by: word }
`;

interface WireEvent {
  event: string | null;
  data: unknown;
}

const STREAMS: Array<[string, string, Record<string, string>, unknown]> = [
  ['chat-completions', '/v1/chat/completions', { authorization: 'Bearer k' }, { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'the fox, please' }] }],
  ['responses', '/v1/responses', { authorization: 'Bearer k' }, { model: 'gpt-4.1', stream: true, input: 'the fox, please' }],
  ['messages', '/v1/messages', { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }, { model: 'claude-sonnet-4-6', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'the fox, please' }] }],
  ['generate-content', '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { 'x-goog-api-key': 'k' }, { contents: [{ role: 'user', parts: [{ text: 'the fox, please' }] }] }],
];

/** The events as the mock sent them: raw SSE, which an SDK would not show. */
async function streamEvents(server: TestServer, path: string, headers: Record<string, string>, body: unknown): Promise<WireEvent[]> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const frames = (await response.text()).split('\n\n').filter((frame) => frame.includes('data: '));
  return frames.map((frame) => {
    const data = /^data: (.*)$/m.exec(frame)![1]!;
    let parsed: unknown = data;
    try {
      parsed = JSON.parse(data);
    } catch {
      // `[DONE]` and the like stay text, as the journal keeps them.
    }
    return { event: /^event: (.*)$/m.exec(frame)?.[1] ?? null, data: parsed };
  });
}

let server: TestServer;
let browser: Browser;
let page: Page;
const captured = new Map<string, WireEvent[]>();
let wholeAnswer: unknown;

describe.skipIf(!chromiumPath)('the answer side of an entry', () => {
  beforeAll(async () => {
    server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
    for (const [style, path, headers, body] of STREAMS) captured.set(style, await streamEvents(server, path, headers, body));
    await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k', 'x-mock-session': 'whole' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'a whole fox' }] }),
    }).then(async (response) => (wholeAnswer = await response.json()));
    const journal = ((await (await server.admin('/requests')).json()) as { requests: Array<Record<string, unknown>> }).requests;
    // Entries as SPEC 10 says the journal keeps them, with the answers captured above.
    const entries = journal.map((entry) => {
      const whole = entry.session === 'whole';
      const response = whole
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: wholeAnswer }
        : { status: 200, headers: { 'content-type': 'text/event-stream' }, events: captured.get(entry.style as string) };
      return { ...entry, response, source: 'fixture:fox', scenario: whole ? 'flaky' : null, scenario_step: whole ? 1 : null, fault: whole ? 'slow_first_chunk' : null };
    });
    browser = await launchChromium();
    page = await browser.context.newPage();
    await page.route('**/__admin/requests', (route) => route.fulfill({ json: { requests: entries } }));
    await page.goto(`${server.url}/__admin/ui`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each(STREAMS.map(([style]) => [style]))('shows a %s stream as its joined text and as its events', async (style) => {
    await page.locator('.row', { hasText: 'the fox, please' }).filter({ hasText: STREAMS.find(([name]) => name === style)![1].split('?')[0]! }).first().click();
    const detail = page.locator('.detail');
    await expect.poll(() => detail.locator('.stream-text').textContent()).toBe(TEXT);
    const events = captured.get(style)!;
    await detail.getByRole('button', { name: `${events.length} events` }).click();
    expect(await detail.locator('.events > li').count()).toBe(events.length);
    expect(await detail.locator('.why').textContent()).toContain('fixture:fox');
  });

  it('shows a whole answer as its body, with the usage, the scenario step and the fault', async () => {
    await page.locator('.row', { hasText: 'a whole fox' }).click();
    const detail = page.locator('.detail');
    await expect.poll(() => detail.locator('.sides').textContent()).toContain(TEXT);
    expect(await detail.locator('.usage').textContent()).toMatch(/prompt_tokens \d+/);
    expect(await detail.locator('.why').textContent()).toContain('Scenario flaky, step 1, fault slow_first_chunk.');
  });

  it('saves an entry as a fixture: asks a file name, shows the YAML, posts the name (SPEC 12 contract)', async () => {
    // The endpoint is stubbed to its SPEC 12 contract; the first POST finds the name taken.
    const posted: unknown[] = [];
    const yaml = 'chat:\n  - name: a-whole-fox\n    match: { fingerprint: "abc" }\n    reply: { text: "fox" }\n';
    await page.route('**/__admin/requests/*/fixture', (route) => {
      if (route.request().method() === 'GET') return route.fulfill({ status: 200, contentType: 'text/yaml', body: yaml });
      posted.push(route.request().postDataJSON());
      return posted.length === 1
        ? route.fulfill({ status: 409, json: { error: { message: 'exists' } } })
        : route.fulfill({ status: 201, json: { file: 'fox.yaml' } });
    });
    await page.locator('.row', { hasText: 'a whole fox' }).click();
    await page.getByRole('button', { name: 'Save as fixture' }).click();
    const dialog = page.locator('.dialog');
    await expect.poll(() => dialog.locator('.yaml').textContent()).toBe(yaml);
    await dialog.locator('input[name=file]').fill('taken.yaml');
    await dialog.getByRole('button', { name: 'Write taken.yaml' }).click();
    await expect.poll(() => dialog.locator('.problem').textContent()).toBe('taken.yaml already exists; choose another name.');
    await dialog.locator('input[name=file]').fill('fox.yaml');
    await dialog.getByRole('button', { name: 'Write fox.yaml' }).click();
    await expect.poll(() => dialog.locator('.ok').textContent()).toContain('Written to fox.yaml');
    expect(posted).toEqual([{ file: 'taken.yaml' }, { file: 'fox.yaml' }]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await page.locator('.dialog').count()).toBe(0);
  });

  it('saves a generated answer as a fixture for real, and the next identical request is answered by it', async () => {
    await page.unroute('**/__admin/requests/*/fixture');
    const ask = () =>
      fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'tell me about the tides' }] }),
      });
    const first = await ask();
    expect(first.headers.get('x-mock-source')).toBe('generated');
    const said = ((await first.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content;
    await page.locator('.row', { hasText: 'tell me about the tides' }).first().click();
    await page.getByRole('button', { name: 'Save as fixture' }).click();
    const dialog = page.locator('.dialog');
    await expect.poll(() => dialog.locator('.yaml').textContent()).toContain('fingerprint');
    await dialog.locator('input[name=file]').fill('tides.yaml');
    await dialog.getByRole('button', { name: 'Write tides.yaml' }).click();
    await expect.poll(() => dialog.locator('.ok').textContent()).toContain('Written to tides.yaml');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(async () => (await ask()).headers.get('x-mock-source'), { timeout: 5000 }).toBe('fixture:tides');
    const again = (await (await ask()).json()) as { choices: Array<{ message: { content: string } }> };
    expect(again.choices[0]!.message.content).toBe(said);
  });
});
