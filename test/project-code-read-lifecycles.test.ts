import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startHooksServer, takeReads, type RecordedRead } from './support/hooks-code.js';
import { startTestServer, type TestResponse, type TestServer } from './support/test-server.js';

/*
 * Issue 38: the read lifecycles (beforeFindMany/afterFindMany, beforeFindOne/afterFindOne,
 * beforeCount/afterCount) fired when the Document Service reads, whoever reads: REST, GraphQL,
 * the admin panel's content manager, `strapi.documents` in project code. On the hooks-code fixture
 * (test/fixtures/projects/hooks-code over examples/blog): its function subscriber records every
 * read event with its params, result and state (GET /api/hooks/reads); the note type's lifecycles
 * refuse, narrow, shorten and decorate reads on markers in the filters.
 *
 * Every expected `params`, result and answer below was recorded from Strapi 5.54 running this same
 * fixture (`shared/reference/strapi.sh code`) with the same requests, but where a comment says
 * otherwise.
 */

type Json = Record<string, any>;

const ok = (response: TestResponse, status = 200) => {
  expect(response.status, response.text).toBe(status);
  return response.json;
};

/** A before-hook and its after-hook as recorded: the params (the same object for both), what the after-hook got. */
function pair(action: 'FindMany' | 'FindOne' | 'Count', uid: string, params: Json, result: unknown): RecordedRead[] {
  const state = { seen: `before${action}` };
  return [
    { action: `before${action}`, uid, params, result: 'absent', state },
    { action: `after${action}`, uid, params, result, state },
  ];
}

const NOTE = 'api::note.note';
const PRODUCT = 'api::product.product';
const ARTICLE = 'api::article.article';
/** The keys of a whole note row, as Strapi's database layer returns it (`locale` too, a private column). */
const NOTE_ROW = ['createdAt', 'documentId', 'id', 'locale', 'pinned', 'publishedAt', 'slug', 'title', 'updatedAt'];

