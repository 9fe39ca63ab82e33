import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pluginsWithLocales } from './support/i18n.js';
import { startTestServer, type TestResponse, type TestServer } from './support/test-server.js';

/*
 * What the content manager's edit view reads besides the document, as Strapi 5.54 answers it:
 * relation counts inside components and dynamic zones, the relation pickers of a document and of
 * a component row, the other locales (`localizations`, `meta.availableLocales`) and the home page
 * counts. Every read costs a number of statements fixed by the query's shape, never by the number
 * of rows, on every database.
 */
const ARTICLES = '/content-manager/collection-types/api::article.article';
const AUTHORS = '/content-manager/collection-types/api::author.author';
const TAGS = '/content-manager/collection-types/api::tag.tag';
const RELATIONS = '/content-manager/relations';
const HOME = '/content-manager/homepage';

interface Created {
  readonly id: number;
  readonly documentId: string;
  readonly [key: string]: unknown;
}

for (const database of inject('databases')) {
  describe(`[${database}] content manager counts, pickers and locales`, () => {
    let server: TestServer;
    let auth: { jwt: string };
    const call = (method: string, path: string, body?: unknown): Promise<TestResponse> =>
      server.request(method, path, { auth, ...(body === undefined ? {} : { body }) });
    const ok = async (method: string, path: string, body?: unknown) => {
      const response = await call(method, path, body);
      expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
      return response.json;
    };
    const create = async (path: string, body: Record<string, unknown>): Promise<Created> =>
      (await ok('POST', path, body)).data;
    /** How many statements a request runs. */
    const statements = async (path: string): Promise<number> => {
      server.resetQueries();
      await ok('GET', path);
      return server.queries.length;
    };
    const quote = (author: Created | null, title = 'q') => ({
      __component: 'shared.quote',
      title,
      ...(author ? { author: { connect: [{ documentId: author.documentId }] } } : {}),
    });

    beforeAll(async () => {
      // A third locale, to see which one availableLocales lists first.
      const plugins = pluginsWithLocales(['en', 'fr', 'de'], 'en');
      server = await startTestServer({ database, files: { 'config/plugins.js': plugins } });
      const registered = await server.request('POST', '/admin/register-admin', {
        body: { email: 'counts@example.com', password: 'Counts1234pass', firstname: 'Cy', lastname: 'Counter' },
      });
      expect(registered.status).toBe(200);
      auth = { jwt: registered.json.data.token };
    });
    afterAll(() => server?.close());

    it('counts relations inside components and dynamic zones, in statements that do not grow with the links', async () => {
      const ada = await create(AUTHORS, { name: 'Ada Count' });
      const tags = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => create(TAGS, { name: `count ${name}` })));
      const small = await create(ARTICLES, {
        title: 'Few links',
        author: { connect: [{ documentId: ada.documentId }] },
        tags: { connect: [{ documentId: tags[0]?.documentId }] },
        seo: { metaTitle: 'seo' },
        blocks: [quote(ada), { __component: 'shared.rich-text', body: 'text' }, quote(null)],
      });
      expect(small).toMatchObject({
        author: { count: 1 },
        tags: { count: 1 },
        editor: { count: 0 },
        blocks: [
          { __component: 'shared.quote', author: { count: 1 } },
          { __component: 'shared.rich-text', body: 'text' },
          { __component: 'shared.quote', author: { count: 0 } },
        ],
      });
      expect(small.blocks).toHaveLength(3);
      expect((small.blocks as Record<string, unknown>[])[1]).not.toHaveProperty('author');

      const large = await create(ARTICLES, {
        title: 'Many links',
        author: { connect: [{ documentId: ada.documentId }] },
        tags: { connect: tags.map((tag) => ({ documentId: tag.documentId })) },
        seo: { metaTitle: 'seo', keywords: [{ word: 'x' }, { word: 'y' }, { word: 'z' }] },
        blocks: Array.from({ length: 6 }, (_, index) => quote(ada, `q${index}`)),
      });
      const read = (await ok('GET', `${ARTICLES}/${large.documentId}`)).data;
      expect(read.tags).toEqual({ count: 5 });
      expect(read.blocks.map((block: { author: unknown }) => block.author)).toEqual(
        Array.from({ length: 6 }, () => ({ count: 1 })),
      );
      // The list shows component scalars and counts only the document's own to-many relations.
      const listed = (await ok('GET', `${ARTICLES}?page=1&pageSize=10&sort=title:ASC`)).results;
      const many = listed.find((row: Created) => row.documentId === large.documentId);
      expect(many.tags).toEqual({ count: 5 });
      expect(many.author).toMatchObject({ name: 'Ada Count' });
      expect(many.blocks.every((block: Record<string, unknown>) => !('author' in block))).toBe(true);

      expect(await statements(`${ARTICLES}/${large.documentId}`)).toBe(
        await statements(`${ARTICLES}/${small.documentId}`),
      );
      // No statement reads the document's link rows: each relation is counted, grouped by row.
      server.resetQueries();
      await ok('GET', `${ARTICLES}/${large.documentId}`);
      const linkReads = server.queries.filter((query) => /_lnk/.test(query.sql) && !/admin_users/.test(query.sql));
      expect(linkReads.length).toBe(4); // author, tags, editor, and the quotes' author
      expect(linkReads.filter((query) => !/count\(.*group by/i.test(query.sql)).map((query) => query.sql)).toEqual([]);
    });

    it("answers a component row's related documents, and a to-one relation as page 1 of size 10", async () => {
      const grace = await create(AUTHORS, { name: 'Grace Quoted' });
      const article = await create(ARTICLES, {
        title: 'Quoting',
        seo: { metaTitle: 'seo' },
        blocks: [quote(grace, 'with author'), quote(null, 'without')],
      });
      const [withAuthor, without] = article.blocks as Created[];
      const quoted = await ok('GET', `${RELATIONS}/shared.quote/${withAuthor?.id}/author?pageSize=5&page=1`);
      expect(quoted).toEqual({
        results: [
          {
            id: expect.any(Number),
            documentId: grace.documentId,
            name: 'Grace Quoted',
            updatedAt: expect.any(String),
            publishedAt: expect.any(String),
          },
        ],
        pagination: { page: 1, pageSize: 10, pageCount: 1, total: 1 },
      });
      expect(await ok('GET', `${RELATIONS}/shared.quote/${without?.id}/author`)).toEqual({
        results: [],
        pagination: { page: 1, pageSize: 10, pageCount: 1, total: 0 },
      });
      const ofDocument = await ok('GET', `${RELATIONS}/api::article.article/${article.documentId}/editor?pageSize=3`);
      expect(ofDocument.pagination).toEqual({ page: 1, pageSize: 10, pageCount: 1, total: 0 });
      for (const missing of ['999999', 'abc', '0'])
        expect((await call('GET', `${RELATIONS}/shared.quote/${missing}/author`)).status, missing).toBe(404);
    });

    it('lists the documents a to-many relation links to newest link first, paged, in statements that do not grow', async () => {
      const tags = await Promise.all(['1', '2', '3', '4', '5'].map((n) => create(TAGS, { name: `ordered ${n}` })));
      const article = await create(ARTICLES, {
        title: 'Ordered tags',
        tags: { connect: tags.map((tag) => ({ documentId: tag.documentId })) },
      });
      const page = async (query: string) => {
        const answer = await ok('GET', `${RELATIONS}/api::article.article/${article.documentId}/tags${query}`);
        return { names: answer.results.map((tag: { name: string }) => tag.name), pagination: answer.pagination };
      };
      expect(await page('?page=1&pageSize=2')).toEqual({
        names: ['ordered 5', 'ordered 4'],
        pagination: { page: 1, pageSize: 2, pageCount: 3, total: 5 },
      });
      expect((await page('?page=3&pageSize=2')).names).toEqual(['ordered 1']);
      const few = await create(ARTICLES, {
        title: 'One tag',
        tags: { connect: [{ documentId: tags[0]?.documentId }] },
      });
      expect(await statements(`${RELATIONS}/api::article.article/${few.documentId}/tags`)).toBe(
        await statements(`${RELATIONS}/api::article.article/${article.documentId}/tags`),
      );
    });

    it('gives the other locales as Strapi does: shared values in availableLocales, full drafts after a write', async () => {
      const french = await create(`${ARTICLES}?locale=fr`, {
        title: 'Valeurs partagées',
        summary: 'Résumé',
        views: 7,
        isFeatured: true,
        seo: { metaTitle: 'SEO français', metaDescription: 'not validated', keywords: [{ word: 'kw' }] },
      });
      const translated = await ok('PUT', `${ARTICLES}/${french.documentId}?locale=en`, { title: 'Shared values' });
      const [full] = translated.data.localizations;
      expect(full).toMatchObject({
        id: french.id,
        documentId: french.documentId,
        locale: 'fr',
        title: 'Valeurs partagées',
        summary: 'Résumé',
        views: 7,
        isFeatured: true,
        publishedAt: null,
        status: 'draft',
        seo: { id: expect.any(Number), metaTitle: 'SEO français' },
      });
      // Components keep only the fields a validation needs; relations, media and creators are not read.
      expect(Object.keys(full.seo).sort()).toEqual(['id', 'metaTitle']);
      for (const key of ['author', 'tags', 'cover', 'gallery', 'createdBy', 'blocks', 'secretCode'])
        expect(full, key).not.toHaveProperty(key);

      const english = await ok('GET', `${ARTICLES}/${french.documentId}?locale=en`);
      const [available] = english.meta.availableLocales;
      expect(available).toMatchObject({
        id: french.id,
        documentId: french.documentId,
        locale: 'fr',
        views: 7,
        isFeatured: true,
        cover: null,
        gallery: [],
        status: 'draft',
        createdBy: expect.objectContaining({ email: 'counts@example.com' }),
      });
      for (const key of ['title', 'summary', 'seo', 'blocks', 'author', 'secretCode'])
        expect(available, key).not.toHaveProperty(key);
      // A read's localizations stay the short form.
      expect(Object.keys(english.data.localizations[0]).sort()).toEqual([
        'documentId',
        'id',
        'locale',
        'publishedAt',
        'status',
        'updatedAt',
      ]);

      // The default locale comes first (the panel copies shared values from the first entry),
      // though the French version is older.
      const german = await ok('PUT', `${ARTICLES}/${french.documentId}?locale=de`, { title: 'Geteilte Werte' });
      expect(german.meta.availableLocales.map((entry: { locale: string }) => entry.locale)).toEqual(['en', 'fr']);
    });

    it('counts the home page documents by status with statements that do not grow with the documents', async () => {
      const before = (await ok('GET', `${HOME}/count-documents`)).data;
      const statementsBefore = await statements(`${HOME}/count-documents`);
      const recentBefore = await statements(`${HOME}/recent-documents?action=update`);
      const draft = await create(ARTICLES, { title: 'Home draft' });
      const published = await create(ARTICLES, { title: 'Home published' });
      await ok('POST', `${ARTICLES}/${published.documentId}/actions/publish`, {});
      const modified = await create(ARTICLES, { title: 'Home modified' });
      await ok('POST', `${ARTICLES}/${modified.documentId}/actions/publish`, {});
      await ok('PUT', `${ARTICLES}/${modified.documentId}`, { title: 'Home modified (edited)' });
      await create(TAGS, { name: 'home tag' });
      const after = (await ok('GET', `${HOME}/count-documents`)).data;
      expect(after).toEqual({
        draft: before.draft + 1,
        published: before.published + 2,
        modified: before.modified + 1,
      });
      expect(await statements(`${HOME}/count-documents`)).toBe(statementsBefore);
      // Counted, never read row by row: every statement on the articles table is a COUNT.
      const onArticles = () => server.queries.filter((query) => /from ["`]articles["`]/.test(query.sql));
      expect(onArticles().length).toBe(1);
      expect(onArticles().every((query) => /count\(/i.test(query.sql))).toBe(true);
      expect(await statements(`${HOME}/recent-documents?action=update`)).toBe(recentBefore);
      // The latest rows only, then the versions of those documents.
      expect(onArticles().map((query) => /limit/i.test(query.sql))).toEqual([true, false]);
      expect(onArticles()[1]?.sql).toMatch(/document_id["`]? in/i);

      const recent = (await ok('GET', `${HOME}/recent-documents?action=update`)).data;
      expect(recent[0]).toMatchObject({ title: 'home tag', contentTypeUid: 'api::tag.tag' });
      expect(recent[0]).not.toHaveProperty('status');
      expect(recent.slice(1, 3)).toMatchObject([
        { documentId: modified.documentId, title: 'Home modified (edited)', status: 'modified' },
        { documentId: published.documentId, status: 'published' },
      ]);
      const latestPublished = (await ok('GET', `${HOME}/recent-documents?action=publish`)).data;
      expect(latestPublished[0]).toMatchObject({ documentId: modified.documentId, status: 'modified' });
      expect(draft.documentId).not.toBe(latestPublished[0].documentId);
    });
  });
}
