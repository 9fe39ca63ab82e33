import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rowOf } from '../src/plan/simple-plans.js';
import { compileInsert } from '../src/sql/compile-write.js';
import { insertFile } from './support/files.js';
import { startTestServer, type TestServer } from './support/test-server.js';

for (const database of inject('databases'))
  describe(`[${database}] statements per request do not depend on the number of rows`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database });
    });
    afterAll(() => server.close());

    /**
     * The statements a request ran. On PostgreSQL and MySQL the webhook queue's sweep (every 5 s,
     * on the leader) may run meanwhile: its statements, on the delivery queue, are not the request's.
     */
    const requestQueries = () => server.queries.filter((query) => !query.sql.includes('cairn_webhook_deliveries'));

    async function statementsFor(path: string): Promise<number> {
      server.resetQueries();
      const response = await server.request('GET', path);
      expect(response.status).toBe(200);
      return requestQueries().length;
    }

    it('a list costs one SELECT and one COUNT, for 1 row or 40', async () => {
      await server.request('POST', '/api/tags', { body: { data: { name: 'first' } } });
      const one = await statementsFor('/api/tags');
      for (let i = 0; i < 39; i++) await server.request('POST', '/api/tags', { body: { data: { name: `t${i}` } } });
      const many = await statementsFor('/api/tags?pagination[pageSize]=100');
      expect(one).toBe(2);
      expect(many).toBe(2);
      expect(await statementsFor('/api/tags?pagination[withCount]=false')).toBe(1);
    });

    it('a list filtered through a relation and sorted by a field counts in its page SELECT: one statement, the same totals, a page past the end adds its COUNT', async () => {
      for (let i = 0; i < 7; i++)
        await server.request('POST', '/api/tags', { body: { data: { name: `sorted ${i}` } } });
      // Tags without articles: a filter through the relation (the missing-row branch included).
      const filter = 'filters[articles][id][$null]=true&pagination[pageSize]=3';
      const counted = await server.request('GET', `/api/tags?${filter}`);
      const total: number = counted.json.meta.pagination.total;
      expect(total).toBeGreaterThanOrEqual(7);
      const sorted = `/api/tags?sort=name:desc&${filter}`;
      expect(await statementsFor(sorted)).toBe(1);
      // The total beside the page: a window, or on SQLite a count of the materialized matches.
      expect(requestQueries()[0]?.sql).toMatch(/count\(\*\) over \(\)|\(select count\(\*\) from "m"\)/);
      const pages = Math.ceil(total / 3);
      for (const page of [1, pages]) {
        const response = await server.request('GET', `${sorted}&pagination[page]=${page}`);
        expect(response.json.meta.pagination).toEqual({ page, pageSize: 3, pageCount: pages, total });
        expect(response.json.data.length).toBe(page === pages ? total - 3 * (pages - 1) : 3);
      }
      // Past the last page no row carries the total: the COUNT gives it.
      expect(await statementsFor(`${sorted}&pagination[page]=${pages + 1}`)).toBe(2);
      const past = await server.request('GET', `${sorted}&pagination[page]=${pages + 1}`);
      expect(past.json.data).toEqual([]);
      expect(past.json.meta.pagination).toEqual({ page: pages + 1, pageSize: 3, pageCount: pages, total });
      // Nothing matches: the first page is empty and the total 0, still one statement.
      const none = '/api/tags?sort=name:desc&filters[articles][title][$eq]=nothing-is-called-so';
      expect(await statementsFor(none)).toBe(1);
      expect((await server.request('GET', none)).json.meta.pagination.total).toBe(0);
      // A sort without a relation filter keeps its COUNT (counting the row's own columns is cheap).
      expect(await statementsFor('/api/tags?sort=name:desc')).toBe(2);
    });

    it('one document costs one SELECT', async () => {
      const created = await server.request('POST', '/api/tags', { body: { data: { name: 'one' } } });
      expect(await statementsFor(`/api/tags/${created.json.data.documentId}`)).toBe(1);
    });

    /** Articles with every kind of related data: author, tags, cover, gallery, seo + keywords, three blocks. */
    async function seedArticles(count: number, start: number): Promise<void> {
      const image = await insertFile(server, `image-${start}.png`);
      for (let i = start; i < start + count; i++) {
        const author = await server.request('POST', '/api/authors', { body: { data: { name: `author ${i}` } } });
        const tags = [];
        for (let t = 0; t < 3; t++)
          tags.push(
            (await server.request('POST', '/api/tags', { body: { data: { name: `tag ${i}.${t}` } } })).json.data
              .documentId,
          );
        const data = {
          title: `article ${i}`,
          author: author.json.data.documentId,
          editor: author.json.data.documentId,
          tags,
          cover: image,
          gallery: [image],
          seo: { metaTitle: `seo ${i}`, shareImage: image, keywords: [{ word: 'a' }, { word: 'b' }] },
          blocks: [
            { __component: 'shared.quote', title: 'q', author: author.json.data.documentId },
            { __component: 'shared.rich-text', body: 'r' },
            { __component: 'shared.media-block', file: image },
          ],
        };
        const created = await server.request('POST', '/api/articles', { body: { data } });
        expect(created.status).toBe(201);
      }
    }

    it('populate=* costs one SELECT per populated attribute (a dynamic zone: one per component; a relation or media of a list: two), for 1 article or 30', async () => {
      await seedArticles(1, 0);
      // list + count + 2 × (cover, gallery, author, tags, editor: their links, then each distinct
      // target once) + seo, localizations + 3 dynamic-zone components
      const one = await statementsFor('/api/articles?populate=*');
      await seedArticles(29, 1);
      const many = await statementsFor('/api/articles?populate=*&pagination[pageSize]=30');
      expect(one).toBe(17);
      expect(many).toBe(17);
      // One document: each relation and media joined to its targets in one statement.
      const documentId = (await server.request('GET', '/api/articles?pagination[pageSize]=1')).json.data[0].documentId;
      expect(await statementsFor(`/api/articles/${documentId}?populate=*`)).toBe(11);
      const document = await server.request('GET', '/api/articles?populate=*&pagination[pageSize]=30');
      expect(document.json.data).toHaveLength(30);
      expect(
        document.json.data.every(
          (a: { tags: unknown[]; blocks: unknown[] }) => a.tags.length === 3 && a.blocks.length === 3,
        ),
      ).toBe(true);
    });

    it('a three-level nested populate costs one SELECT per level', async () => {
      const path = '/api/articles?pagination[pageSize]=30&populate[tags][populate][articles][populate][author]=true';
      // list + count + tags (links, then targets) + their articles + those articles' authors
      expect(await statementsFor(path)).toBe(6);
      const response = await server.request('GET', path);
      expect(response.json.data[0].tags[0].articles[0].author.name).toMatch(/^author /);
      // seo → keywords and shareImage, blocks (quote → author → articles): still per node
      const components =
        '/api/articles?pagination[pageSize]=30&populate[seo][populate][keywords]=true&populate[seo][populate][shareImage]=true&populate[blocks][on][shared.quote][populate][author][populate][articles]=true';
      expect(await statementsFor(components)).toBe(2 + 3 + 3);
    });

    it('more parents than one statement binds are read in batches, with nothing lost', async () => {
      const db = server.app.db;
      const article = await server.request('POST', '/api/articles?status=draft', {
        body: { data: { title: 'many tags' } },
      });
      const articleId: number = article.json.data.id;
      const count = 5200;
      const now = new Date('2024-01-01T00:00:00.000Z');
      for (let start = 0; start < count; start += 1000) {
        const size = Math.min(1000, count - start);
        const tags = Array.from({ length: size }, (_, i) =>
          rowOf({
            document_id: [`bulktag${String(start + i).padStart(16, '0')}`, 'string'],
            name: [`bulk ${start + i}`, 'string'],
            created_at: [now, 'datetime'],
            updated_at: [now, 'datetime'],
            published_at: [now, 'datetime'],
          }),
        );
        const ids = await db.insert(compileInsert(db.dialect, { table: 'tags', rows: tags }), size);
        const links = ids.map((tagId, i) =>
          rowOf({
            article_id: [articleId, 'integer'],
            tag_id: [tagId, 'integer'],
            tag_ord: [start + i + 1, 'float'],
            article_ord: [1, 'float'],
          }),
        );
        await db.run(compileInsert(db.dialect, { table: 'articles_tags_lnk', rows: links }));
      }
      server.resetQueries();
      const response = await server.request(
        'GET',
        `/api/articles/${article.json.data.documentId}?status=draft&fields[0]=title&populate[tags][fields][0]=name&populate[tags][populate][articles][count]=true`,
      );
      expect(response.status).toBe(200);
      const tags = response.json.data.tags as { name: string; articles: { count: number } }[];
      expect(tags).toHaveLength(count);
      expect(tags[0]?.name).toBe('bulk 0');
      expect(tags[count - 1]?.name).toBe(`bulk ${count - 1}`);
      expect(tags.every((tag) => tag.articles.count === 1)).toBe(true);
      // article + tags + the tags' article counts in two batches of ids
      expect(requestQueries().length).toBe(4);
    });

    it('an API token adds its lookup', async () => {
      server.resetQueries();
      await server.request('GET', '/api/tags', { auth: 'readonly' });
      expect(requestQueries().length).toBeLessThanOrEqual(4);
      expect(requestQueries().some((q) => q.sql.includes('strapi_api_tokens'))).toBe(true);
    });
  });