for (const database of inject('databases'))
  describe(`[${database}] project code: read lifecycles`, () => {
    let server: TestServer;
    let adminJwt: string;
    const ids: Record<string, string> = {};

    const get = (path: string) => server.request('GET', path, { auth: 'full' });
    const graphql = (query: string) => server.request('POST', '/graphql', { auth: 'full', body: { query } });
    const documents = (action: string, uid: string, params: Json) =>
      server.request('POST', `/api/hooks/documents/${action}`, { body: { uid, params } });

    beforeAll(async () => {
      server = await startHooksServer(database);
      const registered = await server.request('POST', '/admin/register-admin', {
        body: { email: 'reads@example.com', password: 'Reads1234pass', firstname: 'Read', lastname: 'Hooks' },
      });
      adminJwt = ok(registered).data.token;
      const create = async (path: string, data: Json) =>
        ok(await server.request('POST', path, { auth: 'full', body: { data } }), 201).data.documentId as string;
      ids.alpha = await create('/api/notes', { title: 'Alpha' });
      ids.beta = await create('/api/notes', { title: 'Beta', pinned: true });
      ids.gamma = await create('/api/notes', { title: 'Gamma', slug: 'decorated' });
      ids.widget = await create('/api/products', { name: 'Widget' });
      const tag = await create('/api/tags', { name: 'news' });
      const author = await create('/api/authors', { name: 'Ada' });
      await create('/api/articles', { title: 'Hello', tags: [tag], author });
      await takeReads(server);
    });
    afterAll(() => server?.close());

    it('a REST list fires findMany, then count when it counts, with the params of Strapi’s database query', async () => {
      const params = {
        orderBy: [{ title: 'asc' }],
        where: { title: { $eq: 'Alpha' } },
        select: ['id', 'documentId', 'title'],
        offset: 0,
        limit: 5,
      };
      ok(
        await get(
          '/api/notes?filters[title][$eq]=Alpha&sort=title:asc&fields[0]=title&pagination[page]=1&pagination[pageSize]=5',
        ),
      );
      expect(await takeReads(server)).toEqual([
        ...pair('FindMany', NOTE, params, { rows: 1, keys: ['documentId', 'id', 'title'] }),
        ...pair('Count', NOTE, params, 1),
      ]);

      // without the count; every field: whole rows for the hooks, private columns too
      const all = ok(await get('/api/notes?pagination[withCount]=false&sort[0]=title:desc'));
      expect(await takeReads(server)).toEqual(
        pair(
          'FindMany',
          NOTE,
          { orderBy: [{ title: 'desc' }], offset: 0, limit: 25, where: {} },
          { rows: 3, keys: NOTE_ROW },
        ),
      );
      // ...but what is private is not answered
      expect(all.data.map((note: Json) => 'locale' in note)).toEqual([false, false, false]);

      // draft & publish: the status lookup in `where`, the filters beside it; `start`/`limit` pages
      const where = { publishedAt: { $null: true }, name: { $containsi: 'widg' } };
      ok(
        await get('/api/products?filters[name][$containsi]=widg&status=draft&pagination[start]=0&pagination[limit]=2'),
      );
      expect(await takeReads(server)).toEqual([
        ...pair(
          'FindMany',
          PRODUCT,
          { where, offset: 0, limit: 2 },
          {
            rows: 1,
            keys: [
              'createdAt',
              'documentId',
              'id',
              'locale',
              'locked',
              'name',
              'publishedAt',
              'sku',
              'stock',
              'updatedAt',
            ],
          },
        ),
        ...pair('Count', PRODUCT, { where, offset: 0, limit: 2 }, 1),
      ]);
    });

    it('a REST document read fires findOne with the lookup in `where`; after-hooks change what is answered', async () => {
      const decorated = ok(await get(`/api/notes/${ids.gamma}`));
      expect(await takeReads(server)).toEqual(
        pair('FindOne', NOTE, { where: { documentId: ids.gamma } }, { keys: NOTE_ROW }),
      );
      expect(decorated.data.title).toBe('Gamma (decorated)');
      expect(decorated.data).not.toHaveProperty('locale');

      ok(await get(`/api/products/${ids.widget}?status=draft&fields[0]=name`));
      expect(await takeReads(server)).toEqual(
        pair(
          'FindOne',
          PRODUCT,
          { select: ['id', 'documentId', 'name'], where: { publishedAt: { $null: true }, documentId: ids.widget } },
          { keys: ['documentId', 'id', 'name'] },
        ),
      );

      ok(await get('/api/notes/nope'), 404);
      expect(await takeReads(server)).toEqual(pair('FindOne', NOTE, { where: { documentId: 'nope' } }, null));
    });

    it("a before-hook's ApplicationError answers 400 (REST) or a GraphQL error, and nothing is read", async () => {
      const refused = (message: string, marker: string) => ({
        data: null,
        error: { status: 400, name: 'ApplicationError', message, details: { marker } },
      });
      const list = await get('/api/notes?filters[title][$eq]=REFUSE');
      expect(list.status, list.text).toBe(400);
      expect(list.json).toEqual(refused('Note reads refused', 'REFUSE'));
      const one = await get(`/api/notes/${ids.alpha}?filters[title][$eq]=REFUSE`);
      expect(one.status, one.text).toBe(400);
      expect(one.json).toEqual(refused('Note read refused', 'REFUSE'));
      const count = await get('/api/notes?filters[title][$ne]=NO-COUNT');
      expect(count.status, count.text).toBe(400);
      expect(count.json).toEqual(refused('Note count refused', 'NO-COUNT'));
      const gql = ok(await graphql('{ notes(filters: { title: { eq: "REFUSE" } }) { title } }'));
      expect(gql.data).toBeNull();
      expect(gql.errors.map((error: Json) => error.message)).toEqual(['Note reads refused']);
      // the note's own hooks run first and threw: the function subscriber saw the count's findMany only
      expect((await takeReads(server)).map((read) => read.action)).toEqual(['beforeFindMany', 'afterFindMany']);
    });

    it('what a before-hook changes in `where` or `limit` is what is read; the count keeps its own params', async () => {
      const pinned = ok(await get('/api/notes?filters[title][$eq]=ONLY-PINNED&fields[0]=title'));
      expect(pinned.data.map((note: Json) => note.title)).toEqual(['Beta']);
      // Strapi's total is the count of the request's own filters
      expect(pinned.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 0, total: 0 });
      const select = ['id', 'documentId', 'title'];
      expect(await takeReads(server)).toEqual([
        ...pair(
          'FindMany',
          NOTE,
          { where: { pinned: true }, select, offset: 0, limit: 25 },
          { rows: 1, keys: [...select].sort() },
        ),
        ...pair('Count', NOTE, { where: { title: { $eq: 'ONLY-PINNED' } }, select, offset: 0, limit: 25 }, 0),
      ]);

      const first = ok(await get('/api/notes?filters[title][$ne]=FIRST-ONLY&sort=title:asc&fields[0]=title'));
      expect(first.data.map((note: Json) => note.title)).toEqual(['Alpha']);
      expect(first.meta.pagination.total).toBe(3);
      const where = { title: { $ne: 'FIRST-ONLY' } };
      expect(await takeReads(server)).toEqual([
        ...pair(
          'FindMany',
          NOTE,
          { orderBy: [{ title: 'asc' }], where, select, offset: 0, limit: 1 },
          { rows: 1, keys: [...select].sort() },
        ),
        ...pair('Count', NOTE, { orderBy: [{ title: 'asc' }], where, select, offset: 0, limit: 25 }, 3),
      ]);

      const shout = ok(await get('/api/notes?filters[title][$ne]=SHOUT&sort=title:asc&fields[0]=title'));
      expect(shout.data.map((note: Json) => note.title)).toEqual(['ALPHA', 'BETA', 'GAMMA']);
      const gql = ok(await graphql('{ notes(filters: { title: { ne: "SHOUT" } }, sort: "title:asc") { title } }'));
      expect(gql.data.notes).toEqual([{ title: 'ALPHA' }, { title: 'BETA' }, { title: 'GAMMA' }]);
      await takeReads(server);
    });

    it('GraphQL: its root fields fire the reads; hooks see whole rows; relations are read with their parent', async () => {
      ok(await graphql('{ notes(filters: { title: { eq: "Alpha" } }, sort: "title:asc") { title } }'));
      const where = { title: { $eq: 'Alpha' } };
      expect(await takeReads(server)).toEqual(
        pair(
          'FindMany',
          NOTE,
          { orderBy: [{ title: 'asc' }], where, offset: 0, limit: 25 },
          { rows: 1, keys: NOTE_ROW },
        ),
      );

      ok(
        await graphql(
          '{ notes_connection(pagination: { page: 1, pageSize: 2 }) { nodes { title } pageInfo { total } } }',
        ),
      );
      expect(await takeReads(server)).toEqual([
        ...pair('FindMany', NOTE, { offset: 0, limit: 2, where: {} }, { rows: 2, keys: NOTE_ROW }),
        ...pair('Count', NOTE, { offset: 0, limit: 2, where: {} }, 3),
      ]);

      // the hook reads the slug, which the query does not ask for
      const one = ok(await graphql(`{ note(documentId: "${ids.gamma}") { title } }`));
      expect(one.data.note).toEqual({ title: 'Gamma (decorated)' });
      expect(await takeReads(server)).toEqual(
        pair('FindOne', NOTE, { where: { documentId: ids.gamma } }, { keys: NOTE_ROW }),
      );

      // Strapi's GraphQL then reads each relation of each article through a findOne of the article
      // (`{ select: ['id'], where: { id }, populate: { tags } }`): Cairn reads them with the list,
      // and fires no such event. Neither fires the tags' or the authors' hooks.
      const articles = ok(await graphql('{ articles { title tags { name } author { name } } }'));
      expect(articles.data.articles).toEqual([{ title: 'Hello', tags: [{ name: 'news' }], author: { name: 'Ada' } }]);
      const reads = await takeReads(server);
      expect(reads.map((read) => `${read.action} ${read.uid}`)).toEqual([
        `beforeFindMany ${ARTICLE}`,
        `afterFindMany ${ARTICLE}`,
      ]);
      expect(reads[0]?.params).toEqual({
        locale: 'en',
        offset: 0,
        limit: 25,
        where: { publishedAt: { $notNull: true }, locale: 'en' },
      });
    });

    it("a populate reads the related types' rows without their hooks (REST and strapi.documents)", async () => {
      const answer = ok(
        await get('/api/articles?populate[tags][fields][0]=name&populate[author]=true&fields[0]=title'),
      );
      expect(answer.data[0].tags).toEqual([expect.objectContaining({ name: 'news' })]);
      const params = {
        locale: 'en',
        select: ['id', 'documentId', 'title'],
        populate: { tags: { select: ['id', 'documentId', 'name'] }, author: true },
        offset: 0,
        limit: 25,
        where: { publishedAt: { $notNull: true }, locale: 'en' },
      };
      expect(await takeReads(server)).toEqual([
        ...pair('FindMany', ARTICLE, params, { rows: 1, keys: ['author', 'documentId', 'id', 'tags', 'title'] }),
        ...pair('Count', ARTICLE, params, 1),
      ]);

      ok(await documents('findMany', ARTICLE, { populate: ['tags', 'author'], fields: ['title'] }));
      const reads = await takeReads(server);
      expect(reads.map((read) => `${read.action} ${read.uid}`)).toEqual([
        `beforeFindMany ${ARTICLE}`,
        `afterFindMany ${ARTICLE}`,
      ]);
      // Strapi passes the project's own `populate: ['tags', 'author']` on; Cairn its object form
      expect(reads[0]?.params).toEqual({
        locale: 'en',
        select: ['id', 'documentId', 'title'],
        populate: { tags: true, author: true },
        where: { publishedAt: { $null: true }, locale: 'en' },
      });
    });

    it("the admin panel's list and edit view fire the reads of their documents", async () => {
      const cm = (path: string) =>
        server.request('GET', `/content-manager/collection-types/${NOTE}${path}`, { auth: { jwt: adminJwt } });
      expect(ok(await cm('?page=1&pageSize=10&sort=title:ASC')).pagination.total).toBe(3);
      // Strapi's params also carry the content manager's populate of creators and localizations
      // (and its `ASC`); Cairn's content manager reads those apart.
      const list = await takeReads(server);
      expect(list.map((read) => read.action)).toEqual(['beforeFindMany', 'afterFindMany', 'beforeCount', 'afterCount']);
      expect(list[0]?.params).toMatchObject({ where: {}, offset: 0, limit: 10 });
      expect(list[1]?.result).toEqual({ rows: 3, keys: NOTE_ROW });
      expect(list[3]?.result).toBe(3);

      expect(ok(await cm(`/${ids.alpha}`)).data.title).toBe('Alpha');
      const edit = await takeReads(server);
      expect(edit.map((read) => read.action)).toEqual(['beforeFindOne', 'afterFindOne']);
      expect(edit[0]?.params).toMatchObject({ where: { documentId: ids.alpha } });
    });

    it('strapi.documents() in project code: findMany, findOne, findFirst and count fire their events', async () => {
      const titles = ok(
        await documents('findMany', NOTE, {
          filters: { title: { $eq: 'Alpha' } },
          fields: ['title'],
          sort: 'title:asc',
        }),
      );
      expect(titles.result).toEqual([{ id: expect.any(Number), documentId: ids.alpha, title: 'Alpha' }]);
      ok(await documents('findMany', NOTE, { start: 1, limit: 1, sort: 'title:asc' }));
      ok(await documents('findOne', NOTE, { documentId: ids.beta }));
      ok(await documents('findFirst', NOTE, { filters: { title: { $eq: 'Beta' } } }));
      expect(ok(await documents('count', NOTE, { filters: { pinned: { $eq: true } } })).result).toBe(1);
      ok(await documents('findMany', PRODUCT, { status: 'published', fields: ['name'] }));
      expect(await takeReads(server)).toEqual([
        ...pair(
          'FindMany',
          NOTE,
          { orderBy: [{ title: 'asc' }], where: { title: { $eq: 'Alpha' } }, select: ['id', 'documentId', 'title'] },
          { rows: 1, keys: ['documentId', 'id', 'title'] },
        ),
        ...pair(
          'FindMany',
          NOTE,
          { orderBy: [{ title: 'asc' }], offset: 1, limit: 1, where: {} },
          { rows: 1, keys: NOTE_ROW },
        ),
        ...pair('FindOne', NOTE, { where: { documentId: ids.beta } }, { keys: NOTE_ROW }),
        ...pair('FindOne', NOTE, { where: { title: { $eq: 'Beta' } } }, { keys: NOTE_ROW }),
        ...pair('Count', NOTE, { where: { pinned: { $eq: true } } }, 1),
        ...pair(
          'FindMany',
          PRODUCT,
          { select: ['id', 'documentId', 'name'], where: { publishedAt: { $notNull: true } } },
          { rows: 1, keys: ['documentId', 'id', 'name'] },
        ),
      ]);
    });

    it('a read whose hooks may change its answer is never answered from what the server remembered', async () => {
      const first = await get(`/api/notes/${ids.beta}`);
      expect(ok(first).data.title).toBe('Beta');
      const etag = String(first.headers.etag);
      await takeReads(server);
      const again = await server.request('GET', `/api/notes/${ids.beta}`, {
        auth: 'full',
        headers: { 'if-none-match': etag },
      });
      expect(again.status).toBe(304);
      expect((await takeReads(server)).map((read) => read.action)).toEqual(['beforeFindOne', 'afterFindOne']);
    });
  });

