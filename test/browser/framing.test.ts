// The inspector cannot be framed by another site (SPEC 13): a page on another origin that puts
// it in an iframe (to make the developer click "clear" unseen) gets a blocked frame, in Chromium.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NO_CHROMIUM, chromiumPath, launchChromium, type Browser } from './chromium.js';

if (!chromiumPath) console.warn(NO_CHROMIUM);

let mock: TestServer;
let framer: Server;
let framerUrl: string;
let browser: Browser;

describe.skipIf(!chromiumPath)('the inspector in a frame', () => {
  beforeAll(async () => {
    mock = await startTestServer();
    // Another origin (another port): the page an attacker would serve.
    framer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><iframe id="inspector" src="${mock.url}/__admin/ui" width="800" height="600"></iframe>`);
    });
    await new Promise<void>((done) => framer.listen(0, '127.0.0.1', done));
    framerUrl = `http://localhost:${(framer.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => framer?.close(done));
    await mock?.close();
  });

  it('is refused to a page of another origin, and still opens on its own', async () => {
    const page = await browser.context.newPage();
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors|X-Frame-Options/i.test(message.text())) refusals.push(message.text());
    });
    await page.goto(framerUrl);
    await expect.poll(() => refusals.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const inspector = page.frames().find((frame) => frame !== page.mainFrame())!;
    // A blocked frame shows the browser's error page, never the inspector.
    expect(await inspector.evaluate('document.querySelector("#app") === null').catch(() => true)).toBe(true);

    await page.goto(`${mock.url}/__admin/ui`);
    await expect.poll(() => page.evaluate('(document.querySelector("#app")?.childElementCount ?? 0) > 0'), { timeout: 10_000 }).toBe(true);
    await page.close();
  });
});
