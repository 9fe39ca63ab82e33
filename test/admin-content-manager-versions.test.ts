import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ARTICLES,
  EDITOR_VIEW,
  GLOBAL,
  expectError,
  startAdminClient,
  type AdminClient,
} from './support/admin-client.js';

/*
 * Each collection type's documents, draft & publish, locales and single types through the content
 * manager, as Strapi 5.54's admin calls them: the draft / published / modified status, discard, unpublish (and discard), the bulk
 * actions, deleting one locale or all, translations, and single types with and without draft &
 * publish, each checked against what the content API then serves, on every database.
 */
const HOMEPAGE = '/content-manager/single-types/api::homepage.homepage';
/** A single type with draft & publish, which the blog example has not. */
const HOMEPAGE_SCHEMA = {
  kind: 'singleType',
  collectionName: 'homepages',
  info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
  options: { draftAndPublish: true },
  attributes: { headline: { type: 'string', required: true } },
};

/** Each collection type of the blog example: what an editor fills in, then changes. */
const COLLECTION_TYPES = [
  { uid: 'api::author.author', api: 'authors', form: { name: 'Table Author', bio: 'Bio' }, edit: { bio: 'New bio' } },
  { uid: 'api::tag.tag', api: 'tags', form: { name: 'Table tag' }, edit: { name: 'Renamed tag' } },
  { uid: 'api::secret.secret', api: 'secrets', form: { label: 'Table secret' }, edit: { label: 'Renamed' } },
  { uid: 'api::article.article', api: 'articles', form: { title: 'Table article' }, edit: { summary: 'Changed' } },
];

