// The inspector page in a real Chromium shows each provider's requests as it shows the four
// styles': the row with what the user said, and the entry with the provider's style name and the
// catalog's model. Each provider's own client makes the request.
import { ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { GoogleGenAI } from '@google/genai';
import type { AuthClient } from 'google-auth-library';
import { Ollama } from 'ollama';
import OpenAI, { AzureOpenAI } from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedrockFor } from '../helpers/bedrock-client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NO_CHROMIUM, chromiumPath, launchChromium, type Browser } from './chromium.js';

if (!chromiumPath) console.warn(NO_CHROMIUM);

/** A request should show in the page within this long, without a reload. */
const LIVE_MS = 2000;

const authClient = { projectId: 'my-project', getRequestHeaders: async () => new Headers({ authorization: 'Bearer ya29.mock-token' }) } as unknown as AuthClient;

/** Each provider: its style, the catalog model its id names, and a call with its client saying `said`. */
const PROVIDERS: Array<{ style: string; model: string; ask: (url: string, said: string) => Promise<unknown> }> = [
  { style: 'ollama', model: 'claude-sonnet-4-6', ask: (url, said) => new Ollama({ host: url }).chat({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: said }] }) },
  {
    style: 'openrouter',
    model: 'claude-sonnet-4-6',
    ask: (url, said) => new OpenAI({ baseURL: `${url}/api/v1`, apiKey: 'sk-or', maxRetries: 0 }).chat.completions.create({ model: 'anthropic/claude-sonnet-4.6', messages: [{ role: 'user', content: said }] }),
  },
  {
    style: 'azure-openai',
    model: 'gpt-4o-mini',
    ask: (url, said) =>
      new AzureOpenAI({ endpoint: url, apiKey: 'azure-key', apiVersion: '2024-10-21', deployment: 'gpt-4o-mini', maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: said }] }),
  },
  {
    style: 'bedrock',
    model: 'claude-sonnet-4-6',
    ask: async (url, said) => {
      const client = bedrockFor(url);
      try {
        return await client.send(new ConverseCommand({ modelId: 'anthropic.claude-sonnet-4-6-v1:0', messages: [{ role: 'user', content: [{ text: said }] }] }));
      } finally {
        client.destroy();
      }
    },
  },
  {
    style: 'vertex',
    model: 'gemini-2.5-flash',
    ask: (url, said) =>
      new GoogleGenAI({ vertexai: true, project: 'my-project', location: 'us-central1', googleAuthOptions: { authClient }, httpOptions: { baseUrl: url } }).models.generateContent({ model: 'gemini-2.5-flash', contents: said }),
  },
  {
    style: 'vertex',
    model: 'claude-sonnet-4-6',
    ask: (url, said) =>
      new AnthropicVertex({ baseURL: `${url}/v1`, region: 'us-east5', projectId: 'my-project', authClient, maxRetries: 0 }).messages.create({ model: 'claude-sonnet-4-6@20250929', max_tokens: 100, messages: [{ role: 'user', content: said }] }),
  },
];

let server: TestServer;
let browser: Browser;
let page: Page;

describe.skipIf(!chromiumPath)('the inspector page with the providers', () => {
  beforeAll(async () => {
    server = await startTestServer({});
    browser = await launchChromium();
    page = await browser.context.newPage();
    await page.goto(`${server.url}/__admin/ui`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each(PROVIDERS.map((provider, index) => ({ ...provider, said: `question ${index} for ${provider.style} on ${provider.model}` })))(
    '$style ($model): the row says what the user said, the entry its style and model',
    async ({ style, model, ask, said }) => {
      await ask(server.url, said);
      const row = page.locator('.row', { hasText: said });
      await row.waitFor({ timeout: LIVE_MS });
      expect(await row.locator('.status').textContent()).toBe('200');
      await row.click();
      const meta = page.locator('.detail .meta');
      await expect.poll(() => meta.textContent()).toContain(`model ${model}`);
      expect(await meta.locator('span', { hasText: new RegExp(`^${style}$`) }).count()).toBe(1);
      expect(await page.locator('.detail .sides .request').textContent()).toContain(said);
    },
  );
});
