import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Transaction } from '../src/db/database.js';
import { findVersionIds } from '../src/documents/document-rows.js';
import { deleteMorphRows } from '../src/documents/write-media.js';
import { documentRows } from '../src/documents/write-locks.js';
import { loadProject } from '../src/project/load-project.js';
import { getModel, type ContentType, type Schema } from '../src/schema/types.js';
import { compileDelete } from '../src/sql/compile-write.js';
import { insertFile } from './support/files.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Writes of unrelated rows lock none of each other's rows. MySQL locks every row a DELETE or a
 * SELECT … FOR UPDATE reads, even one it then finds does not match, so such a statement must read
 * through an index matching its whole condition; otherwise racing writes of different documents
 * wait for each other, and deadlock. Two tests run Cairn's own statement in one transaction and
 * keep it open, then run the same statement for an unrelated row in a second transaction, which
 * gives up on any lock wait after a second; one checks, through HTTP, that every such statement
 * names its index on MySQL (and none does elsewhere). SQLite runs one write transaction at a time.
 *
 * Seen before the fix in test/concurrent-writes (12 clients, MySQL, innodb_print_all_deadlocks):
 * - A row's media (`files_related_mph`, `related_id = ? and related_type = ?`) were deleted through
 *   Strapi's index on `related_id` alone: article 7's media write locked component 7's morph rows
 *   (7 deadlocks a run). The first test fails on MySQL without Cairn's index.
 * - Two publishes, each holding its own draft row (updated first), waited for each other's: each
 *   read rows of the other's document while locking its own (2 deadlocks in 5 runs), which a read
 *   through `<table>_documents_idx` never does. The planner's choice under that load is not
 *   reproduced here (with a few rows it picks the index): the HTTP test checks the index is named.
 */
