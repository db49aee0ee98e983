// `npm run docs:screenshot`: refreshes docs/inspector.png, the inspector with a few requests in
// it (every chat style, a stream, a near miss, a scenario error, a video task on its way).
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startMockServer } from '../../src/index.js';
import { NO_CHROMIUM, chromiumPath, launchChromium } from './chromium.js';

if (!chromiumPath) {
  console.error(NO_CHROMIUM);
  process.exit(1);
}
const server = await startMockServer({ clock: '2026-03-02T09:30:00Z' });
const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-demo', maxRetries: 0 });
const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'sk-demo', maxRetries: 0 });
const genai = new GoogleGenAI({ apiKey: 'demo', httpOptions: { baseUrl: server.url } });
const browser = await launchChromium();
// Requests a second or two apart, as a person using an app makes them.
const gaps = [1310, 1480, 1170, 1620, 1390, 1250];
const later = () => server.clock.advance(gaps.shift() ?? 1000);
try {
  await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello there' }] });
  later();
  const story = await openai.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Please tell me a story' }] });
  for await (const _ of story);
  later();
  await openai.responses.create({ model: 'gpt-4.1', input: 'What is the weather in Paris?' });
  later();
  await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 200, messages: [{ role: 'user', content: 'Summarise the release notes in three bullets' }] });
  later();
  await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Name three rivers in France' });
  await fetch(`${server.url}/__admin/scenario?session=checkout`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"rate_limit"}' });
  const limited = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-demo', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'checkout' } });
  later();
  await limited.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Apply the discount code' }] }).catch(() => undefined);
  later();
  await openai.videos.create({ model: 'sora-2', prompt: 'A paper boat drifting down a rainy street' });
  server.clock.advance(6000);
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/__admin/ui`);
  await page.locator('.row').nth(5).waitFor();
  await page.locator('.row', { hasText: 'weather in Paris' }).click();
  await page.locator('.detail .why').waitFor();
  await page.screenshot({ path: 'docs/inspector.png' });
  console.log('docs/inspector.png written');
} finally {
  await browser.close();
  await server.close();
}
