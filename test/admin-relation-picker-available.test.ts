import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ARTICLES, AUTHORS, TAGS, expectError, startAdminClient, type AdminClient } from './support/admin-client.js';
import { relation, schemaFile } from './support/content-types.js';

/*
 * What the edit view's relation dropdown offers (`GET /content-manager/relations/:model/:field`),
 * as Strapi 5's `findAvailable` answers the panel's query: `id` (the document being edited, or a
 * component row) leaves out what it already links, `idsToOmit` what the form just linked,
 * `idsToInclude` brings back what the form just unlinked, and `status` picks the targets'
 * version when the source has draft & publish. On every database.
 */
const RELATIONS = '/content-manager/relations';
const FEATURES = '/content-manager/collection-types/api::feature.feature';
/** A draft & publish type whose relation leads to articles (also draft & publish). */
const FEATURE = schemaFile({
  singularName: 'feature',
  pluralName: 'features',
  displayName: 'Feature',
  draftAndPublish: true,
  attributes: { name: { type: 'string' }, picks: relation('manyToMany', 'api::article.article') },
});

type Listed = { results: Record<string, unknown>[]; pagination: Record<string, number> };

for (const database of inject('databases')) {
  describe(`[${database}] the relation dropdown leaves out what is linked`, () => {
    let client: AdminClient;
    const ids: Record<string, { id: number; documentId: string }> = {};
    const call = (method: string, path: string, body?: unknown) => client.call(method, path, body);
    /** `{{Name}}` → the row id of the document created as Name; `{{Name.doc}}` → its documentId. */
    const fill = (path: string) =>
      path.replace(/\{\{([\w ]+?)(\.doc)?\}\}/g, (_, name: string, doc?: string) => {
        const entry = ids[name];
        if (!entry) throw new Error(`no fixture named ${name}`);
        return doc ? entry.documentId : String(entry.id);
      });
    const offered = async (path: string, key = 'name'): Promise<unknown[]> => {
      const response = await call('GET', `${RELATIONS}/${fill(path)}`);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      const answer = response.json as Listed;
      expect(answer.pagination.total, path).toBe(answer.results.length);
      return answer.results.map((item) => item[key]);
    };
    const create = async (path: string, name: string, body: Record<string, unknown>) => {
      const response = await call('POST', path, body);
      expect(response.status, response.text).toBe(201);
      ids[name] = response.json.data;
      return response.json.data as { id: number; documentId: string };
    };
    const connect = (...names: string[]) => ({ connect: names.map((name) => ({ documentId: ids[name]?.documentId })) });

    beforeAll(async () => {
      client = await startAdminClient(database, { files: FEATURE });
      for (const name of ['Tag A', 'Tag B', 'Tag C', 'Tag D']) await create(TAGS, name, { name });
      for (const name of ['Ann', 'Bob']) await create(AUTHORS, name, { name });
      await create(`${ARTICLES}?locale=en`, 'Linked', {
        title: 'Linked',
        tags: connect('Tag A', 'Tag B'),
        author: connect('Ann'),
        blocks: [{ __component: 'shared.quote', title: 'q', author: connect('Bob') }],
      });
      const french = await call('PUT', `${ARTICLES}/${ids.Linked?.documentId}?locale=fr`, {
        title: 'Lié',
        tags: connect('Tag D'),
      });
      expect(french.status, french.text).toBe(200);
    });
    afterAll(() => client?.server.close());

    it('leaves out the targets the edited document links, in its locale', async () => {
      const cases: [string, string[]][] = [
        ['api::article.article/tags', ['Tag A', 'Tag B', 'Tag C', 'Tag D']],
        ['api::article.article/tags?id=', ['Tag A', 'Tag B', 'Tag C', 'Tag D']],
        ['api::article.article/tags?id={{Linked.doc}}&locale=en', ['Tag C', 'Tag D']],
        ['api::article.article/tags?id={{Linked.doc}}&locale=fr', ['Tag A', 'Tag B', 'Tag C']],
        ['api::article.article/tags?id={{Linked.doc}}&locale=en&_q=tag%20c', ['Tag C']],
        ['api::article.article/tags?id={{Linked.doc}}&locale=en&page=1&pageSize=10&status=draft', ['Tag C', 'Tag D']],
        ['api::article.article/author?id={{Linked.doc}}&locale=en', ['Bob']],
        ['api::article.article/editor?id={{Linked.doc}}&locale=en', ['Ann', 'Bob']],
        ['api::tag.tag/articles?id={{Tag A.doc}}&locale=en', []],
        ['api::tag.tag/articles?id={{Tag C.doc}}&locale=en', ['Linked']],
        ['api::author.author/articles?id={{Ann.doc}}&locale=en', []],
      ];
      for (const [path, expected] of cases) {
        const key = path.startsWith('api::tag.tag') || path.startsWith('api::author') ? 'title' : 'name';
        expect(await offered(path, key), path).toEqual(expected);
      }
    });

    it('leaves out what the form just linked and brings back what it just unlinked', async () => {
      const base = 'api::article.article/tags?id={{Linked.doc}}&locale=en';
      const cases: [string, string[]][] = [
        [`${base}&idsToOmit[0]={{Tag C}}`, ['Tag D']],
        [`${base}&idsToInclude[0]={{Tag A}}`, ['Tag A', 'Tag C', 'Tag D']],
        [`${base}&idsToInclude[0]={{Tag A}}&idsToOmit[0]={{Tag C}}&idsToOmit[1]={{Tag D}}`, ['Tag A']],
        [`${base}&idsToInclude[0]={{Tag A}}&idsToInclude[1]={{Tag B}}`, ['Tag A', 'Tag B', 'Tag C', 'Tag D']],
        // Ids that name no row (not a number, out of range) name nothing.
        [`${base}&idsToInclude[0]=abc&idsToOmit[0]=-1&idsToOmit[1]=99999999999`, ['Tag C', 'Tag D']],
        [`${base}&idsToOmit[0]={{Tag C}}&idsToOmit[1]={{Tag C}}`, ['Tag D']],
        // Without an edited document, idsToInclude changes nothing and idsToOmit still applies.
        ['api::article.article/tags?idsToOmit[0]={{Tag A}}&idsToInclude[0]={{Tag B}}', ['Tag B', 'Tag C', 'Tag D']],
      ];
      for (const [path, expected] of cases) expect(await offered(path), path).toEqual(expected);
    });

    it('leaves out what a component row links, named by its id', async () => {
      const article = await call('GET', `${ARTICLES}/${ids.Linked?.documentId}?locale=en`);
      const quote = article.json.data.blocks[0] as { id: number };
      expect(await offered(`shared.quote/author?id=${quote.id}&locale=en`)).toEqual(['Ann']);
      expect(await offered(`shared.quote/author?id=${quote.id}&idsToInclude[0]={{Bob}}`)).toEqual(['Ann', 'Bob']);
      expect(await offered('shared.quote/author?id=&locale=en')).toEqual(['Ann', 'Bob']);
    });

    it('answers 404 for an edited document or component row that does not exist', async () => {
      for (const path of [
        `${RELATIONS}/api::article.article/tags?id=gone0000000000000000000000`,
        `${RELATIONS}/api::article.article/tags?id=${ids.Linked?.documentId}&locale=de`,
        `${RELATIONS}/shared.quote/author?id=99999999`,
        `${RELATIONS}/shared.quote/author?id=abc`,
      ])
        expectError(await call('GET', path), 404, 'NotFoundError');
    });

    it('offers the targets in the version the status asks for when the source has draft & publish', async () => {
      await create(`${ARTICLES}?locale=en`, 'Draft only', { title: 'Draft only' });
      const live = await create(`${ARTICLES}?locale=en`, 'Live', { title: 'Live' });
      expect((await call('POST', `${ARTICLES}/${live.documentId}/actions/publish?locale=en`, {})).status).toBe(200);
      const feature = await create(FEATURES, 'Feature', { name: 'Feature', picks: connect('Live') });
      const picks = (query: string) => offered(`api::feature.feature/picks?locale=en${query}`, 'title');

      expect(await picks('&_q=l')).toEqual(['Draft only', 'Linked', 'Live']);
      expect(await picks('&_q=l&status=published')).toEqual(['Live']);
      expect(await picks('&_q=l&status=draft&id={{Feature.doc}}')).toEqual(['Draft only', 'Linked']);
      // The feature has no published version yet.
      expectError(
        await call('GET', `${RELATIONS}/api::feature.feature/picks?status=published&id=${feature.documentId}`),
        404,
        'NotFoundError',
      );
      expect((await call('POST', `${FEATURES}/${feature.documentId}/actions/publish`, {})).status).toBe(200);
      expect(await picks('&status=published&id={{Feature.doc}}')).toEqual([]);
      expect(await picks('&_q=l&status=published')).toEqual(['Live']);
      const published = (await call('GET', `${RELATIONS}/api::feature.feature/picks?status=published&locale=en`)).json;
      expect(published.results).toEqual([expect.objectContaining({ title: 'Live', status: 'published' })]);
      expect(published.results[0].publishedAt).not.toBeNull();

      // A source without draft & publish (a tag) is offered drafts whatever the status, as Strapi's validateStatus reads it.
      expect(await offered('api::tag.tag/articles?locale=en&status=published&_q=live', 'title')).toEqual(['Live']);
      const tagged = (await call('GET', `${RELATIONS}/api::tag.tag/articles?locale=en&status=published&_q=live`)).json;
      expect(tagged.results[0]).toMatchObject({ title: 'Live', publishedAt: null });
    });

    it('costs the same statements however many targets the edited document links', async () => {
      const statements = async (path: string) => {
        client.server.resetQueries();
        await offered(path);
        return client.server.queries.length;
      };
      const few = await statements('api::article.article/tags?id={{Linked.doc}}&locale=en&idsToOmit[0]={{Tag C}}');
      await create(`${ARTICLES}?locale=en`, 'Many', { title: 'Many', tags: connect('Tag A', 'Tag B', 'Tag C') });
      expect(await statements('api::article.article/tags?id={{Many.doc}}&locale=en&idsToOmit[0]={{Tag D}}')).toBe(few);
      // The edited document is looked up once; its links are a NOT EXISTS inside the page and its COUNT.
      expect(few).toBe((await statements('api::article.article/tags')) + 1);
    });
  });
}
