import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { apiConfigWith, probe } from './support/http-cache.js';
import { uploadFile } from './support/project-shapes/start-project.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { gradientImage } from './support/uploads.js';

/*
 * strapi.db.query(uid), Strapi 5's Query Engine, as project code reaches it: examples/blog with
 * an API folder whose controller hands a request's body to `strapi.db.query(uid)[method](params)`
 * through custom routes, and every check made over HTTP on each database.
 */

const FILES = {
  ...apiConfigWith(`{ store: 'memory' }`),
  'src/api/qe/routes/qe.js': `module.exports = {
  routes: [
    { method: 'POST', path: '/qe/:method', handler: 'qe.run' },
    { method: 'GET', path: '/qe-db/:member', handler: 'qe.member' },
    { method: 'GET', path: '/qe-recent-tags', handler: 'qe.recentTags' },
  ],
};`,
  'src/api/author/content-types/author/lifecycles.js': `'use strict';
const { errors } = require('@strapi/utils');
module.exports = {
  beforeCreate(event) {
    if (event.params.data.bio === undefined) event.params.data.bio = 'set by beforeCreate';
  },
  async beforeUpdate(event) {
    if (event.params.data.name !== 'Forbidden') return;
    // Written inside the update's transaction, then rolled back with it: never in force.
    const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    await strapi.db
      .query('plugin::users-permissions.permission')
      .create({ data: { action: 'api::secret.secret.find', role: role.id } });
    throw new errors.ApplicationError('authors are never named Forbidden');
  },
  async afterDelete(event) {
    await strapi.db.query('api::tag.tag').create({ data: { name: 'deleted ' + event.result.name } });
  },
};`,
  'src/api/qe/controllers/qe.js': `'use strict';
module.exports = ({ strapi }) => ({
  async run(ctx) {
    const { uid, params } = ctx.request.body;
    ctx.body = { result: await strapi.db.query(uid)[ctx.params.method](params) };
  },
  async recentTags(ctx) {
    const hourAgo = new Date(Date.now() - 3600 * 1000);
    ctx.body = {
      recent: await strapi.db.query('api::tag.tag').count({ where: { createdAt: { $gte: hourAgo } } }),
      future: await strapi.query('api::tag.tag').count({ where: { createdAt: { $gt: new Date(Date.now() + 3600 * 1000) } } }),
    };
  },
  async member(ctx) {
    ctx.body = { value: typeof strapi.db[ctx.params.member] };
  },
});`,
};

const TAG = 'api::tag.tag';
const AUTHOR = 'api::author.author';
const ARTICLE = 'api::article.article';

