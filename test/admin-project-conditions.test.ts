import { resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ARTICLES,
  AUTHORS,
  expectError,
  inviteAdmin,
  startAdminClient,
  type AdminClient,
  type InvitedAdmin,
} from './support/admin-client.js';
import { fixtureFiles } from './support/project-code.js';
import { startTestServer } from './support/test-server.js';

/*
 * Admin RBAC conditions a project registers in its own code
 * (`strapi.admin.services.permission.conditionProvider`, test/fixtures/projects/admin-conditions)
 * hold as Strapi 5.54 holds them: the Roles screen lists them; a role whose permissions carry one
 * lists (pages and totals), reads, updates, publishes, unpublishes, deletes and acts in bulk on
 * the entries it covers only (403 `Forbidden` on the others); a condition answering false leaves
 * the permission out (403 `Policy Failed`), one answering true covers every entry. Through HTTP
 * with the admins' own JWTs, on every database. Preview (config/admin `preview`) is served by the
 * same server: its URL route and the CSP's frame-src.
 */
const FIXTURE = fixtureFiles(resolve(import.meta.dirname, 'fixtures/projects/admin-conditions'));
const ONLY_FIXTURE = 'filters[$and][9][summary][$eq]=cond';
const ARTICLE = 'api::article.article';
const EXPLORER = 'plugin::content-manager.explorer';
const VERBS = ['create', 'read', 'update', 'delete', 'publish'] as const;
const PREVIEW = '/content-manager/preview/url';

type Titled = { title: string };

