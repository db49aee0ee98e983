// Finds a Chromium for the browser tests and launches it headless through playwright-core.
// CI installs Debian's (see .ci/run); elsewhere, without one, the browser tests skip and say how
// to get it.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const CANDIDATES = [
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/** `CHROMIUM_PATH` when set, else the first usual path that exists. */
export const chromiumPath = process.env.CHROMIUM_PATH || CANDIDATES.find((path) => existsSync(path));

export const NO_CHROMIUM =
  'Browser tests skipped: no Chromium found. Install one (Debian/Ubuntu: `apt-get install chromium-headless-shell`, or `chromium`) or set CHROMIUM_PATH.';

// CI sets REQUIRE_CHROMIUM: there a missing browser is a failure, never a quiet skip.
if (!chromiumPath && process.env.REQUIRE_CHROMIUM) throw new Error(NO_CHROMIUM.replace('skipped', 'cannot run'));

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh profile each time: no state leaks between runs. */
export async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'mgm-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: FLAGS,
    viewport: { width: 1440, height: 860 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What goes wrong on a page, as it happens: its uncaught errors and every answer of 400 or more. */
export function watchProblems(page: Page, problems: string[]): void {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => response.status() >= 400 && problems.push(`${response.status()}: ${response.url()}`));
}
