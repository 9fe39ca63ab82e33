import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ARTICLES, AUTHORS, EDITOR_VIEW, startAdminClient, type AdminClient } from './support/admin-client.js';

/*
 * The content manager's document routes for the blog example's articles, as Strapi 5.54's admin
 * calls them: create and read shaped for the edit view, the list view's search, sort, filters,
 * pagination and locale, publishing the whole edit form; and what an editor saves is exactly what
 * the content API (`/api/articles`) returns, and the other way round, on every database.
 */

/** Every scalar attribute of an article, as an editor fills the form. */
const EVERY_FIELD = {
  title: 'Every field',
  slug: 'every-field',
  summary: 'A summary',
  body: '# Heading\n\nSome *markdown*.',
  content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Blocks text' }] }],
  views: 42,
  rating: 4.5,
  price: 19.99,
  bigcount: '9007199254740993',
  isFeatured: true,
  publishDate: '2024-02-29',
  publishTime: '13:45:30.000',
  eventAt: '2024-03-01T10:00:00.000Z',
  meta: { nested: { list: [1, 'two', null] }, flag: false },
  category: 'tech',
  contactEmail: 'writer@example.com',
};

/** Articles of the list view's table: title, views, locale, published or not. */
const LIST_FIXTURE: [string, number, 'en' | 'fr', boolean][] = [
  ['Apple', 3, 'en', false],
  ['Blueberry', 10, 'en', false],
  ['Cherry', 7, 'en', true],
  ['Strawberry', 1, 'en', false],
  ['Pomme', 5, 'fr', false],
];
const ONLY_FIXTURE = 'filters[$and][0][summary][$eq]=list-fixture';

/** List queries (beside the fixture's filter) and the titles they answer, in order, with the total. */
const LIST_CASES: { query: string; titles: string[]; pagination?: Record<string, number> }[] = [
  { query: 'sort=title:ASC', titles: ['Apple', 'Blueberry', 'Cherry', 'Strawberry'] },
  { query: 'sort=title:DESC&locale=en', titles: ['Strawberry', 'Cherry', 'Blueberry', 'Apple'] },
  { query: 'sort=views:DESC', titles: ['Blueberry', 'Cherry', 'Apple', 'Strawberry'] },
  { query: '_q=berry&sort=title:ASC', titles: ['Blueberry', 'Strawberry'] },
  { query: '_q=BERRY&sort=title:ASC', titles: ['Blueberry', 'Strawberry'] },
  { query: '_q=nothing-matches', titles: [] },
  { query: 'filters[$and][1][views][$gte]=7&sort=views:ASC', titles: ['Cherry', 'Blueberry'] },
  { query: 'filters[$and][1][title][$startsWith]=C', titles: ['Cherry'] },
  {
    query: 'filters[$and][1][$or][0][views][$lt]=2&filters[$and][1][$or][1][title][$eq]=Apple&sort=views:ASC',
    titles: ['Strawberry', 'Apple'],
  },
  {
    query: 'page=2&pageSize=3&sort=title:ASC',
    titles: ['Strawberry'],
    pagination: { page: 2, pageSize: 3, pageCount: 2, total: 4 },
  },
  {
    query: 'page=1&pageSize=2&sort=title:ASC',
    titles: ['Apple', 'Blueberry'],
    pagination: { page: 1, pageSize: 2, pageCount: 2, total: 4 },
  },
  { query: 'locale=fr', titles: ['Pomme'] },
  { query: 'locale=de', titles: [], pagination: { page: 1, pageSize: 10, pageCount: 0, total: 0 } },
  { query: 'status=published', titles: ['Cherry'] },
];

