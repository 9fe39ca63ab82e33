import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Principal } from '../src/access/principal.js';
import type { DocumentService } from '../src/documents/document-service.js';
import type { Change } from '../src/events/change-bus.js';
import type { Document } from '../src/shape/shape-rows.js';
import { normalizeQuery } from '../src/query/normalize-query.js';
import type { Query } from '../src/query/query-types.js';
import type { ContentType } from '../src/schema/types.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * The document service itself, without HTTP (issue 17): every verb for every kind of caller,
 * with the caller's view applied by the service (a relation to authors is populated, filtered,
 * sorted and written only by callers that may `find` authors), and the change bus told exactly
 * once per committed write, after its commit, and never for a read or a rolled-back write.
 */

/** Public may read articles only; the Authenticated role also authors. */
const PERMISSIONS = `
const crud = (uid) => ['find', 'findOne', 'create', 'update', 'delete'].map((a) => uid + '.' + a);
module.exports = () => ({
  public: [...crud('api::article.article'), 'api::global.global.find', 'api::global.global.update'],
  authenticated: [...crud('api::article.article'), 'api::author.author.find'],
});
`;

interface CallerCase {
  readonly name: string;
  readonly mayFindAuthors: boolean;
  readonly caller: (server: TestServer) => Promise<Principal>;
}

const token = (type: 'full-access' | 'read-only' | 'custom', permissions: string[] = []): Principal => ({
  kind: 'apiToken',
  token: { id: 0, type, expiresAt: null, lastUsedAt: null, permissions: new Set(permissions) },
});

const CALLERS: readonly CallerCase[] = [
  { name: 'public', mayFindAuthors: false, caller: async () => ({ kind: 'public' }) },
  { name: 'full-access token', mayFindAuthors: true, caller: async () => token('full-access') },
  { name: 'read-only token', mayFindAuthors: true, caller: async () => token('read-only') },
  {
    name: 'custom token (articles only)',
    mayFindAuthors: false,
    caller: async () => token('custom', ['api::article.article.find', 'api::article.article.create']),
  },
  {
    name: 'user with the Authenticated role',
    mayFindAuthors: true,
    caller: async (server) => {
      const [role] = await server.app.db.all({
        sql: "select id from up_roles where type = 'authenticated'",
        params: [],
      });
      return { kind: 'user', user: { id: 1, roleId: Number(role?.id), sessionId: null } };
    },
  },
];

const refusedAuthor = { status: 400, message: 'Invalid key author' };

