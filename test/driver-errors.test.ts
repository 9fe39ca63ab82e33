import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ValidationError } from '../src/core/errors.js';
import { compileInsert } from '../src/sql/compile-write.js';
import { startTestServer, type TestServer } from './support/test-server.js';

for (const database of inject('databases')) {
  describe(`[${database}] driver errors are translated`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database });
    });
    afterAll(() => server.close());

    it('a unique index violation becomes "This attribute must be unique"', async () => {
      const article = await server.request('POST', '/api/articles', { body: { data: { title: 'a' } } });
      const tag = await server.request('POST', '/api/tags', { body: { data: { name: 't' } } });
      const link = compileInsert(server.app.db.dialect, {
        table: 'articles_tags_lnk',
        rows: [
          new Map([
            ['article_id', { value: article.json.data.id, kind: 'integer' }],
            ['tag_id', { value: tag.json.data.id, kind: 'integer' }],
          ]),
        ],
      });
      await server.app.db.insert(link, 1);
      const error = await server.app.db.insert(link, 1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toBe('This attribute must be unique');
    });

    it('a string longer than its varchar(255) column is a 400, not a 500 (SQLite has no limit)', async () => {
      const response = await server.request('POST', '/api/authors', { body: { data: { name: 'x'.repeat(300) } } });
      if (database === 'sqlite') {
        expect(response.status).toBe(201);
        return;
      }
      expect(response.status).toBe(400);
      expect(response.json.error).toMatchObject({
        name: 'ValidationError',
        message: expect.stringMatching(/^A value is too long for its column/),
      });
    });

    it('an integer beyond its column is a 400, not a 500 (SQLite integers are 64-bit)', async () => {
      const response = await server.request('POST', '/api/articles', {
        body: { data: { title: 'big', views: 3_000_000_000 } },
      });
      if (database === 'sqlite') {
        expect(response.status).toBe(201);
        return;
      }
      expect(response.status).toBe(400);
      expect(response.json.error).toMatchObject({
        name: 'ValidationError',
        message: expect.stringMatching(/^A number is out of range for its column/),
      });
    });

    it('a transaction that fails half-way leaves nothing behind', async () => {
      const before = await server.app.db.all({ sql: 'select count(*) as n from tags', params: [] });
      const failed = await server.app.db
        .transaction(async (tx) => {
          await tx.insert(
            compileInsert(server.app.db.dialect, {
              table: 'tags',
              rows: [new Map([['name', { value: 'rolled back', kind: 'string' }]])],
            }),
            1,
          );
          throw new Error('stop');
        })
        .catch((e: unknown) => e);
      expect((failed as Error).message).toBe('stop');
      const after = await server.app.db.all({ sql: 'select count(*) as n from tags', params: [] });
      expect(Number(after[0]?.n)).toBe(Number(before[0]?.n));
    });
  });
}