for (const database of inject('databases')) {
  describe(`[${database}] admin conditions from the project's code`, () => {
    let client: AdminClient;
    /** Featured entries only, every verb. */
    let fred: InvitedAdmin;
    /** Read, under a condition answering false. */
    let nina: InvitedAdmin;
    /** Read, entries whose author has their email. */
    let fay: InvitedAdmin;
    /** Read, under a condition answering true. */
    let alf: InvitedAdmin;
    const doc: Record<string, string> = {};

    const role = async (name: string, conditions: string[], verbs: readonly string[] = VERBS) => {
      const created = await client.call('POST', '/admin/roles', { name, description: name });
      expect(created.status, created.text).toBe(201);
      const locales = { locales: ['en', 'fr'] };
      const granted = await client.call('PUT', `/admin/roles/${created.json.data.id}/permissions`, {
        permissions: verbs.map((verb) => ({
          action: `${EXPLORER}.${verb}`,
          subject: ARTICLE,
          properties: locales,
          conditions,
        })),
      });
      expect(granted.status, granted.text).toBe(200);
      return created.json.data.id as number;
    };
    const invite = async (firstname: string, roleId: number) =>
      inviteAdmin(client, { firstname, lastname: 'Tester', email: `${firstname.toLowerCase()}@example.com` }, roleId);
    const titles = (response: { json: { results: Titled[] } }) => response.json.results.map((entry) => entry.title);
    const read = async (title: string) => (await client.call('GET', `${ARTICLES}/${doc[title]}`)).json.data;

    beforeAll(async () => {
      client = await startAdminClient(database, { files: FIXTURE });
      const fayAuthor = await client.call('POST', AUTHORS, { name: 'Fay', email: 'fay@example.com' });
      expect(fayAuthor.status, fayAuthor.text).toBe(201);
      const entries: [string, Record<string, unknown>][] = [
        ['Featured 1', { isFeatured: true, views: 1 }],
        ['Featured 2', { isFeatured: true, views: 9 }],
        ['Featured 3', { isFeatured: true }],
        ['Featured 4', { isFeatured: true }],
        ['Plain 1', { isFeatured: false, views: 7 }],
        ['Plain 2', { isFeatured: false, author: { connect: [{ documentId: fayAuthor.json.data.documentId }] } }],
        ['Plain 3', { isFeatured: false }],
      ];
      for (const [title, fields] of entries) {
        const created = await client.call('POST', ARTICLES, { title, summary: 'cond', ...fields });
        expect(created.status, created.text).toBe(201);
        doc[title] = created.json.data.documentId;
      }
      for (const title of ['Featured 4', 'Plain 3']) {
        const published = await client.call('POST', `${ARTICLES}/${doc[title]}/actions/publish`, {});
        expect(published.status, published.text).toBe(200);
      }
      fred = await invite('Fred', await role('Featured editors', ['api::featured-only']));
      nina = await invite('Nina', await role('Nobody', ['api::never'], ['read']));
      fay = await invite('Fay', await role('Own authors', ['api::author-is-me'], ['read']));
      alf = await invite('Alf', await role('Everyone', ['plugin::content-manager.always'], ['read']));
    }, 240_000);
    afterAll(() => client?.server.close());

    it("lists the project's conditions with Strapi's in the Roles screen, in Strapi's order", async () => {
      const catalog = await fred.call('GET', '/admin/permissions');
      expect(catalog.status, catalog.text).toBe(200);
      expect(catalog.json.data.conditions).toEqual([
        { id: 'api::popular', displayName: 'Read at least five times', category: 'default' },
        { id: 'admin::is-creator', displayName: 'Is creator', category: 'default' },
        { id: 'admin::has-same-role-as-creator', displayName: 'Has same role as creator', category: 'default' },
        { id: 'api::featured-only', displayName: 'Featured entries only', category: 'Editorial' },
        { id: 'api::author-is-me', displayName: 'Written as me', category: 'Editorial' },
        { id: 'plugin::content-manager.always', displayName: 'Always', category: 'default' },
        { id: 'api::never', displayName: 'Never', category: 'default' },
      ]);
    });

    it('stores a registered condition on a permission and drops one nobody registered', async () => {
      const created = await client.call('POST', '/admin/roles', { name: 'Mixed', description: 'x' });
      const id = created.json.data.id;
      const put = await client.call('PUT', `/admin/roles/${id}/permissions`, {
        permissions: [
          {
            action: `${EXPLORER}.read`,
            subject: ARTICLE,
            properties: {},
            conditions: ['api::missing', 'api::popular'],
          },
        ],
      });
      expect(put.status, put.text).toBe(200);
      const stored = await client.call('GET', `/admin/roles/${id}/permissions`);
      expect(stored.json.data.map((p: { conditions: string[] }) => p.conditions)).toEqual([['api::popular']]);
    });

    it('lists only the covered entries, the pages and their total counted on them alone', async () => {
      const page = async (n: number) => {
        const response = await fred.call('GET', `${ARTICLES}?${ONLY_FIXTURE}&sort=title:ASC&page=${n}&pageSize=3`);
        expect(response.status, response.text).toBe(200);
        return response;
      };
      const first = await page(1);
      expect(titles(first)).toEqual(['Featured 1', 'Featured 2', 'Featured 3']);
      expect(first.json.pagination).toEqual({ page: 1, pageSize: 3, pageCount: 2, total: 4 });
      expect(titles(await page(2))).toEqual(['Featured 4']);
      // A filter of the admin's own narrows within what the condition covers.
      const popular = await fred.call('GET', `${ARTICLES}?${ONLY_FIXTURE}&filters[$and][0][views][$gt]=5`);
      expect(titles(popular)).toEqual(['Featured 2']);
      expect((await client.call('GET', `${ARTICLES}?${ONLY_FIXTURE}`)).json.pagination.total).toBe(7);
    });

    it("keeps to the condition when a project's read hook replaces the list's where", async () => {
      // The fixture's beforeFindMany/beforeCount turn a `widen-me` title filter into every entry.
      const widened = await client.call('GET', `${ARTICLES}?filters[title][$eq]=widen-me&sort=title:ASC`);
      expect(widened.json.pagination.total).toBe(7);
      const limited = await fred.call('GET', `${ARTICLES}?filters[title][$eq]=widen-me&sort=title:ASC`);
      expect(limited.status, limited.text).toBe(200);
      expect(titles(limited)).toEqual(['Featured 1', 'Featured 2', 'Featured 3', 'Featured 4']);
      expect(limited.json.pagination.total).toBe(4);
    });

    it('reads, updates, publishes and unpublishes a covered entry, and refuses an uncovered one', async () => {
      const covered = `${ARTICLES}/${doc['Featured 1']}`;
      const other = `${ARTICLES}/${doc['Plain 1']}`;
      expect((await fred.call('GET', covered)).json.data.title).toBe('Featured 1');
      expectError(await fred.call('GET', other), 403, 'ForbiddenError', 'Forbidden');
      expectError(await fred.call('GET', `${other}/actions/countDraftRelations`), 403, 'ForbiddenError');

      const updated = await fred.call('PUT', covered, { title: 'Featured 1 edited' });
      expect(updated.status, updated.text).toBe(200);
      expect((await read('Featured 1')).title).toBe('Featured 1 edited');
      expectError(await fred.call('PUT', other, { title: 'Taken' }), 403, 'ForbiddenError', 'Forbidden');
      expect((await read('Plain 1')).title).toBe('Plain 1');

      expect((await fred.call('POST', `${covered}/actions/publish`, {})).status).toBe(200);
      expect((await read('Featured 1')).status).toBe('published');
      expectError(await fred.call('POST', `${other}/actions/publish`, {}), 403, 'ForbiddenError');
      expect((await read('Plain 1')).status).toBe('draft');

      expect((await fred.call('POST', `${covered}/actions/unpublish`, {})).status).toBe(200);
      const published = `${ARTICLES}/${doc['Plain 3']}/actions`;
      expectError(await fred.call('POST', `${published}/unpublish`, {}), 403, 'ForbiddenError');
      expectError(await fred.call('POST', `${published}/discard`, {}), 403, 'ForbiddenError');
      expect((await read('Plain 3')).status).toBe('published');
    });

    it('creates an entry the condition does not cover (Strapi checks a create against the type), then cannot read it', async () => {
      const created = await fred.call('POST', ARTICLES, { title: 'Fred plain', summary: 'made', isFeatured: false });
      expect(created.status, created.text).toBe(201);
      expectError(await fred.call('GET', `${ARTICLES}/${created.json.data.documentId}`), 403, 'ForbiddenError');
    });

    it('acts in bulk on covered entries only: a bulk action reaching another is refused whole', async () => {
      const bulk = `${ARTICLES}/actions`;
      const mixed = { documentIds: [doc['Featured 2'], doc['Plain 1']] };
      expectError(await fred.call('POST', `${bulk}/bulkPublish`, mixed), 403, 'ForbiddenError');
      expect((await read('Featured 2')).status).toBe('draft');
      const publishedTwo = await fred.call('POST', `${bulk}/bulkPublish`, { documentIds: [doc['Featured 2']] });
      expect(publishedTwo.json).toEqual({ count: 1 });
      const unpublishMixed = { documentIds: [doc['Featured 4'], doc['Plain 3']] };
      expectError(await fred.call('POST', `${bulk}/bulkUnpublish`, unpublishMixed), 403, 'ForbiddenError');
      expect((await read('Featured 4')).status).toBe('published');
      const unpublished = await fred.call('POST', `${bulk}/bulkUnpublish`, { documentIds: [doc['Featured 4']] });
      expect(unpublished.json).toEqual({ count: 1 });
      const found = await fred.call('POST', `${bulk}/bulkFindForValidation`, mixed);
      expect(found.json.results.map((entry: Titled) => entry.title)).toEqual(['Featured 2']);

      const deleteMixed = { documentIds: [doc['Featured 3'], doc['Plain 2']] };
      expectError(await fred.call('POST', `${bulk}/bulkDelete`, deleteMixed), 403, 'ForbiddenError');
      expect((await read('Featured 3')).title).toBe('Featured 3');
      const removed = await fred.call('POST', `${bulk}/bulkDelete`, { documentIds: [doc['Featured 3']] });
      expect(removed.json).toEqual({ count: 1 });
      expect((await client.call('GET', `${ARTICLES}/${doc['Featured 3']}`)).status).toBe(404);
    });

    it('deletes a covered entry and refuses an uncovered one', async () => {
      expectError(await fred.call('DELETE', `${ARTICLES}/${doc['Plain 3']}`), 403, 'ForbiddenError', 'Forbidden');
      expect((await read('Plain 3')).title).toBe('Plain 3');
      expect((await fred.call('DELETE', `${ARTICLES}/${doc['Featured 4']}`)).status).toBe(200);
      expect((await client.call('GET', `${ARTICLES}/${doc['Featured 4']}`)).status).toBe(404);
    });

    it("covers entries through a relation, with the admin's own values", async () => {
      const listed = await fay.call('GET', `${ARTICLES}?${ONLY_FIXTURE}`);
      expect(listed.status, listed.text).toBe(200);
      expect(titles(listed)).toEqual(['Plain 2']);
      expect(listed.json.pagination.total).toBe(1);
      expect((await fay.call('GET', `${ARTICLES}/${doc['Plain 2']}`)).status).toBe(200);
      expectError(await fay.call('GET', `${ARTICLES}/${doc['Plain 1']}`), 403, 'ForbiddenError');
    });

    it('leaves out a permission whose condition answers false, and covers everything under one answering true', async () => {
      expectError(await nina.call('GET', `${ARTICLES}?${ONLY_FIXTURE}`), 403, 'PolicyError', 'Policy Failed');
      expectError(await nina.call('GET', `${ARTICLES}/${doc['Plain 1']}`), 403, 'PolicyError', 'Policy Failed');
      const all = await alf.call('GET', `${ARTICLES}?${ONLY_FIXTURE}`);
      expect(all.status, all.text).toBe(200);
      expect(all.json.pagination.total).toBe(
        (await client.call('GET', `${ARTICLES}?${ONLY_FIXTURE}`)).json.pagination.total,
      );
      expect((await alf.call('GET', `${ARTICLES}/${doc['Plain 1']}`)).status).toBe(200);
    });

    describe('preview', () => {
      const frontEnd = (kind: string, documentId: string, query: string) =>
        `http://localhost:4321/preview/${kind}/${documentId}?${query}`;

      it("answers the handler's URL for a document, status defaulting as Strapi's", async () => {
        const url = await fred.call('GET', `${PREVIEW}/${ARTICLE}?documentId=abc&locale=fr&status=published`);
        expect(url.status, url.text).toBe(200);
        expect(url.json).toEqual({ data: { url: frontEnd('article', 'abc', 'locale=fr&status=published&title=') } });
        // The handler reads the document through the global `strapi`, as Strapi's documentation does.
        const plain = await fred.call('GET', `${PREVIEW}/${ARTICLE}?documentId=${doc['Plain 1']}&locale=en`);
        expect(plain.json.data.url).toBe(
          frontEnd('article', doc['Plain 1'] as string, 'locale=en&status=draft&title=Plain+1'),
        );
        // Without draft & publish, a document is published.
        const author = await fred.call('GET', `${PREVIEW}/api::author.author?documentId=xyz&locale=en`);
        expect(author.json.data.url).toBe(frontEnd('author', 'xyz', 'locale=en&status=published&title='));
      });

      it("finds a single type's document itself (404 when it has none)", async () => {
        expectError(
          await fred.call('GET', `${PREVIEW}/api::global.global`),
          404,
          'NotFoundError',
          'Document not found',
        );
        const saved = await client.call('PUT', '/content-manager/single-types/api::global.global', {
          siteName: 'Site',
        });
        expect(saved.status, saved.text).toBe(200);
        const url = await fred.call('GET', `${PREVIEW}/api::global.global`);
        expect(url.json.data.url).toBe(
          frontEnd('global', saved.json.data.documentId, 'locale=undefined&status=published&title='),
        );
      });

      it('answers 204 when the handler gives no URL, 400 when it throws, and refuses bad queries as Strapi does', async () => {
        const none = await fred.call('GET', `${PREVIEW}/api::tag.tag?documentId=t1`);
        expect(none.status).toBe(204);
        expect(none.text).toBe('');
        expectError(
          await fred.call('GET', `${PREVIEW}/${ARTICLE}?documentId=broken`),
          400,
          'ApplicationError',
          'Failed to get preview URL',
        );
        expectError(
          await fred.call('GET', `${PREVIEW}/${ARTICLE}`),
          400,
          'ValidationError',
          'documentId is required for Collection Types',
        );
        expectError(
          await fred.call('GET', `${PREVIEW}/api::nope.nope?documentId=a`),
          400,
          'ValidationError',
          'Invalid content type',
        );
        expectError(
          await fred.call('GET', `${PREVIEW}/shared.seo?documentId=a`),
          400,
          'ValidationError',
          'Invalid content type',
        );
        const bad = await fred.call('GET', `${PREVIEW}/${ARTICLE}?documentId[0]=a&status[x]=1`);
        expectError(bad, 400, 'ValidationError', 'Invalid input: expected string, received array');
        expect(bad.json.error.details.errors).toEqual([
          { path: ['documentId'], message: 'Invalid input: expected string, received array', name: 'ValidationError' },
          { path: ['status'], message: 'Invalid input: expected string, received object', name: 'ValidationError' },
        ]);
        expectError(await client.server.request('GET', `${PREVIEW}/${ARTICLE}?documentId=a`), 401, 'UnauthorizedError');
      });

      it("lets the admin panel frame the preview's origins (CSP frame-src)", async () => {
        const page = await client.server.request('GET', '/_health');
        expect(String(page.headers['content-security-policy'])).toMatch(/(^|;)frame-src http:\/\/localhost:4321(;|$)/);
      });
    });
  });
}

