import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_BUILD, browserTestMissing, openPanelBrowser, type PanelBrowser } from './support/admin-browser.js';
import { startCairn, type RunningCairn } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';
import { gradientImage } from './support/uploads.js';

/*
 * Strapi's own admin panel (the build `strapi build` wrote for the blog, Strapi 5.54) driven in a
 * real headless Chromium against a real `cairn start`, on every database: an editor registers,
 * writes an article with relations picked in the search-and-pick dropdowns, a component and a
 * dynamic-zone item, saves a draft, publishes, edits and republishes, adds a French translation,
 * uploads an image in the Media Library, fills every other kind of field (the image picked from
 * the library), publishes drafts in bulk from a searched list, deletes the article, and logs out and in; after each step the content API shows exactly what they
 * did. Skipped, with a one-line notice, where Chromium or the build is
 * missing (.ci/run installs both).
 */
const missing = browserTestMissing();
if (missing) console.warn(`admin-panel-browser: skipped, ${missing} is missing`);

const EMAIL = 'editor@example.com';
const PASSWORD = 'Passw0rd!Passw0rd';
const STEP = 300_000;

/** The published article as the content API serves it with everything this test sets. */
interface PublicArticle {
  documentId: string;
  title: string;
  summary: string;
  locale: string;
  author: { name: string } | null;
  tags: { name: string }[];
  seo: { metaTitle: string; keywords?: { word: string }[] } | null;
  blocks: { __component: string; title?: string; body?: string; author?: { name: string } | null }[];
}
const POPULATE =
  'populate[author][fields][0]=name&populate[tags][fields][0]=name&populate[seo][populate][0]=keywords' +
  '&populate[blocks][on][shared.quote][populate][author][fields][0]=name';