for (const database of inject('databases')) {
  describe(`strapi.db.query() on ${database}`, () => {
    let server: TestServer;
    const qe = async (uid: string, method: string, params?: unknown, status = 200): Promise<any> => {
      const response = await server.request('POST', `/api/qe/${method}`, { auth: 'full', body: { uid, params } });
      expect(response.status, `${uid} ${method}: ${response.text}`).toBe(status);
      return status === 200 ? response.json.result : response.json;
    };
    const names = (rows: { name?: string; title?: string }[]) => rows.map((row) => row.name ?? row.title);
    let tags: Record<string, number> = {};
    let authorId = 0;

    beforeAll(async () => {
      server = await startTestServer({ database, files: FILES });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('creates rows with a fresh documentId and timestamps, one by one and many at once', async () => {
      const alpha = await qe(TAG, 'create', { data: { name: 'alpha' } });
      expect(alpha).toMatchObject({ id: expect.any(Number), name: 'alpha', locale: null });
      // Strapi 5's publishedAt defaults to now on every content type: a row created without it is published.
      expect(alpha.publishedAt).toBe(alpha.createdAt);
      expect(alpha.documentId).toMatch(/^[a-z0-9]{24}$/);
      expect(Date.parse(alpha.createdAt)).not.toBeNaN();
      expect(alpha.updatedAt).toBe(alpha.createdAt);
      const many = await qe(TAG, 'createMany', { data: [{ name: 'beta' }, { name: 'gamma' }, { name: 'delta' }] });
      expect(many.count).toBe(3);
      expect(many.ids).toHaveLength(3);
      const rows = await qe(TAG, 'findMany', { select: ['id', 'name', 'documentId'], orderBy: 'id' });
      expect(names(rows)).toEqual(['alpha', 'beta', 'gamma', 'delta']);
      expect(new Set(rows.map((row: { documentId: string }) => row.documentId)).size).toBe(4);
      tags = Object.fromEntries(rows.map((row: { name: string; id: number }) => [row.name, row.id]));
      const author = await qe(AUTHOR, 'create', {
        data: { name: 'Ada', email: 'ada@example.com' },
        select: ['id', 'name'],
      });
      expect(author).toEqual({ id: expect.any(Number), name: 'Ada' });
      authorId = author.id;
    });

    it('writes relations by row id and populates them, with select and orderBy on the related rows', async () => {
      const created = await qe(ARTICLE, 'create', {
        data: {
          title: 'First',
          views: 10,
          locale: 'en',
          publishedAt: null,
          author: authorId,
          tags: [tags.beta, tags.alpha],
        },
        populate: ['tags', 'author'],
      });
      expect(created.views).toBe(10);
      expect(created.isFeatured).toBe(false); // the attribute's default
      expect(created.publishedAt).toBeNull(); // given as null: a draft row
      expect(names(created.tags)).toEqual(['beta', 'alpha']); // link order
      expect(created.author).toMatchObject({ id: authorId, name: 'Ada' });
      await qe(ARTICLE, 'create', {
        data: {
          title: 'Second',
          views: 3,
          locale: 'en',
          publishedAt: new Date().toISOString(),
          tags: { connect: [tags.gamma] },
        },
      });
      await qe(ARTICLE, 'create', { data: { title: 'third draft', views: 7, locale: 'fr', publishedAt: null } });
      const rows = await qe(ARTICLE, 'findMany', {
        select: ['title'],
        orderBy: { views: 'desc' },
        populate: { tags: { select: ['name'], orderBy: { name: 'asc' } }, author: true },
      });
      expect(rows).toEqual([
        {
          id: expect.any(Number),
          title: 'First',
          tags: [{ name: 'alpha' }, { name: 'beta' }],
          author: expect.objectContaining({ name: 'Ada' }),
        },
        { id: expect.any(Number), title: 'third draft', tags: [], author: null },
        { id: expect.any(Number), title: 'Second', tags: [{ name: 'gamma' }], author: null },
      ]);
      const counted = await qe(ARTICLE, 'findOne', {
        where: { title: 'First' },
        select: ['title'],
        populate: { tags: { count: true } },
      });
      expect(counted.tags).toEqual({ count: 2 });
      const everything = await qe(AUTHOR, 'findOne', { where: { id: authorId }, populate: true });
      expect(names(everything.articles)).toEqual(['First']);
      const inverse = await qe(TAG, 'findOne', { where: { name: 'alpha' }, populate: '*' });
      expect(names(inverse.articles)).toEqual(['First']);

      const changed = await qe(ARTICLE, 'update', {
        where: { title: 'First' },
        data: { tags: { connect: [tags.delta], disconnect: [tags.beta] }, author: null },
        populate: { tags: { select: ['name'] }, author: true },
      });
      expect(changed.tags).toEqual([{ name: 'alpha' }, { name: 'delta' }]);
      expect(changed.author).toBeNull();
      const set = await qe(ARTICLE, 'update', {
        where: { title: 'First' },
        data: { tags: { set: [tags.gamma] } },
        select: ['title'],
        populate: { tags: { select: ['name'] } },
      });
      expect(set.tags).toEqual([{ name: 'gamma' }]);
      const missing = await qe(ARTICLE, 'update', { where: { title: 'First' }, data: { tags: [999999] } }, 400);
      expect(missing.error.message).toContain('999999');
    });

    it('filters with every operator, logical groups and nested relations', async () => {
      const tagNames = async (where: unknown) => names(await qe(TAG, 'findMany', { where, orderBy: 'name' }));
      expect(await tagNames({ name: { $in: ['alpha', 'delta'] } })).toEqual(['alpha', 'delta']);
      expect(await tagNames({ name: { $notIn: ['alpha', 'delta'] } })).toEqual(['beta', 'gamma']);
      expect(await tagNames({ name: { $eq: 'beta' } })).toEqual(['beta']);
      expect(await tagNames({ name: { $ne: 'beta' } })).toEqual(['alpha', 'delta', 'gamma']);
      expect(await tagNames({ name: { $contains: 'lt' } })).toEqual(['delta']);
      expect(await tagNames({ name: { $notContains: 'a' } })).toEqual([]);
      expect(await tagNames({ name: { $containsi: 'GAM' } })).toEqual(['gamma']);
      expect(await tagNames({ name: { $notContainsi: 'GAM' } })).toEqual(['alpha', 'beta', 'delta']);
      expect(await tagNames({ name: { $startsWith: 'be' } })).toEqual(['beta']);
      expect(await tagNames({ name: { $endsWith: 'ta' } })).toEqual(['beta', 'delta']);
      expect(await tagNames({ $or: [{ name: 'alpha' }, { name: 'beta' }] })).toEqual(['alpha', 'beta']);
      expect(await tagNames({ $and: [{ name: { $startsWith: 'd' } }, { id: tags.delta }] })).toEqual(['delta']);
      expect(await tagNames({ $not: { name: { $in: ['alpha', 'beta', 'delta'] } } })).toEqual(['gamma']);
      expect(await tagNames({ id: { $gt: tags.beta, $lte: tags.delta } })).toEqual(['delta', 'gamma']);
      expect(await tagNames({ id: { $between: [tags.alpha, tags.beta] } })).toEqual(['alpha', 'beta']);
      expect(await tagNames({ id: { $lt: tags.beta }, name: { $notNull: true } })).toEqual(['alpha']);
      expect(await tagNames({ articles: { title: 'Second' } })).toEqual(['gamma']);

      const titles = async (where: unknown) => names(await qe(ARTICLE, 'findMany', { where, orderBy: 'title' }));
      expect(await titles({ publishedAt: { $null: true } })).toEqual(['First', 'third draft']);
      expect(await titles({ publishedAt: { $notNull: true } })).toEqual(['Second']);
      expect(await titles({ locale: 'fr' })).toEqual(['third draft']);
      expect(await titles({ tags: tags.gamma })).toEqual(['First', 'Second']);
      expect(await titles({ tags: { name: { $in: ['gamma'] } }, views: { $gte: 5 } })).toEqual(['First']);
    });

    it('compares datetimes with the Dates project code passes', async () => {
      const response = await server.request('GET', '/api/qe-recent-tags', { auth: 'full' });
      expect(response.json).toEqual({ recent: 4, future: 0 });
    });

    it('reads rows, not documents: a published document is two rows', async () => {
      const created = await server.request('POST', '/api/articles?status=published', {
        auth: 'full',
        body: { data: { title: 'Via REST' } },
      });
      expect(created.status, created.text).toBe(201);
      const documentId = created.json.data.documentId;
      const rows = await qe(ARTICLE, 'findMany', { where: { documentId }, select: ['publishedAt', 'locale'] });
      expect(rows).toHaveLength(2);
      expect(rows.filter((row: { publishedAt: string | null }) => row.publishedAt === null)).toHaveLength(1);
      expect(await qe(ARTICLE, 'deleteMany', { where: { documentId } })).toEqual({ count: 2 });
      const gone = await server.request('GET', `/api/articles/${documentId}`, { auth: 'full' });
      expect(gone.status).toBe(404);
    });

    it('a permission created through the Query Engine applies at once', async () => {
      expect((await server.request('GET', '/api/secrets', { auth: 'public' })).status).toBe(403);
      const role = await qe('plugin::users-permissions.role', 'findOne', { where: { type: 'public' } });
      const permission = await qe('plugin::users-permissions.permission', 'create', {
        data: { action: 'api::secret.secret.find', role: role.id },
        populate: ['role'],
      });
      expect(permission.role).toMatchObject({ id: role.id, type: 'public' });
      expect(
        await qe('plugin::users-permissions.permission', 'count', {
          where: { action: 'api::secret.secret.find', role: role.id },
        }),
      ).toBe(1);
      const open = await server.request('GET', '/api/secrets', { auth: 'public' });
      expect(open.status, open.text).toBe(200);
      await qe('plugin::users-permissions.permission', 'delete', { where: { id: permission.id } });
      expect((await server.request('GET', '/api/secrets', { auth: 'public' })).status).toBe(403);
    });

    it('populates components and dynamic zones, and writes media by file id', async () => {
      const created = await server.request('POST', '/api/articles', {
        auth: 'full',
        body: {
          data: {
            title: 'With parts',
            seo: { metaTitle: 'Parts', keywords: [{ word: 'one' }] },
            blocks: [
              { __component: 'shared.rich-text', body: 'first' },
              { __component: 'shared.quote', title: 'second' },
              { __component: 'shared.rich-text', body: 'third' },
            ],
          },
        },
      });
      expect(created.status, created.text).toBe(201);
      const where = { documentId: created.json.data.documentId };
      const row = await qe(ARTICLE, 'findOne', {
        where,
        select: ['title'],
        populate: { seo: { populate: ['keywords'] }, blocks: true },
      });
      expect(row.seo).toMatchObject({ metaTitle: 'Parts', keywords: [{ word: 'one' }] });
      expect(row.blocks.map((block: { __component: string }) => block.__component)).toEqual([
        'shared.rich-text',
        'shared.quote',
        'shared.rich-text',
      ]);
      expect(row.blocks.map((block: { body?: string; title?: string }) => block.body ?? block.title)).toEqual([
        'first',
        'second',
        'third',
      ]);
      const refused = await qe(ARTICLE, 'update', { where, data: { seo: { metaTitle: 'x' } } }, 501);
      expect(refused.error.message).toContain('seo');

      const fileId = await uploadFile(server, 'cover.png', await gradientImage(8, 8, 'png'), 'image/png');
      const withCover = await qe(ARTICLE, 'update', {
        where,
        data: { cover: fileId, gallery: [fileId] },
        select: ['title'],
        populate: { cover: { select: ['name'] }, gallery: { select: ['name'] } },
      });
      expect(withCover).toMatchObject({ cover: { name: 'cover.png' }, gallery: [{ name: 'cover.png' }] });
      const rest = await server.request('GET', `/api/articles/${where.documentId}?status=draft&populate=cover`, {
        auth: 'full',
      });
      expect(rest.json.data?.cover, rest.text).toMatchObject({ id: fileId });
      expect(await qe(ARTICLE, 'deleteMany', { where })).toEqual({ count: 2 }); // the draft and the published row
    });

    it("fires the project's lifecycles around single-row writes, inside their transaction", async () => {
      const author = await qe(AUTHOR, 'create', { data: { name: 'Grace' }, select: ['name', 'bio'] });
      expect(author).toEqual({ name: 'Grace', bio: 'set by beforeCreate' });
      const refused = await qe(AUTHOR, 'update', { where: { name: 'Grace' }, data: { name: 'Forbidden' } }, 400);
      expect(refused.error.message).toBe('authors are never named Forbidden');
      expect(await qe(AUTHOR, 'count', { where: { name: 'Grace' } })).toBe(1);
      const permission = { action: 'api::secret.secret.find' };
      expect(await qe('plugin::users-permissions.permission', 'count', { where: permission })).toBe(0);
      expect((await server.request('GET', '/api/secrets', { auth: 'public' })).status).toBe(403);
      await qe(AUTHOR, 'delete', { where: { name: 'Grace' } });
      const logged = await qe(TAG, 'findOne', { where: { name: 'deleted Grace' }, select: ['name'] });
      expect(logged).toEqual({ name: 'deleted Grace' });
      await qe(TAG, 'delete', { where: { name: 'deleted Grace' } });
    });

    it('pages, counts, limits and orders in every form', async () => {
      expect(await qe(TAG, 'count')).toBe(4);
      expect(await qe(TAG, 'count', { where: { name: { $startsWith: 'd' } } })).toBe(1);
      const page = await qe(TAG, 'findPage', { page: 2, pageSize: 3, select: ['name'], orderBy: [{ name: 'asc' }] });
      expect(page).toEqual({
        results: [{ name: 'gamma' }],
        pagination: { page: 2, pageSize: 3, pageCount: 2, total: 4 },
      });
      expect(names(await qe(TAG, 'findMany', { orderBy: ['name:desc'], limit: 2, offset: 1 }))).toEqual([
        'delta',
        'beta',
      ]);
      expect(names(await qe(ARTICLE, 'findMany', { orderBy: [{ views: 'asc' }], select: ['title'] }))).toEqual([
        'Second',
        'third draft',
        'First',
      ]);
      const first = await qe(TAG, 'findOne', { where: { name: { $ne: 'alpha' } }, orderBy: { name: 'desc' } });
      expect(first.name).toBe('gamma');
      expect(await qe(TAG, 'findOne', { where: { name: 'nope' } })).toBeNull();
      const limited = await qe(TAG, 'findOne', {
        where: { name: 'gamma' },
        select: ['name'],
        populate: { articles: { select: ['title'], orderBy: { title: 'desc' }, limit: 1, offset: 1 } },
      });
      expect(limited.articles).toEqual([{ title: 'First' }]); // Second, First: the second one
      const byRelation = await qe(ARTICLE, 'findMany', {
        select: ['title'],
        orderBy: [{ tags: { name: 'asc' } }, { title: 'asc' }],
      });
      expect(names(byRelation)).toEqual(['third draft', 'First', 'Second']); // no tag sorts first
    });

    it('updates and deletes one row or many, returning what Strapi returns', async () => {
      const before = await qe(TAG, 'findOne', { where: { name: 'alpha' } });
      const updated = await qe(TAG, 'update', { where: { id: before.id }, data: { name: 'alpha2' } });
      expect(updated).toMatchObject({ id: before.id, documentId: before.documentId, name: 'alpha2' });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
      expect(await qe(TAG, 'update', { where: { name: 'nobody' }, data: { name: 'x' } })).toBeNull();
      expect(await qe(ARTICLE, 'updateMany', { where: { locale: 'en' }, data: { views: 42 } })).toEqual({ count: 2 });
      expect(await qe(ARTICLE, 'count', { where: { views: 42 } })).toBe(2);
      const deleted = await qe(TAG, 'delete', { where: { name: 'alpha2' }, select: ['name'] });
      expect(deleted).toEqual({ id: before.id, name: 'alpha2' });
      expect(await qe(TAG, 'findOne', { where: { id: before.id } })).toBeNull();
      expect(await qe(TAG, 'delete', { where: { name: 'alpha2' } })).toBeNull();
      expect(await qe(ARTICLE, 'deleteMany', { where: { locale: 'fr' } })).toEqual({ count: 1 });
      expect(await qe(ARTICLE, 'count')).toBe(2);
    });

    it('a Query Engine write reaches REST GETs served from the HTTP cache', async () => {
      const path = '/api/tags?sort=name&fields[0]=name';
      const headers = { authorization: `Bearer ${server.tokens.full}` };
      const first = await probe(server.app, path, headers);
      const again = await probe(server.app, path, headers);
      expect(again.cache).toContain('hit');
      expect(again.text).toBe(first.text);
      await qe(TAG, 'update', { where: { name: 'beta' }, data: { name: 'bravo' } });
      const after = await probe(server.app, path, headers);
      expect(after.cache ?? '').not.toContain('hit');
      expect(JSON.parse(after.text).data.map((tag: { name: string }) => tag.name)).toEqual(['bravo', 'delta', 'gamma']);
      const revalidated = await probe(server.app, path, { ...headers, 'if-none-match': first.etag ?? '' });
      expect(revalidated.status).toBe(200);
    });

    it('refuses a bad uid, unknown attributes and the members of strapi.db it does not offer, naming them', async () => {
      expect((await qe('api::nope.nope', 'findMany', {}, 400)).error.message).toContain('api::nope.nope');
      const where = await qe(TAG, 'findMany', { where: { colour: 'red' } }, 400);
      expect(where.error).toMatchObject({ name: 'ValidationError' });
      expect(where.error.message).toContain('colour');
      expect((await qe(TAG, 'findMany', { select: ['colour'] }, 400)).error.message).toContain('colour');
      expect((await qe(TAG, 'findMany', { orderBy: { colour: 'asc' } }, 400)).error.message).toContain('colour');
      expect((await qe(TAG, 'create', { data: { name: 'x', colour: 'red' } }, 400)).error.message).toContain('colour');
      expect((await qe(TAG, 'findMany', { populate: ['colour'] }, 400)).error.message).toContain('colour');
      expect((await qe(ARTICLE, 'create', { data: { title: 'x', views: 'many' } }, 400)).error.message).toContain(
        'views',
      );
      expect(await qe(TAG, 'count', { where: { name: 'x' } })).toBe(0);
      const refused = await server.request('GET', '/api/qe-db/metadata', { auth: 'full' });
      expect(refused.status).toBe(501);
      expect(refused.json.error.message).toContain('strapi.db.metadata');
      const offered = await server.request('GET', '/api/qe-db/query', { auth: 'full' });
      expect(offered.json).toEqual({ value: 'function' });
    });
  });
}