for (const database of inject('databases')) {
  describe(`[${database}] the content manager's article routes`, () => {
    let client: AdminClient;
    let author: { documentId: string; id: number };
    const call = (method: string, path: string, body?: unknown) => client.call(method, path, body);

    beforeAll(async () => {
      client = await startAdminClient(database);
      const created = await call('POST', AUTHORS, { name: 'Ada Writer' });
      expect(created.status).toBe(201);
      author = created.json.data;
    });
    afterAll(() => client?.server.close());

    it('creates a draft as the signed-in admin and reads it back for the edit view', async () => {
      expect((await call('GET', `${AUTHORS}/${author.documentId}`)).json.data).toMatchObject({
        name: 'Ada Writer',
        locale: null,
        articles: { count: 0 },
        createdBy: EDITOR_VIEW,
        updatedBy: EDITOR_VIEW,
      });
      const created = await call('POST', ARTICLES, {
        title: 'Created in the admin',
        views: 4,
        author: { connect: [{ id: author.id, documentId: author.documentId, isTemporary: true }] },
        seo: { metaTitle: 'SEO title', keywords: [{ word: 'alpha', __temp_key__: 'a0' }] },
        blocks: [{ __component: 'shared.quote', title: 'Quoted', __temp_key__: 'a0' }],
      });
      expect(created.status).toBe(201);
      expect(created.json.data).toMatchObject({
        title: 'Created in the admin',
        views: 4,
        isFeatured: false,
        status: 'draft',
        publishedAt: null,
        locale: 'en',
        localizations: [],
        author: { count: 1 },
        tags: { count: 0 },
        editor: { count: 0 },
        cover: null,
        gallery: [],
        seo: { metaTitle: 'SEO title', metaDescription: null, shareImage: null, keywords: [{ word: 'alpha' }] },
        blocks: [{ __component: 'shared.quote', title: 'Quoted', body: null, author: { count: 0 } }],
        createdBy: EDITOR_VIEW,
        updatedBy: EDITOR_VIEW,
      });
      expect(JSON.stringify(created.json)).not.toContain('__temp_key__');
      expect(created.json.meta).toEqual({ availableLocales: [], availableStatus: [] });
      const { documentId } = created.json.data;
      expect((await call('GET', `${ARTICLES}/${documentId}`)).json).toEqual(created.json);
      const [row] = await client.rows(
        `select created_by_id as c, updated_by_id as u from articles where document_id = '${documentId}'`,
      );
      expect([Number(row?.c), Number(row?.u)]).toEqual([client.adminId, client.adminId]);
      expect((await client.api('GET', `/api/articles/${documentId}?status=draft`)).json.data).toMatchObject({
        title: 'Created in the admin',
        views: 4,
      });
    });

    it('lists articles with search, sort, filters, pagination and the locale picker', async () => {
      for (const [title, views, locale, published] of LIST_FIXTURE) {
        const created = await call('POST', `${ARTICLES}?locale=${locale}`, { title, views, summary: 'list-fixture' });
        expect(created.status, title).toBe(201);
        if (published) {
          const path = `${ARTICLES}/${created.json.data.documentId}/actions/publish?locale=${locale}`;
          expect((await call('POST', path, {})).status, title).toBe(200);
        }
      }
      for (const { query, titles, pagination } of LIST_CASES) {
        const response = await call('GET', `${ARTICLES}?${ONLY_FIXTURE}&${query}`);
        expect(response.status, query).toBe(200);
        expect(
          response.json.results.map((article: { title: string }) => article.title),
          query,
        ).toEqual(titles);
        expect(response.json.pagination, query).toEqual(
          pagination ?? { page: 1, pageSize: 10, pageCount: titles.length > 0 ? 1 : 0, total: titles.length },
        );
      }
      const listed = (await call('GET', `${ARTICLES}?${ONLY_FIXTURE}&sort=title:ASC`)).json.results;
      expect(listed.map((article: { status: string }) => article.status)).toEqual([
        'draft',
        'draft',
        'published',
        'draft',
      ]);
      expect(listed[0]).toMatchObject({ author: null, editor: null, tags: { count: 0 }, createdBy: EDITOR_VIEW });
    });

    it('saves every kind of field exactly as the content API then returns it', async () => {
      const created = await call('POST', ARTICLES, { ...EVERY_FIELD, secretCode: 'hunter2-secret' });
      expect(created.status).toBe(201);
      const { documentId } = created.json.data;
      expect(created.json.data).toMatchObject(EVERY_FIELD);
      expect(created.json.data).not.toHaveProperty('secretCode');
      const draft = (await client.api('GET', `/api/articles/${documentId}?status=draft`)).json.data;
      expect(draft).toMatchObject(EVERY_FIELD);
      for (const [key, value] of Object.entries(draft)) expect(created.json.data[key], key).toEqual(value);
      expect((await client.api('GET', `/api/articles/${documentId}`)).status).toBe(404);

      const published = await call('POST', `${ARTICLES}/${documentId}/actions/publish`, {});
      expect(published.json.data).toMatchObject({ ...EVERY_FIELD, status: 'published' });
      const rest = (await client.api('GET', `/api/articles/${documentId}`)).json.data;
      const admin = (await call('GET', `${ARTICLES}/${documentId}?status=published`)).json.data;
      expect(rest.publishedAt).toEqual(expect.any(String));
      for (const [key, value] of Object.entries(rest)) expect(admin[key], key).toEqual(value);
      const secret = await client.rows(`select secret_code as s from articles where document_id = '${documentId}'`);
      // Stored hashed (as Strapi does), the published copy with the draft's hash, shown nowhere.
      expect(secret.map((row) => row.s)).toEqual([expect.stringMatching(/^\$2[ab]\$10\$/), secret[0]?.s]);
    });

    it('shows what the content API saved, and keeps it apart from the admin’s later draft', async () => {
      const posted = await client.api('POST', '/api/articles', {
        data: { ...EVERY_FIELD, title: 'Written through /api', author: author.documentId },
      });
      expect(posted.status).toBe(201);
      const { documentId } = posted.json.data;
      const inAdmin = await call('GET', `${ARTICLES}/${documentId}`);
      expect(inAdmin.json.data).toMatchObject({
        ...EVERY_FIELD,
        title: 'Written through /api',
        author: { count: 1 },
        status: 'published',
        createdBy: null,
        updatedBy: null,
      });
      for (const [key, value] of Object.entries(posted.json.data)) {
        if (key !== 'publishedAt' && key !== 'id') expect(inAdmin.json.data[key], key).toEqual(value);
      }
      expect(inAdmin.json.meta.availableStatus).toEqual([
        expect.objectContaining({ documentId, locale: 'en', publishedAt: expect.any(String) }),
      ]);

      const edited = await call('PUT', `${ARTICLES}/${documentId}`, { title: 'Edited in the admin', views: 43 });
      expect(edited.json.data).toMatchObject({ title: 'Edited in the admin', views: 43, status: 'modified' });
      expect(edited.json.data.updatedBy).toEqual(EDITOR_VIEW);
      expect((await client.api('GET', `/api/articles/${documentId}`)).json.data).toMatchObject({
        title: 'Written through /api',
        views: 42,
      });
      expect((await client.api('GET', `/api/articles/${documentId}?status=draft`)).json.data).toMatchObject({
        title: 'Edited in the admin',
        views: 43,
        price: EVERY_FIELD.price,
      });
      const updated = await client.api('PUT', `/api/articles/${documentId}?status=draft`, { data: { views: 44 } });
      expect(updated.status).toBe(200);
      expect((await call('GET', `${ARTICLES}/${documentId}`)).json.data).toMatchObject({
        title: 'Edited in the admin',
        views: 44,
      });
    });

    it('publishes the whole edit form: component ids kept, __temp_key__ and server-managed keys ignored', async () => {
      const created = await call('POST', `${ARTICLES}?locale=en`, {
        title: 'Editor article',
        summary: 'Typed in the admin',
        author: { connect: [{ id: author.id, documentId: author.documentId, isTemporary: true }] },
        seo: {
          metaTitle: 'Editor SEO',
          keywords: [
            { word: 'alpha', __temp_key__: 'a0' },
            { word: 'beta', __temp_key__: 'a1' },
          ],
        },
        blocks: [{ __component: 'shared.quote', title: 'Editor quote', body: 'Quoted', __temp_key__: 'a0' }],
      });
      const draft = created.json.data;
      const form = {
        ...Object.fromEntries(Object.keys(EVERY_FIELD).map((key) => [key, null])),
        title: 'Editor article',
        summary: 'Typed in the admin',
        isFeatured: false,
        gallery: [],
        cover: null,
        author: { connect: [], disconnect: [] },
        tags: { connect: [], disconnect: [] },
        editor: { connect: [], disconnect: [] },
        seo: {
          id: draft.seo.id,
          metaTitle: 'Editor SEO',
          metaDescription: null,
          shareImage: null,
          keywords: [
            { id: draft.seo.keywords[0].id, word: 'alpha', __temp_key__: 'a0' },
            { id: draft.seo.keywords[1].id, word: 'beta (edited)', __temp_key__: 'a1' },
          ],
        },
        blocks: [{ ...draft.blocks[0], author: { connect: [], disconnect: [] }, __temp_key__: 'a0' }],
        documentId: draft.documentId,
        id: draft.id,
        createdAt: '2000-01-01T00:00:00.000Z',
        updatedAt: '2000-01-01T00:00:00.000Z',
        publishedAt: null,
        createdBy: null,
        updatedBy: null,
        locale: 'en',
        status: 'draft',
        localizations: [],
      };
      const published = await call('POST', `${ARTICLES}/${draft.documentId}/actions/publish?locale=en`, form);
      expect(published.status).toBe(200);
      expect(published.json.data).toMatchObject({ status: 'published', createdBy: EDITOR_VIEW, author: { count: 1 } });
      expect(published.json.data.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
      const after = (await call('GET', `${ARTICLES}/${draft.documentId}`)).json.data;
      expect(after.seo.id).toBe(draft.seo.id);
      expect(after.seo.keywords).toEqual([
        { id: draft.seo.keywords[0].id, word: 'alpha' },
        { id: draft.seo.keywords[1].id, word: 'beta (edited)' },
      ]);
      expect(after.blocks.map((block: { id: number }) => block.id)).toEqual([draft.blocks[0].id]);
      expect(after.status).toBe('published');
      const rest = await client.api(
        'GET',
        `/api/articles/${draft.documentId}?populate[seo][populate][0]=keywords&populate[blocks]=true&populate[author][fields][0]=name`,
      );
      expect(rest.json.data).toMatchObject({
        title: 'Editor article',
        summary: 'Typed in the admin',
        author: { name: 'Ada Writer' },
        seo: { metaTitle: 'Editor SEO', keywords: [{ word: 'alpha' }, { word: 'beta (edited)' }] },
        blocks: [{ __component: 'shared.quote', title: 'Editor quote', body: 'Quoted' }],
      });
    });
  });
}