for (const database of inject('databases')) {
  describe(`[${database}] the content manager's types, versions, locales and single types`, () => {
    let client: AdminClient;
    const call = (method: string, path: string, body?: unknown) => client.call(method, path, body);
    const create = async (body: Record<string, unknown>, locale = 'en'): Promise<string> => {
      const response = await call('POST', `${ARTICLES}?locale=${locale}`, body);
      expect(response.status).toBe(201);
      return response.json.data.documentId;
    };
    const action = (documentId: string, name: string, body: unknown = {}) =>
      call('POST', `${ARTICLES}/${documentId}/actions/${name}`, body);
    const published = async (documentId: string, locale = 'en') =>
      client.api('GET', `/api/articles/${documentId}?locale=${locale}`);

    beforeAll(async () => {
      client = await startAdminClient(database, {
        files: { 'src/api/homepage/content-types/homepage/schema.json': JSON.stringify(HOMEPAGE_SCHEMA) },
      });
    });
    afterAll(() => client?.server.close());

    it.each(COLLECTION_TYPES)('creates, edits and deletes $uid as /api/$api then shows it', async (t) => {
      const path = `/content-manager/collection-types/${t.uid}`;
      const draftOnly = t.uid === 'api::article.article' ? '?status=draft' : '';
      const created = await call('POST', path, t.form);
      expect(created.status).toBe(201);
      expect(created.json.data).toMatchObject({ ...t.form, createdBy: EDITOR_VIEW, updatedBy: EDITOR_VIEW });
      const { documentId } = created.json.data;
      const listed = await call('GET', `${path}?filters[$and][0][documentId][$eq]=${documentId}`);
      expect(listed.json.results).toEqual([expect.objectContaining(t.form)]);
      const edited = await call('PUT', `${path}/${documentId}`, t.edit);
      expect(edited.json.data).toMatchObject({ ...t.form, ...t.edit, updatedBy: EDITOR_VIEW });
      const rest = await client.api('GET', `/api/${t.api}/${documentId}${draftOnly}`);
      expect(rest.json.data).toMatchObject({ ...t.form, ...t.edit });
      for (const [key, value] of Object.entries(rest.json.data)) expect(edited.json.data[key], key).toEqual(value);
      expect((await call('DELETE', `${path}/${documentId}`)).json).toEqual({});
      expectError(await call('GET', `${path}/${documentId}`), 404, 'NotFoundError');
      expect((await client.api('GET', `/api/${t.api}/${documentId}${draftOnly}`)).status).toBe(404);
    });

    it('moves a document through draft, published and modified; discard and unpublish restore it', async () => {
      const id = await create({ title: 'Versioned', views: 1 });
      for (const name of ['unpublish', 'discard']) expectError(await action(id, name), 404, 'NotFoundError');
      const missingTitle = await action(await create({ summary: 'no title yet' }), 'publish');
      expectError(
        missingTitle,
        400,
        'ValidationError',
        'title must be a `string` type, but the final value was: `null`.',
      );

      // The form is saved and published together: a form that cannot be published leaves the draft as it was.
      const refused = await action(id, 'publish', { title: null, views: 100 });
      expectError(refused, 400, 'ValidationError', 'title must be a `string` type, but the final value was: `null`.');
      expect((await call('GET', `${ARTICLES}/${id}`)).json.data).toMatchObject({ title: 'Versioned', views: 1 });

      const first = await action(id, 'publish');
      expect(first.json.data).toMatchObject({ views: 1, status: 'published', publishedAt: expect.any(String) });
      expect(first.json.meta.availableStatus).toEqual([expect.objectContaining({ documentId: id, publishedAt: null })]);
      expect((await published(id)).json.data.views).toBe(1);

      const edited = await call('PUT', `${ARTICLES}/${id}`, { views: 2 });
      expect(edited.json.data).toMatchObject({ views: 2, status: 'modified', publishedAt: null });
      expect(edited.json.meta.availableStatus).toEqual([
        expect.objectContaining({ documentId: id, publishedAt: expect.any(String), updatedBy: EDITOR_VIEW }),
      ]);
      const listed = await call('GET', `${ARTICLES}?filters[$and][0][documentId][$eq]=${id}`);
      expect(listed.json.results.map((a: { status: string }) => a.status)).toEqual(['modified']);
      expect((await published(id)).json.data.views).toBe(1);

      const discarded = await action(id, 'discard');
      expect(discarded.json.data).toMatchObject({ views: 1, status: 'published' });
      expect((await call('GET', `${ARTICLES}/${id}`)).json.data).toMatchObject({ views: 1, status: 'published' });

      await call('PUT', `${ARTICLES}/${id}`, { views: 3 });
      const unpublished = await action(id, 'unpublish');
      expect(unpublished.status).toBe(200);
      expect((await published(id)).status).toBe(404);
      const draft = await call('GET', `${ARTICLES}/${id}`);
      expect(draft.json.data).toMatchObject({ views: 3, status: 'draft' });
      expect(draft.json.meta.availableStatus).toEqual([]);

      await action(id, 'publish');
      await call('PUT', `${ARTICLES}/${id}`, { views: 4 });
      const dropped = await action(id, 'unpublish', { discardDraft: true });
      expect(dropped.json.data).toMatchObject({ views: 3, status: 'draft' });
      expect((await published(id)).status).toBe(404);
      expect((await call('GET', `${ARTICLES}/${id}`)).json.data.views).toBe(3);
      expect((await call('GET', `${ARTICLES}/${id}/actions/countDraftRelations`)).json).toEqual({
        data: { draftM2mLinks: 0, unpublishedRelations: 0 },
      });
    });

    it('publishes, unpublishes and deletes in bulk', async () => {
      const [a, b, c] = [
        await create({ title: 'Bulk A' }),
        await create({ title: 'Bulk B' }),
        await create({ title: 'Bulk C' }),
      ];
      const bulk = (name: string, documentIds: unknown) => call('POST', `${ARTICLES}/actions/${name}`, { documentIds });
      // What the bulk publish dialog validates first: the drafts as the edit view holds them, in the list's order.
      const toValidate = await call('POST', `${ARTICLES}/actions/bulkFindForValidation`, {
        documentIds: [b, a],
        locale: 'en',
        sort: 'title:DESC',
      });
      expect(toValidate.status).toBe(200);
      expect(
        toValidate.json.results.map((row: Record<string, unknown>) => [row.title, row.status, row.seo, row.author]),
      ).toEqual([
        ['Bulk B', 'draft', null, { count: 0 }],
        ['Bulk A', 'draft', null, { count: 0 }],
      ]);
      expectError(await bulk('bulkFindForValidation', []), 400, 'ValidationError');
      expect((await bulk('bulkPublish', [a, b])).json).toEqual({ count: 2 });
      const afterPublish = await call('POST', `${ARTICLES}/actions/bulkFindForValidation`, { documentIds: [a] });
      expect(afterPublish.json.results.map((row: Record<string, unknown>) => row.status)).toEqual(['published']);
      const onApi = await client.api('GET', `/api/articles?filters[title][$startsWith]=Bulk&sort=title`);
      expect(onApi.json.data.map((article: { title: string }) => article.title)).toEqual(['Bulk A', 'Bulk B']);
      const many = `${ARTICLES}/actions/countManyEntriesDraftRelations?documentIds[0]=${a}&documentIds[1]=${b}&locale=en`;
      expect((await call('GET', many)).json).toEqual({ data: 0 });

      expect((await bulk('bulkUnpublish', [a])).json).toEqual({ count: 1 });
      expect((await published(a)).status).toBe(404);
      expect((await published(b)).status).toBe(200);

      expect((await bulk('bulkDelete', [a, c])).json).toEqual({ count: 2 });
      for (const id of [a, c]) expectError(await call('GET', `${ARTICLES}/${id}`), 404, 'NotFoundError', 'Not Found');
      expect((await call('GET', `${ARTICLES}/${b}`)).json.data.status).toBe('published');
      expectError(await bulk('bulkDelete', [a]), 404, 'NotFoundError');
      expect((await bulk('bulkUnpublish', [b])).json).toEqual({ count: 1 });
      expect((await published(b)).status).toBe(404);
      expect((await bulk('bulkDelete', [b, a])).json).toEqual({ count: 1 });
      expectError(await call('GET', `${ARTICLES}/${b}`), 404, 'NotFoundError');
    });

    it('creates a translation without touching the other locale’s shared fields, and deletes one locale or all', async () => {
      const id = await create({ title: 'Hello', views: 9, summary: 'In English' });
      const missing = await call('GET', `${ARTICLES}/${id}?locale=fr`);
      expect(missing.status).toBe(200);
      expect(missing.json.data).toEqual({});
      expect(missing.json.meta.availableLocales).toEqual([expect.objectContaining({ locale: 'en', status: 'draft' })]);
      expect(missing.json.meta.availableStatus).toEqual([]);

      // The panel sends the whole form for the new locale, its non-localized fields empty.
      const form = {
        title: 'Bonjour',
        views: 0,
        rating: null,
        isFeatured: false,
        seo: null,
        blocks: [],
        documentId: id,
      };
      const translated = await call('PUT', `${ARTICLES}/${id}?locale=fr`, form);
      expect(translated.status).toBe(200);
      expect(translated.json.data).toMatchObject({ title: 'Bonjour', locale: 'fr', views: 9, summary: null });
      expect((await call('GET', `${ARTICLES}/${id}?locale=en`)).json.data).toMatchObject({ title: 'Hello', views: 9 });
      const french = await call('GET', `${ARTICLES}/${id}?locale=fr`);
      expect(french.json.data.localizations.map((l: { locale: string }) => l.locale)).toEqual(['en']);
      const list = await call('GET', `${ARTICLES}?locale=fr&filters[$and][0][documentId][$eq]=${id}`);
      expect(list.json.results.map((a: { title: string }) => a.title)).toEqual(['Bonjour']);

      expect((await call('DELETE', `${ARTICLES}/${id}?locale=fr`)).json).toEqual({});
      expect((await call('GET', `${ARTICLES}/${id}?locale=fr`)).json.data).toEqual({});
      expect((await call('GET', `${ARTICLES}/${id}?locale=en`)).json.data.title).toBe('Hello');

      await call('PUT', `${ARTICLES}/${id}?locale=fr`, { title: 'Encore' });
      await action(id, 'publish');
      expect((await call('DELETE', `${ARTICLES}/${id}?locale=*`)).json).toEqual({});
      for (const locale of ['en', 'fr']) {
        expectError(await call('GET', `${ARTICLES}/${id}?locale=${locale}`), 404, 'NotFoundError');
        expect((await published(id, locale)).status).toBe(404);
      }
      expectError(await call('DELETE', `${ARTICLES}/${id}`), 404, 'NotFoundError');
    });

    it('creates, edits and deletes a single type without draft & publish, as /api/global shows it', async () => {
      expectError(await call('GET', GLOBAL), 404, 'NotFoundError', 'Not Found');
      const put = await call('PUT', GLOBAL, {
        siteName: 'Admin Site',
        defaultSeo: { metaTitle: 'Site SEO', keywords: [{ word: 'k', __temp_key__: 'a0' }] },
      });
      expect(put.status).toBe(200);
      expect(put.json.data).toMatchObject({
        siteName: 'Admin Site',
        defaultSeo: { metaTitle: 'Site SEO', keywords: [{ word: 'k' }] },
        locale: null,
        localizations: [],
        publishedAt: expect.any(String),
        createdBy: EDITOR_VIEW,
        updatedBy: EDITOR_VIEW,
      });
      expect(put.json.meta).toEqual({ availableLocales: [], availableStatus: [] });
      expect((await call('GET', GLOBAL)).json).toEqual(put.json);
      const rest = await client.api('GET', '/api/global?populate[defaultSeo][populate][0]=keywords');
      for (const [key, value] of Object.entries(rest.json.data)) {
        if (key !== 'defaultSeo') expect(put.json.data[key], key).toEqual(value);
      }
      expect(rest.json.data.defaultSeo).toMatchObject({ metaTitle: 'Site SEO', keywords: [{ word: 'k' }] });

      const seo = put.json.data.defaultSeo;
      const renamed = await call('PUT', GLOBAL, { siteName: 'Renamed', defaultSeo: { ...seo, metaTitle: 'New SEO' } });
      expect(renamed.json.data).toMatchObject({ documentId: put.json.data.documentId, siteName: 'Renamed' });
      expect(renamed.json.data.defaultSeo).toMatchObject({ id: seo.id, metaTitle: 'New SEO' });
      expect((await client.api('PUT', '/api/global', { data: { siteName: 'From the API' } })).status).toBe(200);
      expect((await call('GET', GLOBAL)).json.data).toMatchObject({ siteName: 'From the API', updatedBy: EDITOR_VIEW });

      expect((await call('DELETE', GLOBAL)).json).toEqual({});
      expectError(await call('GET', GLOBAL), 404, 'NotFoundError');
      expectError(await call('DELETE', GLOBAL), 404, 'NotFoundError');
      expect((await client.api('GET', '/api/global')).status).toBe(404);
    });

    it('saves, publishes, unpublishes and discards a single type with draft & publish', async () => {
      const draft = await call('PUT', HOMEPAGE, { headline: 'Draft headline' });
      expect(draft.json.data).toMatchObject({ headline: 'Draft headline', status: 'draft', publishedAt: null });
      expect((await client.api('GET', '/api/homepage')).status).toBe(404);
      expectError(await call('POST', `${HOMEPAGE}/actions/discard`, {}), 404, 'NotFoundError');
      expect((await call('GET', `${HOMEPAGE}/actions/countDraftRelations`)).json).toEqual({
        data: { draftM2mLinks: 0, unpublishedRelations: 0 },
      });

      const live = await call('POST', `${HOMEPAGE}/actions/publish`, { headline: 'Live headline' });
      expect(live.json.data).toMatchObject({ headline: 'Live headline', status: 'published' });
      expect((await client.api('GET', '/api/homepage')).json.data.headline).toBe('Live headline');
      await call('PUT', HOMEPAGE, { headline: 'Edited headline' });
      expect((await call('GET', HOMEPAGE)).json.data).toMatchObject({
        headline: 'Edited headline',
        status: 'modified',
      });
      const discarded = await call('POST', `${HOMEPAGE}/actions/discard`, {});
      expect(discarded.json.data).toMatchObject({ headline: 'Live headline', status: 'published' });

      const unpublished = await call('POST', `${HOMEPAGE}/actions/unpublish`, {});
      expect(unpublished.json.data).toMatchObject({ headline: 'Live headline', status: 'draft' });
      expect((await client.api('GET', '/api/homepage')).status).toBe(404);
      expectError(await call('POST', `${HOMEPAGE}/actions/unpublish`, {}), 404, 'NotFoundError');
    });
  });
}