/** The fixture with its src/index.js registering `conditions` (JavaScript source of the list) in bootstrap. */
function withConditions(conditions: string): Record<string, string> {
  return {
    ...FIXTURE,
    'src/index.js': [
      "'use strict';",
      'module.exports = {',
      '  async bootstrap({ strapi }) {',
      `    await strapi.admin.services.permission.conditionProvider.registerMany(${conditions});`,
      '  },',
      '};',
      '',
    ].join('\n'),
  };
}

describe('admin conditions Cairn cannot apply', () => {
  it('stops the start naming a condition whose query uses an operator Strapi does not apply, and its file', async () => {
    const files = withConditions(
      "[{ displayName: 'Titled', name: 'titled', handler: () => ({ title: { $regex: '^A' } }) }]",
    );
    await expect(startTestServer({ files })).rejects.toThrow(
      /admin condition api::titled \(registered at src\/index\.js:4:\d+\): its handler answers a query Cairn cannot apply: title: \$regex is not an operator/,
    );
  });

  it('stops the start naming a condition whose handler is not a function (Strapi would skip it)', async () => {
    const files = withConditions("[{ displayName: 'Object', name: 'object', handler: { isFeatured: true } }]");
    await expect(startTestServer({ files })).rejects.toThrow(
      /admin condition api::object: handler must be a function .* \(at src\/index\.js:4:\d+\)/,
    );
  });

  it('stops the start on a preview handler that is not a function, with Strapi’s message', async () => {
    const admin = FIXTURE['config/admin.js']?.replace(
      /handler: async \(uid[\s\S]*?\n      \},\n/,
      "handler: 'https://x',\n",
    );
    expect(admin).toContain("handler: 'https://x'");
    await expect(startTestServer({ files: { ...FIXTURE, 'config/admin.js': admin as string } })).rejects.toThrow(
      'config/admin: Preview configuration is invalid. Handler must be a function',
    );
  });

  it('does not hold a condition whose answer for a real admin cannot be applied, and logs it', async () => {
    const logs: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
    // The start's stand-in admin (id 0) gets a query Cairn applies; every real admin one it cannot.
    const files = withConditions(
      "[{ displayName: 'Tricky', name: 'tricky', handler: (user) => (user.id === 0 ? { isFeatured: true } : { title: { $regex: 'x' } }) }]",
    );
    const client = await startAdminClient('sqlite', { files, logger });
    try {
      const created = await client.call('POST', '/admin/roles', { name: 'Tricky', description: 'x' });
      const permissions = [
        { action: `${EXPLORER}.read`, subject: ARTICLE, properties: {}, conditions: ['api::tricky'] },
      ];
      const put = await client.call('PUT', `/admin/roles/${created.json.data.id}/permissions`, { permissions });
      expect(put.status, put.text).toBe(200);
      const tess = await inviteAdmin(
        client,
        { firstname: 'Tess', lastname: 'T', email: 'tess@example.com' },
        created.json.data.id,
      );
      expectError(await tess.call('GET', ARTICLES), 403, 'PolicyError', 'Policy Failed');
      const logged = logs.map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(logged).toContainEqual(
        expect.objectContaining({
          level: 50,
          msg: expect.stringMatching(
            /^admin condition api::tricky \(registered at src\/index\.js:4:\d+\): its handler answers a query Cairn cannot apply: title: \$regex/,
          ),
        }),
      );
    } finally {
      await client.server.close();
    }
  }, 60_000);
});

describe('preview in a project whose only code is its preview handler', () => {
  it('gives the handler the global strapi, as Strapi does', async () => {
    const client = await startAdminClient('sqlite', {
      files: { 'config/admin.js': FIXTURE['config/admin.js'] as string },
    });
    try {
      const created = await client.call('POST', ARTICLES, { title: 'Solo' });
      expect(created.status, created.text).toBe(201);
      const documentId = created.json.data.documentId as string;
      const url = await client.call('GET', `${PREVIEW}/${ARTICLE}?documentId=${documentId}&locale=en`);
      expect(url.status, url.text).toBe(200);
      expect(url.json.data.url).toBe(
        `http://localhost:4321/preview/article/${documentId}?locale=en&status=draft&title=Solo`,
      );
    } finally {
      await client.server.close();
    }
  }, 60_000);
});
