// The command's log at its default level while the inspector page loads in a real Chromium: the
// page's own files (a dozen per load) are not lines of it; the app's requests are.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/built.js';
import { NO_CHROMIUM, chromiumPath, launchChromium, type Browser } from './chromium.js';

if (!chromiumPath) console.warn(NO_CHROMIUM);

let child: ChildProcess;
let browser: Browser;
let url: string;
const lines: string[] = [];

describe.skipIf(!chromiumPath)('the log while the inspector page loads', () => {
  beforeAll(async () => {
    await ensureBuilt();
    child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), '--port', '0', '--no-watch'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      // The file's own temp folder: the TLS CA the modes line names is made there, not in the user's home.
      env: { ...process.env, XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'mgm-data-')) },
    });
    const reader = createInterface({ input: child.stdout! });
    url = await new Promise<string>((found) =>
      reader.on('line', (line) => {
        lines.push(line);
        const listening = /listening on (\S+)/.exec(line)?.[1];
        if (listening) found(listening);
      }),
    );
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    child?.kill();
  });

  it('has no line for the page or its files at the default level, and one for a model request', async () => {
    const page = await browser.context.newPage();
    const files: string[] = [];
    page.on('request', (request) => request.url().includes('/__admin/ui') && files.push(request.url()));
    await page.goto(`${url}/__admin/ui`);
    await page.getByText('No requests yet').waitFor();
    expect(files.length).toBeGreaterThan(10);
    const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'after the page loaded' }] });
    // Lines are written in order, so once the request's line is there every earlier one is too.
    await expect.poll(() => lines.some((line) => line.includes(' POST /v1/chat/completions '))).toBe(true);
    expect(lines.filter((line) => / GET \/__admin\/ui/.test(line))).toEqual([]);
  });
});
