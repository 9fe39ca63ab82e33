import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_BUILD, browserTestMissing, openPanelBrowser, type PanelBrowser } from './support/admin-browser.js';
import { ARTICLES, inviteAdmin, startAdminClient, type AdminClient } from './support/admin-client.js';
import { fixtureFiles } from './support/project-code.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * Strapi's own admin panel (the blog's build, Strapi 5.54) in a real headless Chromium, against
 * a Cairn server running test/fixtures/projects/admin-conditions: an editor whose role carries
 * the project's "featured entries only" condition signs in and the content manager lists their
 * covered entries alone; an entry's edit view offers "Open preview", whose page frames the URL
 * the project's preview handler builds. On SQLite only: what the condition covers on each database
 * is admin-project-conditions' (through the admin API, three databases); this checks the panel
 * shows it. Skipped, with a one-line notice, where Chromium or the build is missing.
 */
const missing = browserTestMissing();
if (missing) console.warn(`admin-conditions-browser: skipped, ${missing} is missing`);

const STEP = 300_000;
const EXPLORER = 'plugin::content-manager.explorer';
const ARTICLE = 'api::article.article';
const EDITOR = { email: 'fred@example.com', password: 'Fred1234pass' };

/** The blog with the fixture laid over it and the admin build linked in, as `cairn start` would serve it. */
function projectWithPanel(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-conditions-e2e-'));
  cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp|build)$/.test(source) });
  for (const [file, content] of Object.entries(
    fixtureFiles(resolve(import.meta.dirname, 'fixtures/projects/admin-conditions')),
  )) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  symlinkSync(ADMIN_BUILD as string, join(dir, 'build'));
  return dir;
}

for (const database of inject('databases').filter((kind) => kind === 'sqlite')) {
  describe.skipIf(missing !== null)(`[${database}] a conditional role and Preview in Strapi's admin panel`, () => {
    let dir: string;
    let client: AdminClient;
    let base: string;
    let panel: PanelBrowser;
    let page: Page;
    const doc: Record<string, string> = {};
    const step = (name: string, work: () => Promise<void>) => panel.step(`conditions-${database}-${name}`, work);

    beforeAll(async () => {
      dir = projectWithPanel();
      client = await startAdminClient(database, { project: dir });
      for (const [title, isFeatured] of [
        ['Featured one', true],
        ['Featured two', true],
        ['Plain one', false],
        ['Plain two', false],
      ] as const) {
        const created = await client.call('POST', ARTICLES, { title, isFeatured });
        expect(created.status, created.text).toBe(201);
        doc[title] = created.json.data.documentId;
      }
      const role = await client.call('POST', '/admin/roles', {
        name: 'Featured editors',
        description: 'Featured only',
      });
      const granted = await client.call('PUT', `/admin/roles/${role.json.data.id}/permissions`, {
        permissions: ['read', 'update', 'publish'].map((verb) => ({
          action: `${EXPLORER}.${verb}`,
          subject: ARTICLE,
          properties: { locales: ['en'] },
          conditions: ['api::featured-only'],
        })),
      });
      expect(granted.status, granted.text).toBe(200);
      await inviteAdmin(client, { firstname: 'Fred', lastname: 'Featured', email: EDITOR.email }, role.json.data.id);
      const address = await client.server.app.server.listen({ host: '127.0.0.1', port: 0 });
      base = address.replace(/\/$/, '');
      panel = await openPanelBrowser(base);
      page = panel.page;
      await page.addLocatorHandler(page.getByRole('button', { name: 'Skip' }), async (skip) => {
        await skip.click();
      });
    }, 180_000);

    afterAll(async () => {
      await panel?.close();
      await client?.server.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it(
      "lists only the entries the editor's condition covers",
      () =>
        step('list', async () => {
          await page.goto(`${base}/admin/auth/login`);
          await page.locator('input[name=email]').fill(EDITOR.email);
          await page.locator('input[name=password]').fill(EDITOR.password);
          await page.getByRole('button', { name: 'Login' }).click();
          await page.getByRole('link', { name: 'Content Manager' }).first().waitFor();
          // The list's API request (not the panel's page, whose path starts with /admin).
          const listed = page.waitForResponse(
            (response) => new URL(response.url()).pathname === `/content-manager/collection-types/${ARTICLE}`,
          );
          await page.goto(`${base}/admin/content-manager/collection-types/${ARTICLE}?page=1&pageSize=10`);
          const answered = await listed;
          expect(answered.status()).toBe(200);
          expect(((await answered.json()) as { pagination: { total: number } }).pagination.total).toBe(2);
          const rows = page.locator('tbody tr');
          await rows.filter({ hasText: 'Featured one' }).waitFor();
          await rows.filter({ hasText: 'Featured two' }).waitFor();
          expect(await rows.count()).toBe(2);
          expect(await page.locator('tbody').textContent()).not.toContain('Plain');
        }),
      STEP,
    );

    it(
      "offers Open preview on an entry, whose page frames the project's preview URL",
      () =>
        step('preview', async () => {
          const editView = `${base}/admin/content-manager/collection-types/${ARTICLE}/${doc['Featured one']}?plugins[i18n][locale]=en`;
          await page.goto(editView);
          const open = page.getByRole('link', { name: 'Open preview' });
          await open.waitFor();
          expect(await open.getAttribute('href')).toMatch(
            new RegExp(`/admin/content-manager/collection-types/${ARTICLE}/${doc['Featured one']}/preview`),
          );
          await open.click();
          const frame = page.getByTestId('preview-iframe');
          await frame.waitFor({ state: 'attached' });
          expect(await frame.getAttribute('src')).toBe(
            `http://localhost:4321/preview/article/${doc['Featured one']}?locale=en&status=draft&title=Featured+one`,
          );
        }),
      STEP,
    );

    it('never met a server error', () => {
      expect(panel.serverErrors).toEqual([]);
    });
  });
}
