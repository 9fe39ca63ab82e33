import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Republishing a document replaces its published row; writes linking to that row at the same
 * moment must neither lose their link (a delete cascading it away after the publish moved the
 * others) nor fail. Authors are made draft & publish here, so an article's published row links
 * to the author's published row, which every author update replaces.
 */
const DRAFT_AND_PUBLISH_AUTHOR = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'authors',
  info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
  options: { draftAndPublish: true },
  attributes: {
    name: { type: 'string', required: true },
    bio: { type: 'text' },
    articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' },
  },
});

for (const database of inject('databases')) {
  describe(`[${database}] republishing a document that other writes link to`, () => {
    let server: TestServer;
    const sql = (text: string) => server.app.db.all({ sql: text, params: [] });
    const put = async (path: string, data: Record<string, unknown>) =>
      (await server.request('PUT', path, { auth: 'full', body: { data } })).status;
    beforeAll(async () => {
      server = await startTestServer({
        database,
        files: { 'src/api/author/content-types/author/schema.json': DRAFT_AND_PUBLISH_AUTHOR },
      });
    });
    afterAll(() => server.close());

    it('4 articles linking an author while it is republished twice, 30 rounds: every write 200, every published article linked to one published author', async () => {
      const create = async (plural: string, data: Record<string, unknown>) =>
        (await server.request('POST', `/api/${plural}`, { auth: 'full', body: { data } })).json.data
          .documentId as string;
      const authors = [await create('authors', { name: 'X' }), await create('authors', { name: 'Y' })];
      const articles = await Promise.all([0, 1, 2, 3].map((i) => create('articles', { title: `linked ${i}` })));
      for (let round = 0; round < 30; round += 1) {
        const author = authors[round % 2] as string;
        const statuses = await Promise.all([
          ...articles.map((article) =>
            put(`/api/articles/${article}`, { summary: `round ${round}`, author, editor: author }),
          ),
          put(`/api/authors/${author}`, { bio: `round ${round}` }),
          put(`/api/authors/${author}`, { bio: `round ${round} again` }),
        ]);
        expect(statuses).toEqual(Array(6).fill(200));
      }
      const unlinked = await sql(`select a.id from articles a where a.published_at is not null and (
          (select count(*) from articles_author_lnk l join authors t on t.id = l.author_id where l.article_id = a.id and t.published_at is not null) <> 1
          or (select count(*) from articles_editor_lnk l join authors t on t.id = l.author_id where l.article_id = a.id and t.published_at is not null) <> 1)`);
      expect(unlinked).toEqual([]);
    }, 180_000);
  });
}