for (const database of inject('databases').filter((name) => name !== 'sqlite')) {
  describe(`[${database}] writes of unrelated rows`, () => {
    let server: TestServer;
    let schema: Schema;
    /** A statement with `?` placeholders, written in the dialect's own. */
    const sql = (text: string, params: unknown[] = []) => {
      let index = 0;
      return { sql: text.replace(/\?/g, () => server.app.db.dialect.placeholder((index += 1))), params };
    };

    /**
     * Runs `first` in a transaction kept open until `second` has run in another one, whose lock
     * waits fail after a second; answers what each returned.
     */
    async function oneWhileTheOtherHoldsItsLocks<A, B>(
      first: (tx: Transaction) => Promise<A>,
      second: (tx: Transaction) => Promise<B>,
    ): Promise<[A, B]> {
      const db = server.app.db;
      let firstRan!: () => void;
      const firstHoldsLocks = new Promise<void>((resolve) => (firstRan = resolve));
      let releaseFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
      const firstDone = db.transaction(async (tx) => {
        const result = await first(tx);
        firstRan();
        await firstMayCommit;
        return result;
      });
      await Promise.race([firstHoldsLocks, firstDone]);
      try {
        const secondResult = await db.transaction(async (tx) => {
          if (database === 'postgres') await tx.run(sql("set local lock_timeout = '1s'"));
          else await tx.run(sql('set session innodb_lock_wait_timeout = 1'));
          try {
            return await second(tx);
          } finally {
            // The session outlives the transaction (a pooled connection): back to the server's default.
            if (database === 'mysql') await tx.run(sql('set session innodb_lock_wait_timeout = default'));
          }
        });
        releaseFirst();
        return [await firstDone, secondResult];
      } finally {
        releaseFirst();
      }
    }

    beforeAll(async () => {
      server = await startTestServer({ database });
      schema = (await loadProject(server.dir, {})).schema;
    });
    afterAll(() => server.close());

    it('an article’s media and a component’s of the same row id are replaced at once', async () => {
      const relatedId = 7;
      const deleteMorphs = (tx: Transaction, uid: string) => {
        const model = getModel(schema, uid);
        if (!model) throw new Error(`no model ${uid}`);
        return tx.run(compileDelete(server.app.db.dialect, deleteMorphRows(model, [relatedId])));
      };
      const db = server.app.db;
      const file = await insertFile(server, 'shared.png');
      // The media of rows 1–20 of three types, as a project holds them (a planner picks an index
      // by the rows it expects to read: a table of two rows would not tell).
      for (let id = 1; id <= 20; id += 1)
        for (const [type, field] of [
          ['api::article.article', 'cover'],
          ['shared.media-block', 'file'],
          ['api::author.author', 'avatar'],
        ] as const)
          await db.run(
            sql(
              `insert into files_related_mph (file_id, related_id, related_type, field, ${db.dialect.quoteIdentifier('order')}) values (?, ?, ?, ?, 1)`,
              [file, id, type, field],
            ),
          );

      const deleted = await oneWhileTheOtherHoldsItsLocks(
        (tx) => deleteMorphs(tx, 'api::article.article'),
        (tx) => deleteMorphs(tx, 'shared.media-block'),
      );
      expect(deleted).toEqual([1, 1]);
      const left = await db.all(sql('select related_type from files_related_mph where related_id = ?', [relatedId]));
      expect(left.map((row) => row.related_type)).toEqual(['api::author.author']);
      expect(await db.all(sql('select id from files_related_mph'))).toHaveLength(58);
      // These rows name rows no test made: the next tests' articles would find them theirs.
      await db.run(sql('delete from files_related_mph'));
    });

    it('every statement locking rows names the index matching its condition on MySQL (media replaced, publish, delete through HTTP)', async () => {
      const [one, two] = [await insertFile(server, 'one.png'), await insertFile(server, 'two.png')];
      const created = await server.request('POST', '/api/articles', {
        auth: 'full',
        body: { data: { title: 'Locked through its index', cover: one, seo: { metaTitle: 'seo' } } },
      });
      expect(created.status).toBe(201);
      const documentId = String(created.json?.data?.documentId);
      server.resetQueries();
      // An update publishes (replacing the published row and its media); then the document goes.
      const updated = await server.request('PUT', `/api/articles/${documentId}?populate=cover`, {
        auth: 'full',
        body: { data: { cover: two } },
      });
      expect(updated.status).toBe(200);
      expect(updated.json?.data?.cover?.id).toBe(two);
      expect((await server.request('DELETE', `/api/articles/${documentId}`, { auth: 'full' })).status).toBe(204);
      const statements = server.queries.map((query) => query.sql);
      const mediaDeletes = statements.filter((text) => /^delete\b.*files_related_mph/.test(text));
      const rowLocks = statements.filter((text) => text.endsWith(' for update') && /from .articles./.test(text));
      expect(mediaDeletes.length, statements.join('\n')).toBeGreaterThan(0);
      expect(rowLocks.length, statements.join('\n')).toBeGreaterThanOrEqual(2);
      if (database === 'mysql') {
        for (const text of mediaDeletes) expect(text).toContain('force index (`files_related_mph_related_idx`)');
        for (const text of rowLocks) expect(text).toContain('force index (`articles_documents_idx`)');
      } else expect(statements.filter((text) => text.includes('force index'))).toEqual([]);
    });

    it('two articles are deleted or republished at once (each locks its own rows only)', async () => {
      const articles = schema.contentTypes.get('api::article.article') as ContentType;
      const documentIds: string[] = [];
      for (const title of ['one', 'two', 'three']) {
        const created = await server.request('POST', '/api/articles', { auth: 'full', body: { data: { title } } });
        expect(created.status).toBe(201);
        documentIds.push(String(created.json?.data?.documentId));
      }
      const [first, , third] = documentIds as [string, string, string];
      const dialect = server.app.db.dialect;
      // What a delete locks: every row of its document.
      const [firstRows, thirdRows] = await oneWhileTheOtherHoldsItsLocks(
        (tx) => documentRows(tx, dialect, articles, first, true),
        (tx) => documentRows(tx, dialect, articles, third, true),
      );
      expect([firstRows.length, thirdRows.length]).toEqual([2, 2]);
      // What a publish locks: the published row it replaces.
      const published = { locale: 'en', status: 'published' } as const;
      const [firstIds, thirdIds] = await oneWhileTheOtherHoldsItsLocks(
        (tx) => findVersionIds(tx, dialect, articles, { documentId: first, ...published }, true),
        (tx) => findVersionIds(tx, dialect, articles, { documentId: third, ...published }, true),
      );
      expect([firstIds.length, thirdIds.length]).toEqual([1, 1]);
    });
  });
}