for (const database of inject('databases'))
  describe(`[${database}] project code: a type without read hooks`, () => {
    let server: TestServer;
    // examples/blog with one lifecycles file: reads of tags are hooked, reads of authors are not.
    beforeAll(async () => {
      server = await startTestServer({
        database,
        files: {
          'src/api/tag/content-types/tag/lifecycles.js': `
            const { errors } = require('@strapi/utils');
            module.exports = {
              beforeFindMany(event) {
                if (JSON.stringify(event.params.where).includes('hidden')) throw new errors.ApplicationError('No hidden tags');
              },
            };`,
        },
      });
      for (const name of ['Ada', 'Grace'])
        ok(await server.request('POST', '/api/authors', { auth: 'full', body: { data: { name } } }), 201);
    });
    afterAll(() => server?.close());

    /** The statements a public GET ran (the webhook queue's sweep left out). */
    const statementsOf = async (path: string) => {
      server.resetQueries();
      ok(await server.request('GET', path));
      return server.queries
        .filter((query) => !query.sql.includes('cairn_webhook_deliveries'))
        .map((query) => query.sql);
    };

    it('reads as before: the same statements, of the columns it answers only', async () => {
      const ada = ok(await server.request('GET', '/api/authors?filters[name][$eq]=Ada')).data[0];
      const reads = [
        await statementsOf('/api/authors'),
        await statementsOf('/api/authors?pagination[withCount]=false'),
        await statementsOf(`/api/authors/${ada.documentId}`),
      ];
      expect(reads.map((statements) => statements.length)).toEqual([2, 1, 1]);
      // a hooked read gets whole rows (the private `locale` column of a type that is not localized too)
      expect(reads.flat().some((sql) => sql.includes('locale'))).toBe(false);
      expect((await statementsOf('/api/tags'))[0]).toContain('locale');
      // while the hooked type's hooks run
      const refused = await server.request('GET', '/api/tags?filters[name][$eq]=hidden');
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json.error.message).toBe('No hidden tags');
    });
  });