for (const database of inject('databases')) {
  describe(`[${database}] the document service`, () => {
    let server: TestServer;
    let documents: DocumentService;
    let article: ContentType;
    let global: ContentType;
    let author: ContentType;
    let adaId: string;
    const changes: Change[] = [];
    const query = (type: ContentType, raw: Record<string, unknown> = {}): Query =>
      normalizeQuery(server.app.project.schema, type, raw, {
        api: server.app.project.config.api,
        defaultLocale: server.app.project.config.i18n.defaultLocale,
      });
    /** The changes `work` made the bus publish (what it publishes while it runs). */
    const published = async (work: () => Promise<unknown>): Promise<Change[]> => {
      changes.length = 0;
      await work().catch(() => undefined);
      return [...changes];
    };
    const kinds = (list: Change[]) =>
      list.map((change) => (change.subject === 'document' ? `${change.kind} ${change.documentId}` : change.kind));
    const rowCount = async () =>
      Number((await server.app.db.all({ sql: 'select count(*) as n from articles', params: [] }))[0]?.n);

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/permissions.js': PERMISSIONS } });
      documents = server.app.documents;
      article = server.app.project.schema.contentTypes.get('api::article.article') as ContentType;
      global = server.app.project.schema.contentTypes.get('api::global.global') as ContentType;
      author = server.app.project.schema.contentTypes.get('api::author.author') as ContentType;
      adaId = String((await documents.create(author, { name: 'Ada' }, query(author), token('full-access'))).documentId);
      server.app.changes.subscribe({ changed: (change) => void changes.push(change) });
    });
    afterAll(() => server.close());

    for (const { name, mayFindAuthors, caller: callerOf } of CALLERS) {
      it(`${name}: every verb, the author relation ${mayFindAuthors ? 'readable and writable' : 'dropped from populate and refused in filters, sorts and data'}, one change per committed write`, async () => {
        const caller = await callerOf(server);
        const withAuthor = query(article, { populate: { author: { fields: ['name'] } } });
        const byAuthor = query(article, { filters: { author: { name: { $eq: 'Ada' } } } });
        const sortedByAuthor = query(article, { sort: 'author.name:asc' });

        // create: the relation in the data is written only by callers that may read authors.
        const before = await rowCount();
        const createdWith = await published(() =>
          documents.create(article, { title: `${name} with author`, author: adaId }, withAuthor, caller),
        );
        if (mayFindAuthors) {
          expect(createdWith).toHaveLength(1);
          expect(createdWith[0]).toMatchObject({ subject: 'document', kind: 'create', published: true, locale: 'en' });
          const stored = await documents.findMany(
            article,
            { ...withAuthor, filters: { kind: 'compare', field: 'title', op: 'eq', value: `${name} with author` } },
            token('full-access'),
          );
          expect(stored.documents.map((document) => document.author)).toEqual([
            expect.objectContaining({ name: 'Ada' }),
          ]);
        } else {
          await expect(
            documents.create(article, { title: 'refused', author: adaId }, withAuthor, caller),
          ).rejects.toMatchObject(refusedAuthor);
          expect(createdWith).toEqual([]);
          // Nothing was written: the draft and published rows of a create come together or not at all.
          expect(await rowCount()).toBe(before);
        }

        const draftQuery = query(article, { status: 'draft', populate: { author: { fields: ['name'] } } });
        const created = await documents.create(article, { title: `${name} plain` }, draftQuery, caller);
        const documentId = String(created.documentId);
        expect('author' in created).toBe(mayFindAuthors);

        // Reads publish nothing; populate keeps the author only for callers that may read it.
        const reads = await published(async () => {
          const many = await documents.findMany(article, withAuthor, caller);
          const withAnAuthor = many.documents.filter((document) => 'author' in document);
          if (mayFindAuthors) expect(withAnAuthor.length).toBeGreaterThan(0);
          else expect(withAnAuthor).toEqual([]);
          const one = await documents.findOne(article, documentId, query(article, { status: 'draft' }), caller);
          expect(one?.title).toBe(`${name} plain`);
          const first = await documents.findFirst(article, withAuthor, caller);
          expect(first === null ? false : 'author' in first).toBe(mayFindAuthors);
          expect(await documents.count(article, query(article, { status: 'draft' }), caller)).toBeGreaterThan(0);
        });
        expect(reads).toEqual([]);

        // Filters and sorts through the author relation, on every read verb.
        for (const read of [
          () => documents.findMany(article, byAuthor, caller),
          () => documents.count(article, byAuthor, caller),
          () => documents.findFirst(article, sortedByAuthor, caller),
          () => documents.findOne(article, documentId, byAuthor, caller),
        ]) {
          if (mayFindAuthors) await read();
          else await expect(read()).rejects.toMatchObject(refusedAuthor);
        }
        if (mayFindAuthors) expect(await documents.count(article, byAuthor, caller)).toBeGreaterThan(0);

        // update: one change; the author in the data as for create; a missing document: null, no change.
        const updated = await published(() =>
          documents.update(article, documentId, { title: `${name} renamed` }, query(article), caller),
        );
        expect(kinds(updated)).toEqual([`update ${documentId}`]);
        expect(updated[0]).toMatchObject({ published: true });
        const linking = () => documents.update(article, documentId, { author: adaId }, query(article), caller);
        if (mayFindAuthors) expect(kinds(await published(linking))).toEqual([`update ${documentId}`]);
        else await expect(linking()).rejects.toMatchObject(refusedAuthor);
        expect(
          await published(() => documents.update(article, 'nosuchdocument', { title: 'x' }, query(article), caller)),
        ).toEqual([]);
        expect(await documents.update(article, 'nosuchdocument', { title: 'x' }, query(article), caller)).toBeNull();

        // A write that fails inside its transaction (its unique check) is rolled back: no change.
        const duplicate = () => documents.create(author, { name: 'Ada' }, query(author), caller);
        expect(await published(duplicate)).toEqual([]);
        await expect(duplicate()).rejects.toMatchObject({ status: 400, message: 'This attribute must be unique' });

        // publish, unpublish, discardDraft: one change each; the populated author as for reads.
        let version: Document | null = null;
        const publishing = await published(
          async () => (version = await documents.publish(article, documentId, withAuthor, caller)),
        );
        expect(kinds(publishing)).toEqual([`publish ${documentId}`]);
        expect(version === null ? null : 'author' in version).toBe(mayFindAuthors);
        expect(kinds(await published(() => documents.unpublish(article, documentId, withAuthor, caller)))).toEqual([
          `unpublish ${documentId}`,
        ]);
        await documents.publish(article, documentId, query(article), caller);
        expect(kinds(await published(() => documents.discardDraft(article, documentId, withAuthor, caller)))).toEqual([
          `discard ${documentId}`,
        ]);
        if (!mayFindAuthors) {
          await expect(documents.publish(article, documentId, byAuthor, caller)).rejects.toMatchObject(refusedAuthor);
        }

        // put (a single type): create then update, one change each.
        const firstPut = await published(() =>
          documents.put(global, { siteName: `${name} site` }, query(global), caller),
        );
        const secondPut = await published(() =>
          documents.put(global, { siteName: `${name} site 2` }, query(global), caller),
        );
        expect(firstPut.map((change) => change.kind)).toEqual(['create']);
        expect(kinds(secondPut)).toEqual([
          `update ${(await documents.findFirst(global, query(global), caller))?.documentId}`,
        ]);

        // delete: one change after it committed; a second delete of the same document: none.
        expect(kinds(await published(() => documents.delete(article, documentId, query(article), caller)))).toEqual([
          `delete ${documentId}`,
        ]);
        expect(await published(() => documents.delete(article, documentId, query(article), caller))).toEqual([]);
        expect(await documents.delete(article, documentId, query(article), caller)).toBe(false);
        expect(kinds(await published(() => documents.delete(global, null, query(global), caller)))).toHaveLength(1);
      });
    }

    it('publish and unpublish: one change each after commit; nothing to do, a failed check or a type without draft & publish: no change', async () => {
      const caller = token('full-access');
      const draft = await documents.create(
        article,
        { title: 'to publish' },
        query(article, { status: 'draft' }),
        caller,
      );
      const documentId = String(draft.documentId);
      const publishedVersion = () =>
        documents.findOne(article, documentId, query(article, { status: 'published' }), caller);
      expect(await publishedVersion()).toBeNull();

      let result: unknown;
      const publishing = await published(
        async () => (result = await documents.publish(article, documentId, query(article), caller)),
      );
      expect(kinds(publishing)).toEqual([`publish ${documentId}`]);
      expect(result).toMatchObject({ documentId, title: 'to publish', publishedAt: expect.any(String) });
      expect((await publishedVersion())?.title).toBe('to publish');

      const unpublishing = await published(
        async () => (result = await documents.unpublish(article, documentId, query(article), caller)),
      );
      expect(kinds(unpublishing)).toEqual([`unpublish ${documentId}`]);
      expect(result).toMatchObject({ documentId, title: 'to publish', publishedAt: null });
      expect(await publishedVersion()).toBeNull();
      // Nothing published any more: null and no change; the draft is still there.
      expect(await published(() => documents.unpublish(article, documentId, query(article), caller))).toEqual([]);
      expect(await documents.unpublish(article, documentId, query(article), caller)).toBeNull();
      expect(await documents.findOne(article, documentId, query(article, { status: 'draft' }), caller)).not.toBeNull();
      expect(await documents.publish(article, 'nosuchdocument', query(article), caller)).toBeNull();

      // A draft without its required title cannot be published: 400, rolled back, no change.
      const untitled = await documents.create(
        article,
        { summary: 'no title yet' },
        query(article, { status: 'draft' }),
        caller,
      );
      const failing = () => documents.publish(article, String(untitled.documentId), query(article), caller);
      expect(await published(failing)).toEqual([]);
      await expect(failing()).rejects.toMatchObject({ status: 400 });
      expect(
        await documents.findOne(article, String(untitled.documentId), query(article, { status: 'published' }), caller),
      ).toBeNull();

      // Authors have no draft & publish.
      const ada = (await documents.findFirst(author, query(author), caller))?.documentId;
      await expect(documents.publish(author, String(ada), query(author), caller)).rejects.toMatchObject({
        status: 400,
      });
      await expect(documents.unpublish(author, String(ada), query(author), caller)).rejects.toMatchObject({
        status: 400,
      });
    });
  });
}

