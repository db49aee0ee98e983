// The inspector runs only its own scripts (SPEC 13), in Chromium: its Content-Security-Policy
// names the page's inline import map by its hash, so the page works as it is served, and a script
// injected into it (as stored XSS would be) is refused and never runs.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NO_CHROMIUM, chromiumPath, launchChromium, type Browser } from './chromium.js';

if (!chromiumPath) console.warn(NO_CHROMIUM);

let mock: TestServer;
let browser: Browser;

describe.skipIf(!chromiumPath)('the inspector page policy', () => {
  beforeAll(async () => {
    mock = await startTestServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  it('allows its own scripts and the import map by the hash of the page as served', async () => {
    const response = await fetch(`${mock.url}/__admin/ui`);
    const html = await response.text();
    const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = createHash('sha256').update(importMap).digest('base64');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(policy).not.toContain('unsafe-inline');
  });

  it('runs the page with no console error, and refuses an inline script injected into it', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${mock.url}/__admin/ui`);
    await expect.poll(() => page.evaluate('(document.querySelector("#app")?.childElementCount ?? 0) > 0'), { timeout: 10_000 }).toBe(true);
    expect(errors).toEqual([]);

    // The same page and headers, with a script slipped in as stored XSS would.
    await page.route(`${mock.url}/__admin/ui`, async (route) => {
      const served = await route.fetch();
      const body = (await served.text()).replace('</head>', '<script>window.injected = true</script></head>');
      await route.fulfill({ response: served, body });
    });
    await page.goto(`${mock.url}/__admin/ui`);
    await expect.poll(() => page.evaluate('(document.querySelector("#app")?.childElementCount ?? 0) > 0'), { timeout: 10_000 }).toBe(true);
    expect(await page.evaluate('window.injected')).toBeUndefined();
    expect(errors.some((error) => /Content Security Policy/i.test(error) && /script/i.test(error))).toBe(true);
    // A script added later from the page's own code is refused alike.
    const violation = await page.evaluate(`new Promise((resolve) => {
      document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), { once: true });
      const script = document.createElement('script');
      script.textContent = 'window.injectedLater = true';
      document.head.append(script);
    })`);
    expect(violation).toBe('script-src-elem');
    expect(await page.evaluate('window.injectedLater')).toBeUndefined();
    await page.close();
  });
});
