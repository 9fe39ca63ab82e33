import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`), or CAIRN_CHROMIUM. */
export const CHROMIUM = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';

/** Strapi 5.54's admin build for the blog fixture: CAIRN_ADMIN_BUILD, or the workplace's shared copy. */
export const ADMIN_BUILD = [
  process.env.CAIRN_ADMIN_BUILD,
  resolve(import.meta.dirname, '../../../shared/strapi-admin-build'),
  '/work/shared/strapi-admin-build',
]
  .filter((dir): dir is string => typeof dir === 'string')
  .find((dir) => existsSync(join(dir, 'index.html')));

/** What a browser test lacks on this machine (Chromium or the build), or null when it can run. */
export function browserTestMissing(): string | null {
  if (!existsSync(CHROMIUM)) return `Chromium (${CHROMIUM})`;
  if (!ADMIN_BUILD) return 'the admin build (CAIRN_ADMIN_BUILD)';
  return null;
}

const SHOTS = resolve(import.meta.dirname, '../../.tmp/admin-e2e');

/** A headless Chromium page on the panel, with what the server answered badly and what it still owes. */
export interface PanelBrowser {
  readonly browser: Browser;
  readonly page: Page;
  /** Every 5xx the UI met, as `status METHOD url`. */
  readonly serverErrors: readonly string[];
  /**
   * Runs one step of a scenario; on failure keeps a screenshot named `<name>.png` in
   * .tmp/admin-e2e/ and rethrows with the server requests still unanswered (what a stuck screen
   * waits for) and the server errors seen.
   */
  step(name: string, work: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** Launches Chromium on a 1400×1000 page whose waits last `timeout` ms (generous: CI machines are busy). */
export async function openPanelBrowser(base: string, timeout = 90_000): Promise<PanelBrowser> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(timeout);
  const pending = new Set<string>();
  const serverErrors: string[] = [];
  const key = (request: { method(): string; url(): string }) => `${request.method()} ${request.url()}`;
  page.on('request', (request) => pending.add(key(request)));
  page.on('requestfinished', (request) => pending.delete(key(request)));
  // A failed request (a navigation aborts those in flight) is no longer awaited.
  page.on('requestfailed', (request) => pending.delete(key(request)));
  page.on('response', (response) => {
    if (response.status() >= 500) serverErrors.push(`${response.status()} ${key(response.request())}`);
  });
  return {
    browser,
    page,
    serverErrors,
    async step(name, work) {
      try {
        await work();
      } catch (error) {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true }).catch(() => undefined);
        const waiting = [...pending].filter((request) => request.includes(base));
        throw new Error(
          `${String(error)}\nunanswered: ${waiting.join(', ') || 'none'}\nserver errors: ${serverErrors.join(', ') || 'none'}`,
          { cause: error },
        );
      }
    },
    close: () => browser.close(),
  };
}
