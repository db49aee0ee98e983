// The inspector's Drift panel in a real Chromium: a mock with `--upstream --drift` before a gateway
// that drifts; the panel shows each drifted path live, counts it again, opens its example in the
// journal, and clears.
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDriftingGateway, type DriftingGateway } from '../helpers/drifting-gateway.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NO_CHROMIUM, chromiumPath, launchChromium, watchProblems, type Browser } from './chromium.js';

if (!chromiumPath) console.warn(NO_CHROMIUM);

const MODELS = 'models:\n  - { id: gpt-4o-mini, owned_by: openai, kind: chat }\n';

let faithful: TestServer;
let gateway: DriftingGateway;
let mock: TestServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

const ask = (content: string) =>
  new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-test', maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });

describe.skipIf(!chromiumPath)('the Drift panel', () => {
  beforeAll(async () => {
    faithful = await startTestServer();
    gateway = await startDriftingGateway(faithful.url);
    mock = await startTestServer({ upstream: gateway.url, drift: true, upstreamKey: 'sk-upstream', fixtureFiles: { 'models.yaml': MODELS } });
    browser = await launchChromium();
    page = await browser.context.newPage();
    watchProblems(page, problems);
  });
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
    await gateway?.close();
    await faithful?.close();
  });

  it('shows each drifted path live, counts it again, opens its example and clears', async () => {
    await page.goto(`${mock.url}/__admin/ui`);
    const panel = page.locator('.panel.drift');
    await panel.getByText('none seen').waitFor();
    await ask('What changed?');
    const metadata = panel.locator('.drift-row[data-path="metadata"]');
    await metadata.waitFor();
    expect(await metadata.textContent()).toContain('POST /v1/chat/completions · upstream has, mock lacks');
    expect(await panel.locator('.drift-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-path')))).toEqual([
      'choices[].finish_reason',
      'choices[].logprobs',
      'metadata',
      'system_fingerprint',
    ]);
    await ask('And now?');
    await metadata.locator('.drift-count', { hasText: '2×' }).waitFor();

    const journal = (await (await mock.admin('/requests')).json()) as { requests: Array<{ id: string; body: { messages: Array<{ content: string }> } }> };
    const example = journal.requests.find((entry) => entry.body.messages[0]!.content === 'And now?')!.id;
    await metadata.locator('button', { hasText: example }).click();
    await page.locator(`.detail[data-id="${example}"]`).waitFor();

    await panel.locator('.drift-clear').click();
    await panel.getByText('none seen').waitFor();
    expect(((await (await mock.admin('/drift')).json()) as { findings: unknown[] }).findings).toEqual([]);
    expect(problems).toEqual([]);
  }, 30_000);
});
