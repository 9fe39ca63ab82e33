import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ARTICLES, AUTHORS, TAGS, expectError, startAdminClient, type AdminClient } from './support/admin-client.js';

/*
 * The edit view's helpers, as Strapi 5.54's admin calls them: relation pickers (what a relation
 * may point to, searched, and what a document points to now), uid generation and availability,
 * and the view layouts (init, settings, a type's and a component's configuration, read and saved
 * in Strapi's core store), on every database.
 */
const RELATIONS = '/content-manager/relations';
const ARTICLE_CONFIGURATION = '/content-manager/content-types/api::article.article/configuration';
const AUTHOR_CONFIGURATION = '/content-manager/content-types/api::author.author/configuration';
const SEO_CONFIGURATION = '/content-manager/components/shared.seo/configuration';

type Listed = { results: Record<string, unknown>[]; pagination: Record<string, number> };
const names = (answer: Listed, key = 'name') => answer.results.map((item) => item[key]);

for (const database of inject('databases')) {
  describe(`[${database}] the content manager's relation pickers, uid fields and layouts`, () => {
    let client: AdminClient;
    const call = (method: string, path: string, body?: unknown) => client.call(method, path, body);
    const list = async (path: string): Promise<Listed> => {
      const response = await call('GET', path);
      expect(response.status, path).toBe(200);
      return response.json;
    };
    const create = async (path: string, body: Record<string, unknown>) => {
      const response = await call('POST', path, body);
      expect(response.status).toBe(201);
      return response.json.data as { id: number; documentId: string };
    };
    const uid = (path: string, body: Record<string, unknown>) =>
      call('POST', `/content-manager/uid/${path}`, { contentTypeUID: 'api::article.article', field: 'slug', ...body });

    beforeAll(async () => {
      client = await startAdminClient(database);
    });
    afterAll(() => client?.server.close());

    it('lists what a relation may point to, searched on the main field and paginated', async () => {
      for (const name of ['Ada Writer', 'Grace Author', 'Alan Adams']) await create(AUTHORS, { name });
      for (const name of ['Xylophone', 'Alpha', 'Beta', 'Axe']) await create(TAGS, { name });
      await create(`${ARTICLES}?locale=en`, { title: 'English article' });
      await create(`${ARTICLES}?locale=fr`, { title: 'Article français' });

      const cases: [string, unknown[], Record<string, number>?][] = [
        ['api::article.article/author', ['Ada Writer', 'Alan Adams', 'Grace Author']],
        ['api::article.article/author?_q=ada', ['Ada Writer', 'Alan Adams']],
        [
          'api::article.article/author?pageSize=100&status=draft&page=1',
          ['Ada Writer', 'Alan Adams', 'Grace Author'],
          { page: 1, pageSize: 100, pageCount: 1, total: 3 },
        ],
        ['api::article.article/author?_q=nobody', []],
        ['api::article.article/editor?_q=GRACE', ['Grace Author']],
        ['api::article.article/tags?_q=x', ['Axe', 'Xylophone']],
        [
          'api::article.article/tags?_q=&page=2&pageSize=3',
          ['Xylophone'],
          { page: 2, pageSize: 3, pageCount: 2, total: 4 },
        ],
        ['shared.quote/author?locale=en&id=&_q=Ada&page=1&pageSize=10', ['Ada Writer', 'Alan Adams']],
      ];
      for (const [path, expected, pagination] of cases) {
        const answer = await list(`${RELATIONS}/${path}`);
        expect(names(answer), path).toEqual(expected);
        if (pagination) expect(answer.pagination, path).toEqual(pagination);
      }
      const author = (await list(`${RELATIONS}/api::article.article/author?_q=Grace`)).results[0];
      expect(Object.keys(author ?? {}).sort()).toEqual(['documentId', 'id', 'name', 'publishedAt', 'updatedAt']);

      const articles = await list(`${RELATIONS}/api::tag.tag/articles?locale=fr`);
      expect(articles.results).toEqual([
        expect.objectContaining({ title: 'Article français', locale: 'fr', status: 'draft', publishedAt: null }),
      ]);
      expect(names(await list(`${RELATIONS}/api::author.author/articles?locale=en`), 'title')).toEqual([
        'English article',
      ]);
    });

    it('lists what a document points to, and follows connect and disconnect as /api does', async () => {
      const tags = await Promise.all(['One', 'Two', 'Three'].map((name) => create(TAGS, { name: `Linked ${name}` })));
      const writer = await create(AUTHORS, { name: 'Linked Writer' });
      const article = await create(ARTICLES, {
        title: 'Linked article',
        author: { connect: [{ id: writer.id, documentId: writer.documentId, isTemporary: true }] },
        tags: { connect: tags.map((tag) => ({ documentId: tag.documentId })) },
        blocks: [{ __component: 'shared.quote', title: 'q', author: { connect: [{ documentId: writer.documentId }] } }],
      });
      const of = (field: string, query = '') =>
        list(`${RELATIONS}/api::article.article/${article.documentId}/${field}${query}`);
      expect(names(await of('author'))).toEqual(['Linked Writer']);
      expect(names(await of('editor'))).toEqual([]);
      const linked = await of('tags');
      expect(names(linked).sort()).toEqual(['Linked One', 'Linked Three', 'Linked Two']);
      expect(linked.pagination).toEqual({ page: 1, pageSize: 10, pageCount: 1, total: 3 });
      const paged = await of('tags', '?page=2&pageSize=2');
      expect(paged.results.length).toBe(1);
      expect(paged.pagination).toEqual({ page: 2, pageSize: 2, pageCount: 2, total: 3 });
      const edit = (await call('GET', `${ARTICLES}/${article.documentId}`)).json.data;
      expect(edit).toMatchObject({ author: { count: 1 }, tags: { count: 3 }, editor: { count: 0 } });

      const [first] = tags;
      const saved = await call('PUT', `${ARTICLES}/${article.documentId}`, {
        tags: { connect: [], disconnect: [{ id: first?.id, documentId: first?.documentId }] },
        editor: { connect: [{ documentId: writer.documentId }], disconnect: [] },
      });
      expect(saved.json.data).toMatchObject({ tags: { count: 2 }, editor: { count: 1 } });
      expect(names(await of('tags')).sort()).toEqual(['Linked Three', 'Linked Two']);
      expect(names(await of('editor'))).toEqual(['Linked Writer']);
      const rest = await client.api(
        'GET',
        `/api/articles/${article.documentId}?status=draft&populate[tags][fields][0]=name&populate[editor][fields][0]=name`,
      );
      expect(rest.json.data.tags.map((tag: { name: string }) => tag.name).sort()).toEqual(
        names(await of('tags')).sort(),
      );
      expect(rest.json.data.editor.name).toBe('Linked Writer');
      expectError(
        await call('GET', `${RELATIONS}/api::article.article/missing0000000000000000/tags`),
        404,
        'NotFoundError',
      );
    });

    it('generates a free uid from the target field and says whether a value is taken, per locale', async () => {
      const generated: [Record<string, unknown>, string][] = [
        [{ data: { title: 'Slug Source Title' } }, 'slug-source-title'],
        [{ data: { title: 'Ça va? Très bien!' } }, 'ca-va-tres-bien'],
        [{ data: { title: '' } }, 'article'],
        [{ data: {} }, 'article'],
      ];
      for (const [body, value] of generated) expect((await uid('generate', body)).json, value).toEqual({ data: value });

      await create(ARTICLES, { title: 'Taken', slug: 'taken-slug' });
      await create(ARTICLES, { title: 'Taken too', slug: 'taken-slug-1' });
      expect((await uid('generate', { data: { title: 'Taken Slug' } })).json).toEqual({ data: 'taken-slug-2' });
      expect((await uid('check-availability', { value: 'taken-slug' })).json).toEqual({
        isAvailable: false,
        suggestion: 'taken-slug-2',
      });
      expect((await uid('check-availability', { value: 'fresh-slug' })).json).toEqual({
        isAvailable: true,
        suggestion: null,
      });
      const inFrench = await call('POST', '/content-manager/uid/check-availability?locale=fr', {
        contentTypeUID: 'api::article.article',
        field: 'slug',
        value: 'taken-slug',
      });
      expect(inFrench.json).toEqual({ isAvailable: true, suggestion: null });
    });

    it('answers no AI localization job for any document the edit view opens, as Strapi CE does', async () => {
      const article = await create(ARTICLES, { title: 'No AI job' });
      const jobs = '/i18n/ai-localization-jobs';
      for (const path of [
        `${jobs}/collection-types/api::article.article/${article.documentId}`,
        `${jobs}/collection-types/api::article.article/missing0000000000000000`,
        `${jobs}/collection-types/api::nope.nope/whatever`,
        `${jobs}/single-types/api::global.global`,
      ]) {
        const response = await call('GET', path);
        expect(response.status, path).toBe(200);
        expect(response.json, path).toEqual({ data: null });
      }
      const anonymous = await client.server.request('GET', `${jobs}/single-types/api::global.global`);
      expectError(anonymous, 401, 'UnauthorizedError');
    });

    it('answers the schemas and the view settings the panel starts with', async () => {
      const init = (await call('GET', '/content-manager/init')).json.data;
      const article = init.contentTypes.find((type: { uid: string }) => type.uid === 'api::article.article');
      expect(article).toMatchObject({ isDisplayed: true, kind: 'collectionType', apiID: 'article' });
      expect(article.attributes.slug).toMatchObject({ type: 'uid', targetField: 'title' });
      expect(init.components.map((component: { uid: string }) => component.uid).sort()).toEqual([
        'shared.keyword',
        'shared.media-block',
        'shared.quote',
        'shared.rich-text',
        'shared.seo',
      ]);
      expect(init.fieldSizes.string).toEqual({ default: 6, isResizable: true });
      const settings = (await call('GET', '/content-manager/content-types-settings')).json.data;
      expect(settings.find((entry: { uid: string }) => entry.uid === 'api::article.article').settings).toEqual({
        bulkable: true,
        filterable: true,
        searchable: true,
        pageSize: 10,
        relationOpenMode: 'modal',
        mainField: 'title',
        defaultSortBy: 'title',
        defaultSortOrder: 'ASC',
      });
      const singles = (await call('GET', '/content-manager/content-types?kind=singleType')).json.data;
      expect(singles.map((type: { uid: string }) => type.uid)).toEqual(['api::global.global']);
    });

    it('saves a type’s view configuration in the core store; the relation pickers follow its main field', async () => {
      const before = (await call('GET', ARTICLE_CONFIGURATION)).json.data;
      expect(Object.keys(before.components).sort()).toEqual(expect.arrayContaining(['shared.keyword', 'shared.seo']));
      const { settings, layouts } = before.contentType;
      // The panel sends each metadata's list part without the mainField the GET adds (Strapi's validator refuses it).
      const metadatas = Object.fromEntries(
        Object.entries(before.contentType.metadatas as Record<string, { edit: object; list: object }>).map(
          ([name, { edit, list }]) => [name, { edit, list: { ...list, mainField: undefined } }],
        ),
      );
      const changed = {
        settings: { ...settings, pageSize: 20, defaultSortBy: 'views', defaultSortOrder: 'DESC' },
        metadatas: {
          ...metadatas,
          title: { ...metadatas.title, edit: { ...metadatas.title?.edit, label: 'Headline' } },
        },
        layouts: { ...layouts, list: ['id', 'title', 'views'] },
      };
      const saved = await call('PUT', ARTICLE_CONFIGURATION, changed);
      expect(saved.json.error).toBeUndefined();
      expect(saved.status).toBe(200);
      const after = (await call('GET', ARTICLE_CONFIGURATION)).json.data.contentType;
      expect(after.settings).toMatchObject({ pageSize: 20, defaultSortBy: 'views', defaultSortOrder: 'DESC' });
      expect(after.metadatas.title.edit.label).toBe('Headline');
      expect(after.layouts.list).toEqual(['id', 'title', 'views']);
      const key = database === 'mysql' ? '`key`' : '"key"';
      const [row] = await client.rows(
        `select value from strapi_core_store_settings where ${key} = 'plugin_content_manager_configuration_content_types::api::article.article'`,
      );
      expect(JSON.parse(String(row?.value))).toMatchObject({
        settings: { pageSize: 20 },
        layouts: { list: ['id', 'title', 'views'] },
      });
      const listed = (await call('GET', '/content-manager/content-types-settings')).json.data;
      expect(listed.find((entry: { uid: string }) => entry.uid === 'api::article.article').settings.pageSize).toBe(20);

      const author = (await call('GET', AUTHOR_CONFIGURATION)).json.data.contentType;
      await create(AUTHORS, { name: 'Mailed Author', email: 'mailed@example.com' });
      const byEmail = await call('PUT', AUTHOR_CONFIGURATION, { settings: { ...author.settings, mainField: 'email' } });
      expect(byEmail.status).toBe(200);
      const picked = await list(`${RELATIONS}/api::article.article/author?_q=mailed@`);
      expect(picked.results).toEqual([expect.objectContaining({ email: 'mailed@example.com' })]);
      expect(picked.results[0]).not.toHaveProperty('name');
      await call('PUT', AUTHOR_CONFIGURATION, { settings: author.settings });
      expect(names(await list(`${RELATIONS}/api::article.article/author?_q=Mailed`))).toEqual(['Mailed Author']);
    });

    it('saves a component’s view configuration', async () => {
      const seo = (await call('GET', SEO_CONFIGURATION)).json.data;
      expect(seo.component).toMatchObject({ uid: 'shared.seo', category: 'shared', isComponent: true });
      expect(Object.keys(seo.components)).toEqual(['shared.keyword']);
      const { metadatas, layouts, settings } = seo.component;
      const label = { ...metadatas.metaTitle, edit: { ...metadatas.metaTitle.edit, label: 'Page title' } };
      const saved = await call('PUT', SEO_CONFIGURATION, {
        settings,
        layouts,
        metadatas: { ...metadatas, metaTitle: label },
      });
      expect(saved.status).toBe(200);
      expect(saved.json.data.metadatas.metaTitle.edit.label).toBe('Page title');
      expect((await call('GET', SEO_CONFIGURATION)).json.data.component.metadatas.metaTitle.edit.label).toBe(
        'Page title',
      );
      const inArticle = (await call('GET', ARTICLE_CONFIGURATION)).json.data.components['shared.seo'];
      expect(inArticle.metadatas.metaTitle.edit.label).toBe('Page title');
    });
  });
}
