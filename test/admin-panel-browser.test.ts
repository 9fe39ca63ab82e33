import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startCairn, type RunningCairn } from './support/cli.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * Strapi's own admin panel (the build `strapi build` wrote for the blog, Strapi 5.54) driven in a
 * real headless Chromium against a real `cairn start`: an editor registers, writes, saves a draft,
 * publishes, edits and republishes through the UI, and the content API shows what they did.
 * Skipped, with a one-line notice, where Chromium or the build is missing (.ci/run installs both).
 */
const CHROMIUM = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';
const BUILD = [
  process.env.CAIRN_ADMIN_BUILD,
  resolve(import.meta.dirname, '../../shared/strapi-admin-build'),
  '/work/shared/strapi-admin-build',
]
  .filter((dir): dir is string => typeof dir === 'string')
  .find((dir) => existsSync(join(dir, 'index.html')));
const missing = !existsSync(CHROMIUM)
  ? `Chromium (${CHROMIUM})`
  : !BUILD
    ? 'the admin build (CAIRN_ADMIN_BUILD)'
    : null;
if (missing) console.warn(`admin-panel-browser: skipped, ${missing} is missing`);

const SHOTS = resolve(import.meta.dirname, '../.tmp/admin-e2e');
const EMAIL = 'editor@example.com';
const PASSWORD = 'Passw0rd!Passw0rd';

describe.skipIf(missing !== null)("Strapi's admin panel in a real browser", () => {
  let dir: string;
  let cairn: RunningCairn;
  let browser: Browser;
  let page: Page;
  const failures: string[] = [];
  const pending = new Set<string>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-admin-e2e-'));
    cpSync(EXAMPLE_PROJECT, dir, {
      recursive: true,
      filter: (source) => !/[\\/](\.env|\.tmp|public[\\/]uploads)$/.test(source),
    });
    symlinkSync(BUILD as string, join(dir, 'build'));
    cairn = await startCairn(dir);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
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
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    // Generous: on a busy 2-core CI machine the panel loads its lazy chunks slowly while other test files run.
    page.setDefaultTimeout(90_000);
    // Requests still unanswered, named in a failing step's error (what a stuck screen waits for).
    page.on('request', (request) => pending.add(`${request.method()} ${request.url()}`));
    page.on('requestfinished', (request) => pending.delete(`${request.method()} ${request.url()}`));
    // A failed request (a navigation aborts those in flight) is no longer awaited.
    page.on('requestfailed', (request) => pending.delete(`${request.method()} ${request.url()}`));
    // Every server error the UI meets is a failure, whatever the screen shows.
    page.on('response', (response) => {
      if (response.status() >= 500)
        failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await cairn?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs a step; on failure keeps a screenshot named after it in .tmp/admin-e2e/. */
  const step = async (name: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true }).catch(() => undefined);
      const waiting = [...pending].filter((request) => request.includes(cairn.base));
      throw new Error(
        `${String(error)}\nunanswered: ${waiting.join(', ') || 'none'}\nfailed: ${failures.join(', ') || 'none'}`,
        {
          cause: error,
        },
      );
    }
  };
  const api = async (path: string) => (await fetch(`${cairn.base}${path}`)).json() as Promise<{ data: unknown }>;
  const skipTour = async () => {
    const skip = page.getByRole('button', { name: 'Skip' });
    if (await skip.isVisible().catch(() => false)) await skip.click();
  };

  it('registers the first admin, and a reload keeps them signed in', async () => {
    await step('register', async () => {
      await page.goto(`${cairn.base}/admin`);
      await page.locator('input[name=firstname]').fill('Ada');
      await page.locator('input[name=email]').fill(EMAIL);
      await page.locator('input[name=password]').fill(PASSWORD);
      await page.locator('input[name=confirmPassword]').fill(PASSWORD);
      await page.getByRole('button', { name: "Let's start" }).click();
      await page.getByRole('link', { name: 'Content Manager' }).first().waitFor();
      await page.reload();
      await page.getByRole('link', { name: 'Content Manager' }).first().waitFor();
    });
  }, 300_000);

  it('creates an article, saves the draft, publishes it, and the content API serves it', async () => {
    await step('create-article', async () => {
      await page.goto(`${cairn.base}/admin/content-manager/collection-types/api::article.article/create`);
      await page.locator('input[name=title]').waitFor();
      await page.waitForTimeout(1000);
      await skipTour();
      await page.locator('textarea[name=summary]').fill('Typed into Strapi’s own form');
      await page.locator('input[name=title]').fill('Written in the browser');
      expect(await page.locator('input[name=title]').inputValue()).toBe('Written in the browser');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved document').first().waitFor();
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByText('Published document').first().waitFor();
    });
    const published = (await api('/api/articles?filters[title][$eq]=Written%20in%20the%20browser')) as {
      data: { title: string; summary: string }[];
    };
    expect(published.data.map((article) => [article.title, article.summary])).toEqual([
      ['Written in the browser', 'Typed into Strapi’s own form'],
    ]);
  }, 300_000);

  it('edits and republishes: the content API serves the new title', async () => {
    await step('edit-article', async () => {
      await page.locator('input[name=title]').fill('Edited in the browser');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved document').first().waitFor();
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByText('Published document').first().waitFor();
    });
    const published = (await api('/api/articles?fields[0]=title&filters[title][$startsWith]=Edited')) as {
      data: { title: string }[];
    };
    expect(published.data.map((article) => article.title)).toEqual(['Edited in the browser']);
  }, 300_000);

  it('never met a server error', () => {
    expect(failures).toEqual([]);
  });
});