for (const database of inject('databases')) {
  describe.skipIf(missing !== null)(`[${database}] Strapi's admin panel in a real browser`, () => {
    let dir: string;
    let db: TestDatabase;
    let cairn: RunningCairn;
    let panel: PanelBrowser;
    let page: Page;
    let documentId = '';
    const step = (name: string, work: () => Promise<void>) => panel.step(`${database}-${name}`, work);
    const api = async <T>(path: string, init?: RequestInit): Promise<T> =>
      (await (await fetch(`${cairn.base}${path}`, init)).json()) as T;
    const articles = (query: string) => api<{ data: PublicArticle[] }>(`/api/articles?${query}`);
    /** Opens a relation dropdown (by its field's label, the last one when a component repeats it) and picks `name`. */
    const pick = async (field: string, name: string) => {
      await page.getByRole('combobox', { name: field }).last().click();
      await page.getByRole('option', { name }).click();
    };
    /**
     * Clicks Save or Publish and waits for the server's answer to that very click (a toast from an
     * earlier click may still be on screen), then for the toast.
     */
    const submit = async (button: 'Save' | 'Publish') => {
      const answered = page.waitForResponse(
        (response) =>
          response.request().method() !== 'GET' &&
          response.url().includes('/content-manager/collection-types/api::article.article') &&
          (button === 'Publish') === response.url().includes('/actions/publish'),
      );
      await page.getByRole('button', { name: button }).click();
      expect((await answered).status()).toBeLessThan(300);
      await page
        .getByText(button === 'Save' ? 'Saved document' : 'Published document')
        .first()
        .waitFor();
    };
    const editView = (locale: string) =>
      `${cairn.base}/admin/content-manager/collection-types/api::article.article/${documentId}?plugins[i18n][locale]=${locale}`;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-admin-e2e-'));
      cpSync(EXAMPLE_PROJECT, dir, {
        recursive: true,
        filter: (source) => !/[\\/](\.env|\.tmp|build|public[\\/]uploads)$/.test(source),
      });
      symlinkSync(ADMIN_BUILD as string, join(dir, 'build'));
      db = await createTestDatabase(database);
      cairn = await startCairn(dir, db.env);
      // What editors pick from: written through the content API, so the panel must show it.
      for (const name of ['Grace Hopper', 'Alan Turing']) await api('/api/authors', post({ data: { name } }));
      await api('/api/tags', post({ data: { name: 'science' } }));
      panel = await openPanelBrowser(cairn.base);
      page = panel.page;
      // The guided tour a new admin is shown covers the page whenever it comes up: closed then,
      // before the next action, instead of waiting for it at fixed points.
      await page.addLocatorHandler(page.getByRole('button', { name: 'Skip' }), async (skip) => {
        await skip.click();
      });
    }, 120_000);

    afterAll(async () => {
      await panel?.close();
      await cairn?.stop();
      await db?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it(
      'registers the first admin, and a reload keeps them signed in',
      () =>
        step('register', async () => {
          await page.goto(`${cairn.base}/admin`);
          await page.locator('input[name=firstname]').fill('Ada');
          await page.locator('input[name=email]').fill(EMAIL);
          await page.locator('input[name=password]').fill(PASSWORD);
          await page.locator('input[name=confirmPassword]').fill(PASSWORD);
          await page.getByRole('button', { name: "Let's start" }).click();
          await page.getByRole('link', { name: 'Content Manager' }).first().waitFor();
          await page.reload();
          await page.getByRole('link', { name: 'Content Manager' }).first().waitFor();
        }),
      STEP,
    );

    it(
      'creates an article with relations, a component with a nested repeatable one and a dynamic-zone item; the content API serves it published',
      async () => {
        await step('create-article', async () => {
          await page.goto(`${cairn.base}/admin/content-manager/collection-types/api::article.article/create`);
          await page.locator('input[name=title]').waitFor();
          await page.locator('textarea[name=summary]').fill('Typed into Strapi’s own form');
          await page.locator('input[name=title]').fill('Written in the browser');
          await pick('author', 'Grace Hopper');
          await pick('tags', 'science');
          await page.getByRole('button', { name: 'No entry yet. Click to add one.' }).click();
          await page.locator('input[name="seo.metaTitle"]').fill('Found by search engines');
          // A repeatable component nested in that one: two keywords.
          await page.getByRole('button', { name: 'No entry yet. Click to add one.' }).click();
          await page.locator('input[name="seo.keywords.0.word"]').fill('machines');
          await page.getByRole('button', { name: 'Add an entry' }).click();
          await page.locator('input[name="seo.keywords.1.word"]').fill('minds');
          await page.getByRole('button', { name: 'Add a component to blocks' }).click();
          // The component picker's Quote, once the picker is drawn: before, the only Quote button is
          // the body editor's toolbar's, which `last()` clicked (seen once: "> Quote" in the body,
          // and no dynamic-zone item to fill).
          await page.getByText('Pick one component').waitFor();
          await page.getByRole('button', { name: 'Quote', exact: true }).last().click();
          await page.locator('input[name="blocks.0.title"]').fill('On machines');
          await page.locator('textarea[name="blocks.0.body"]').fill('Can machines think?');
          await pick('author', 'Alan Turing');
          await submit('Save');
          await submit('Publish');
          documentId = /api::article\.article\/([a-z0-9]+)/.exec(page.url())?.[1] ?? '';
        });
        const published = await articles(`filters[title][$eq]=Written%20in%20the%20browser&${POPULATE}`);
        expect(published.data).toHaveLength(1);
        const [article] = published.data as [PublicArticle];
        expect(article.documentId).toBe(documentId);
        expect(article).toMatchObject({
          summary: 'Typed into Strapi’s own form',
          author: { name: 'Grace Hopper' },
          tags: [{ name: 'science' }],
          seo: { metaTitle: 'Found by search engines', keywords: [{ word: 'machines' }, { word: 'minds' }] },
          blocks: [
            {
              __component: 'shared.quote',
              title: 'On machines',
              body: 'Can machines think?',
              author: { name: 'Alan Turing' },
            },
          ],
        });
      },
      STEP,
    );

    it(
      'edits and republishes: the content API serves the new title, relations and components kept',
      async () => {
        await step('edit-article', async () => {
          await page.locator('input[name=title]').fill('Edited in the browser');
          await submit('Save');
          await submit('Publish');
        });
        const [article] = (await articles(`filters[documentId][$eq]=${documentId}&${POPULATE}`)).data;
        expect(article).toMatchObject({
          title: 'Edited in the browser',
          author: { name: 'Grace Hopper' },
          seo: { metaTitle: 'Found by search engines', keywords: [{ word: 'machines' }, { word: 'minds' }] },
          blocks: [{ title: 'On machines', author: { name: 'Alan Turing' } }],
        });
      },
      STEP,
    );

    it(
      'adds a French translation; the English version keeps its shared fields',
      async () => {
        await step('translate', async () => {
          await page.goto(editView('en'));
          await page.locator('input[name=title]').waitFor();
          await page.getByRole('combobox', { name: 'Locales' }).click();
          await page.getByRole('option', { name: /French \(fr\)/ }).click();
          await page.waitForURL(/locale\]=fr/);
          await page.locator('input[name=title]').fill('Écrit dans le navigateur');
          await submit('Save');
        });
        const french = await articles(`locale=fr&status=draft&filters[documentId][$eq]=${documentId}&${POPULATE}`);
        expect(french.data.map((article) => [article.title, article.locale])).toEqual([
          ['Écrit dans le navigateur', 'fr'],
        ]);
        const [english] = (await articles(`locale=en&status=draft&filters[documentId][$eq]=${documentId}&${POPULATE}`))
          .data;
        expect(english).toMatchObject({
          title: 'Edited in the browser',
          seo: { metaTitle: 'Found by search engines' },
          blocks: [{ title: 'On machines' }],
        });
      },
      STEP,
    );

    it(
      'uploads an image in the Media Library; the upload API lists it and serves the file',
      async () => {
        const png = await gradientImage(64, 64, 'png');
        await step('upload', async () => {
          await page.goto(`${cairn.base}/admin/plugins/upload`);
          const addAssets = page.getByRole('button', { name: 'Add assets' }).last();
          // Now and then, on a loaded machine, the panel drew the library without its header actions
          // although every request had been answered without error (seen twice, on MySQL; not
          // reproduced alone or under a CPU hog): one reload before giving up. The page draws them
          // within 1-3 s otherwise, so the reload comes after 10 s rather than 30.
          await addAssets.waitFor({ timeout: 10_000 }).catch(async () => {
            await page.reload();
            await addAssets.waitFor();
          });
          const [chooser] = await Promise.all([page.waitForEvent('filechooser'), addAssets.click()]);
          await chooser.setFiles({ name: 'gradient.png', mimeType: 'image/png', buffer: png });
          // The library's tile, not the "Upload successful!" toast: on a loaded machine the toast
          // came and went between two of Playwright's looks (seen once, every request answered).
          await page.getByText('gradient.png').first().waitFor();
        });
        type ListedFile = { name: string; url: string; width: number };
        let file: ListedFile | undefined;
        for (let attempt = 0; attempt < 60 && !file; attempt++) {
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500));
          const files = await api<ListedFile[]>('/api/upload/files');
          file = files.find((entry) => entry.name === 'gradient.png');
        }
        expect(file).toMatchObject({ width: 64 });
        const served = await fetch(`${cairn.base}${file?.url}`);
        expect(served.headers.get('content-type')).toBe('image/png');
        expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
      },
      STEP,
    );

    it(
      'edits every scalar kind, the rich text and blocks editors, JSON, a uid and a media field; the content API serves them',
      async () => {
        await step('every-kind', async () => {
          await page.goto(
            `${cairn.base}/admin/content-manager/collection-types/api::article.article/create?plugins[i18n][locale]=en`,
          );
          await page.locator('input[name=title]').fill('Every kind of field');
          await page.getByRole('button', { name: 'Regenerate' }).click();
          await expect.poll(() => page.locator('input[name=slug]').inputValue()).toBe('every-kind-of-field');
          await page.locator('input[name=views]').fill('42');
          await page.locator('input[name=rating]').fill('4.5');
          await page.locator('input[name=contactEmail]').fill('ada@example.com');
          await page.getByRole('combobox', { name: 'category' }).click();
          await page.getByRole('option', { name: 'tech' }).click();
          await page.locator('input[name=isFeatured]').click({ force: true });
          const date = page.getByRole('combobox', { name: 'publishDate' });
          await date.fill('1/2/2025');
          await date.press('Tab'); // Enter would submit the form
          await page.getByRole('combobox', { name: 'publishTime' }).click();
          await page.getByRole('option', { name: '10:30' }).click();
          await page.locator('.CodeMirror-code').click(); // the rich text (Markdown) editor
          await page.keyboard.type('Some **bold** words');
          await page.locator('[data-slate-editor=true]').click(); // the blocks editor
          await page.keyboard.type('A paragraph in blocks');
          await page.locator('.cm-content').click(); // the JSON editor (it closes the brace itself)
          await page.keyboard.type('{"mood": "bright"');
          await page
            .getByRole('button', { name: 'Click to add an asset or drag and drop one in this area' })
            .first()
            .click();
          const library = page.getByRole('dialog');
          await library.getByRole('checkbox').first().click();
          await library.getByRole('button', { name: 'Finish' }).click();
          await submit('Save');
          await submit('Publish');
        });
        const [article] = (
          await api<{ data: Record<string, unknown>[] }>(
            '/api/articles?filters[title][$eq]=Every%20kind%20of%20field&populate[cover][fields][0]=name',
          )
        ).data;
        expect(article).toMatchObject({
          slug: 'every-kind-of-field',
          views: 42,
          rating: 4.5,
          contactEmail: 'ada@example.com',
          category: 'tech',
          isFeatured: true,
          publishDate: '2025-01-02',
          publishTime: '10:30:00.000',
          body: 'Some **bold** words',
          content: [{ type: 'paragraph', children: [{ type: 'text', text: 'A paragraph in blocks' }] }],
          meta: { mood: 'bright' },
          cover: { name: 'gradient.png' },
        });
      },
      STEP,
    );

    it(
      'searches the list, sees the draft badges and publishes two drafts in bulk',
      async () => {
        for (const title of ['Bulk one', 'Bulk two'])
          await api('/api/articles?status=draft', post({ data: { title } }));
        await step('bulk-publish', async () => {
          await page.goto(
            `${cairn.base}/admin/content-manager/collection-types/api::article.article?page=1&pageSize=10&sort=title:ASC&plugins[i18n][locale]=en`,
          );
          await page.getByRole('button', { name: 'Search' }).click();
          await page.keyboard.type('Bulk');
          await page.keyboard.press('Enter');
          await expect.poll(() => page.getByRole('row').count()).toBe(3);
          const rows = await page.getByRole('row').allInnerTexts();
          expect(rows.slice(1).map((row) => [/Bulk \w+/.exec(row)?.[0], /Draft|Published/.exec(row)?.[0]])).toEqual([
            ['Bulk one', 'Draft'],
            ['Bulk two', 'Draft'],
          ]);
          await page.getByRole('checkbox', { name: /Select all/ }).click();
          await page.getByRole('button', { name: 'Publish', exact: true }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByText('Bulk two').waitFor();
          await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
          const published = page.waitForResponse((response) => response.url().includes('/actions/bulkPublish'));
          await page.getByRole('alertdialog').getByRole('button', { name: 'Publish', exact: true }).click();
          expect(await (await published).json()).toEqual({ count: 2 });
        });
        const listed = await articles('filters[title][$startsWith]=Bulk&sort=title');
        expect(listed.data.map((article) => article.title)).toEqual(['Bulk one', 'Bulk two']);
      },
      STEP,
    );

    it(
      'deletes the article in every locale; the content API no longer has it',
      async () => {
        await step('delete', async () => {
          await page.goto(editView('en'));
          await page.locator('input[name=title]').waitFor();
          await page.getByRole('button', { name: 'More actions' }).first().click();
          await page.getByRole('menuitem', { name: 'Delete entry (all locales)' }).click();
          const deleted = page.waitForResponse((response) => response.request().method() === 'DELETE');
          await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
          expect((await deleted).status()).toBe(200);
          await page.waitForURL(/api::article\.article\?/);
        });
        for (const locale of ['en', 'fr'])
          expect((await articles(`locale=${locale}&status=draft&filters[documentId][$eq]=${documentId}`)).data).toEqual(
            [],
          );
      },
      STEP,
    );

    it(
      'logs out from the user menu and back in',
      () =>
        step('logout-login', async () => {
          await page.goto(`${cairn.base}/admin`);
          await page.getByRole('button', { name: /Ada/ }).first().click();
          const loggedOut = page.waitForResponse((response) => response.url().endsWith('/admin/logout'));
          await page.getByRole('menuitem', { name: 'Log out' }).click();
          expect((await loggedOut).status()).toBe(200);
          await page.waitForURL(/\/admin\/auth\/login/);
          await page.locator('input[name=email]').fill(EMAIL);
          await page.locator('input[name=password]').fill(PASSWORD);
          await page.getByRole('button', { name: 'Login' }).click();
          await page.getByRole('link', { name: 'Content Manager' }).first().waitFor();
        }),
      STEP,
    );

    it('never met a server error', () => {
      expect(panel.serverErrors).toEqual([]);
    });
  });
}

function post(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