/** Authors with draft & publish, so that an article's draft and published rows link to different author rows. */
const DRAFT_AND_PUBLISH_AUTHOR = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'authors',
  info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
  options: { draftAndPublish: true },
  attributes: {
    name: { type: 'string', required: true },
    articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' },
  },
});

for (const database of inject('databases')) {
  describe(`[${database}] discarding a draft`, () => {
    let server: TestServer;
    const caller = token('full-access');
    const sql = (text: string) => server.app.db.all({ sql: text, params: [] });
    beforeAll(async () => {
      server = await startTestServer({
        database,
        files: { 'src/api/author/content-types/author/schema.json': DRAFT_AND_PUBLISH_AUTHOR },
      });
    });
    afterAll(() => server.close());

    it('the draft becomes a copy of the published version again: scalars, component, relation to the author draft; one change; nothing left behind', async () => {
      const { documents, project } = server.app;
      const type = (uid: string) => project.schema.contentTypes.get(uid) as ContentType;
      const article = type('api::article.article');
      const author = type('api::author.author');
      const query = (model: ContentType, raw: Record<string, unknown> = {}) =>
        normalizeQuery(project.schema, model, raw, {
          api: project.config.api,
          defaultLocale: project.config.i18n.defaultLocale,
        });
      const ada = String((await documents.create(author, { name: 'Ada' }, query(author), caller)).documentId);
      const grace = String((await documents.create(author, { name: 'Grace' }, query(author), caller)).documentId);
      const created = await documents.create(
        article,
        { title: 'Published title', author: ada, seo: { metaTitle: 'Published seo' } },
        query(article),
        caller,
      );
      const documentId = String(created.documentId);
      await documents.update(
        article,
        documentId,
        { title: 'Draft title', author: grace, seo: { metaTitle: 'Draft seo' } },
        query(article, { status: 'draft' }),
        caller,
      );
      const read = (status: 'draft' | 'published') =>
        documents.findOne(
          article,
          documentId,
          query(article, { status, populate: { author: { fields: ['name', 'publishedAt'] }, seo: true } }),
          caller,
        );
      expect(await read('draft')).toMatchObject({
        title: 'Draft title',
        author: { name: 'Grace' },
        seo: { metaTitle: 'Draft seo' },
      });

      const changes: Change[] = [];
      const off = server.app.changes.subscribe({ changed: (change) => void changes.push(change) });
      const discarded = await documents.discardDraft(article, documentId, query(article), caller);
      off();
      expect(changes.map((change) => change.kind)).toEqual(['discard']);
      expect(discarded).toMatchObject({ documentId, title: 'Published title', publishedAt: null });
      // The draft links the author's draft (publishedAt null), the published version its published row.
      expect(await read('draft')).toMatchObject({
        title: 'Published title',
        author: { documentId: ada, publishedAt: null },
        seo: { metaTitle: 'Published seo' },
      });
      expect(await read('published')).toMatchObject({
        title: 'Published title',
        author: { documentId: ada, publishedAt: expect.any(String) },
        seo: { metaTitle: 'Published seo' },
      });
      // One draft and one published row; no component row without its article.
      const rows = await sql(`select published_at from articles where document_id = '${documentId}'`);
      expect(rows.map((row) => (row.published_at === null ? 'draft' : 'published')).sort()).toEqual([
        'draft',
        'published',
      ]);
      const orphans = await sql(
        'select count(*) as n from components_shared_seos c where not exists (select 1 from articles_cmps l where l.cmp_id = c.id)',
      );
      expect(Number(orphans[0]?.n)).toBe(0);

      // Publishing the restored draft links the published author again.
      await documents.publish(article, documentId, query(article), caller);
      expect(await read('published')).toMatchObject({ author: { documentId: ada, publishedAt: expect.any(String) } });

      // A document never published has nothing to go back to: null, no change.
      const draftOnly = await documents.create(
        article,
        { title: 'Only a draft' },
        query(article, { status: 'draft' }),
        caller,
      );
      changes.length = 0;
      const again = server.app.changes.subscribe({ changed: (change) => void changes.push(change) });
      expect(await documents.discardDraft(article, String(draftOnly.documentId), query(article), caller)).toBeNull();
      again();
      expect(changes).toEqual([]);
    });
  });
}
