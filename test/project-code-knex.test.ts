import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { apiConfigWith, bearer, probe } from './support/http-cache.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * strapi.db.connection (knex, on Cairn's own connections) and strapi.db.transaction's `trx` (a
 * knex transaction joined to Cairn's), as project code reaches them: examples/blog with an API
 * folder whose controller writes raw SQL and knex queries through custom routes, and a tag
 * lifecycle reading through knex inside a REST write's transaction. Every check over HTTP, on
 * each database.
 */

const FILES = {
  ...apiConfigWith(`{ store: 'memory' }`),
  'src/api/sql/routes/sql.js': `module.exports = {
  routes: [
    { method: 'POST', path: '/sql/tags', handler: 'sql.insert' },
    { method: 'GET', path: '/sql/tags', handler: 'sql.list' },
    { method: 'PUT', path: '/sql/tags/:id', handler: 'sql.rename' },
    { method: 'GET', path: '/sql/raw', handler: 'sql.raw' },
    { method: 'GET', path: '/sql/articles/:documentId', handler: 'sql.article' },
    { method: 'POST', path: '/sql/transaction', handler: 'sql.transaction' },
    { method: 'POST', path: '/sql/rollback', handler: 'sql.rollback' },
    { method: 'POST', path: '/sql/knex-transaction', handler: 'sql.knexTransaction' },
    { method: 'POST', path: '/sql/grant', handler: 'sql.grant' },
    { method: 'POST', path: '/sql/revoke', handler: 'sql.revoke' },
  ],
};`,
  'src/api/sql/controllers/sql.js': `'use strict';
const { randomBytes } = require('crypto');
const { errors } = require('@strapi/utils');

/** A raw query's rows, whatever the driver answered: better-sqlite3 an array, pg { rows }, mysql2 [rows, fields]. */
const rowsOf = (result) => (Array.isArray(result) ? (Array.isArray(result[0]) ? result[0] : result) : result.rows);
const tagRow = (name) => {
  const now = new Date();
  return { document_id: randomBytes(12).toString('hex'), name, created_at: now, updated_at: now, published_at: now };
};

module.exports = ({ strapi }) => ({
  async insert(ctx) {
    const { name } = ctx.request.body;
    await strapi.db.connection('tags').insert(tagRow(name));
    ctx.body = { row: await strapi.db.connection('tags').where({ name }).first('id', 'name') };
  },
  async list(ctx) {
    const rows = await strapi.db
      .connection('tags')
      .where('name', 'like', ctx.query.prefix + '%')
      .orderBy('id')
      .select('id', 'name');
    const { n } = await strapi.db.connection('tags').where('name', 'like', ctx.query.prefix + '%').count('* as n').first();
    ctx.body = { rows, count: Number(n), countType: typeof n };
  },
  async rename(ctx) {
    const changed = await strapi.db
      .connection('tags')
      .where({ id: Number(ctx.params.id) })
      .update({ name: ctx.request.body.name, updated_at: new Date() });
    ctx.body = { changed };
  },
  async raw(ctx) {
    const result = await strapi.db.connection.raw('select name from tags where name like ? order by id', [ctx.query.prefix + '%']);
    ctx.body = { names: rowsOf(result).map((row) => row.name), client: strapi.db.connection.client.config.client };
  },
  async article(ctx) {
    const result = await strapi.db.connection.raw(
      'select price, is_featured, meta from articles where document_id = ? order by id limit 1',
      [ctx.params.documentId],
    );
    const [row] = rowsOf(result);
    ctx.body = { row, types: Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value])) };
  },
  async transaction(ctx) {
    const { name, fail } = ctx.request.body;
    ctx.body = await strapi.db.transaction(async ({ trx }) => {
      const tag = await strapi.documents('api::tag.tag').create({ data: { name } });
      // strapi.db.connection inside the transaction runs in it: the document's uncommitted row is there.
      const seen = await strapi.db.connection('tags').where({ document_id: tag.documentId }).first('id', 'name');
      const [{ n }] = rowsOf(await strapi.db.connection.raw('select count(*) as n from tags where name = ?', [name]));
      await trx('tags').where({ id: seen.id }).update({ name: name + ' +trx' });
      const viaTrx = await trx.select('name').from('tags').where({ id: seen.id }).first();
      const viaDocuments = await strapi.documents('api::tag.tag').findOne({ documentId: tag.documentId });
      await strapi.db.connection('tags').transacting(trx).insert(tagRow(name + ' side'));
      // A nested strapi.db.transaction gets the same trx.
      const nested = await strapi.db.transaction(async (inner) => inner.trx === trx);
      if (fail) throw new errors.ApplicationError('rolled back: ' + name);
      return { documentId: tag.documentId, seen: seen.name, count: Number(n), viaTrx: viaTrx.name, viaDocuments: viaDocuments.name, nested, completed: trx.isCompleted() };
    });
  },
  async rollback(ctx) {
    const { name } = ctx.request.body;
    const rolledBack = [];
    ctx.body = await strapi.db.transaction(async ({ trx, rollback, onRollback }) => {
      onRollback(() => rolledBack.push('onRollback'));
      await strapi.documents('api::tag.tag').create({ data: { name } });
      await trx('tags').insert(tagRow(name + ' side'));
      await rollback();
      return { answered: 'after rollback', completed: trx.isCompleted(), rolledBack };
    });
  },
  async knexTransaction(ctx) {
    const { name, fail } = ctx.request.body;
    try {
      const documentId = await strapi.db.connection.transaction(async (trx) => {
        const tag = await strapi.documents('api::tag.tag').create({ data: { name } });
        await trx('tags').where({ document_id: tag.documentId }).update({ name: name + ' +knex' });
        // A nested knex transaction: a savepoint, rolled back alone.
        await trx.transaction(async (savepoint) => {
          await savepoint('tags').insert(tagRow(name + ' savepoint'));
          throw new Error('savepoint only');
        }).catch(() => undefined);
        if (fail) throw new Error('knex rollback: ' + name);
        return tag.documentId;
      });
      ctx.body = { documentId };
    } catch (error) {
      ctx.status = 409;
      ctx.body = { error: error.message };
    }
  },
  async grant(ctx) {
    const role = await strapi.db.connection('up_roles').where({ type: 'public' }).first('id');
    const now = new Date();
    await strapi.db.connection.transaction(async (trx) => {
      const documentId = randomBytes(12).toString('hex');
      await trx('up_permissions').insert({ document_id: documentId, action: ctx.request.body.action, created_at: now, updated_at: now, published_at: now });
      const permission = await trx('up_permissions').where({ document_id: documentId }).first('id');
      await trx('up_permissions_role_lnk').insert({ permission_id: permission.id, role_id: role.id });
    });
    ctx.body = { granted: ctx.request.body.action };
  },
  async revoke(ctx) {
    // Outside any transaction: a statement of its own.
    ctx.body = { revoked: await strapi.db.connection('up_permissions').where({ action: ctx.request.body.action }).del() };
  },
});`,
  'src/api/tag/content-types/tag/lifecycles.js': `'use strict';
module.exports = {
  // Runs inside the REST write's transaction: knex reads on that transaction's connection.
  async beforeCreate(event) {
    if (!String(event.params.data.name).startsWith('counted')) return;
    const { n } = await strapi.db.connection('tags').where('name', 'like', 'counted%').count('* as n').first();
    event.params.data.name += ' #' + (Number(n) + 1);
  },
};`,
};

for (const database of inject('databases')) {
  describe(`strapi.db.connection and strapi.db.transaction's trx on ${database}`, () => {
    let server: TestServer;
    const call = async (method: string, path: string, body?: unknown, status = 200): Promise<any> => {
      const response = await server.request(method, `/api/sql/${path}`, { auth: 'full', body });
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
      return response.json;
    };
    /** The tags whose name starts with `prefix`, read through REST (the document service). */
    const restTags = async (prefix: string): Promise<string[]> => {
      const response = await server.request(
        'GET',
        `/api/tags?filters[name][$startsWith]=${encodeURIComponent(prefix)}&sort=name&pagination[pageSize]=100`,
        { auth: 'full' },
      );
      expect(response.status).toBe(200);
      return response.json.data.map((tag: { name: string }) => tag.name);
    };

    beforeAll(async () => {
      server = await startTestServer({ database, files: FILES });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('builds and runs SQL on the same database: insert, select, count, update and raw', async () => {
      const first = await call('POST', 'tags', { name: 'knex alpha' });
      expect(first.row).toEqual({ id: expect.any(Number), name: 'knex alpha' });
      await call('POST', 'tags', { name: 'knex beta' });
      // Rows written through knex are the document service's rows.
      expect(await restTags('knex')).toEqual(['knex alpha', 'knex beta']);

      const listed = await call('GET', 'tags?prefix=knex');
      expect(listed.rows.map((row: { name: string }) => row.name)).toEqual(['knex alpha', 'knex beta']);
      expect(listed.count).toBe(2);
      // A count is a bigint: PostgreSQL's and MySQL's drivers answer it as text, as in Strapi.
      expect(listed.countType).toBe(database === 'sqlite' ? 'number' : 'string');
      expect(await call('PUT', `tags/${first.row.id}`, { name: 'knex gamma' })).toEqual({ changed: 1 });
      expect(await restTags('knex')).toEqual(['knex beta', 'knex gamma']);
      const raw = await call('GET', 'raw?prefix=knex');
      expect(raw.names).toEqual(['knex gamma', 'knex beta']);
      expect(raw.client).toBe({ sqlite: 'better-sqlite3', postgres: 'pg', mysql: 'mysql2' }[database]);
    });

    it('a write through knex reaches REST GETs served from the HTTP cache, and their ETags', async () => {
      const path = '/api/tags?filters[name][$startsWith]=cached&fields[0]=name';
      const headers = bearer(server.tokens.full);
      const { row } = await call('POST', 'tags', { name: 'cached one' });
      const first = await probe(server.app, path, headers);
      const again = await probe(server.app, path, headers);
      expect(again.cache).toContain('hit');
      await call('PUT', `tags/${row.id}`, { name: 'cached two' });
      const after = await probe(server.app, path, headers);
      expect(after.cache ?? '').not.toContain('hit');
      expect(JSON.parse(after.text).data.map((tag: { name: string }) => tag.name)).toEqual(['cached two']);
      const revalidated = await probe(server.app, path, { ...headers, 'if-none-match': first.etag ?? '' });
      expect(revalidated.status).toBe(200);
    });

    it('a permission granted or revoked through knex is in force at once', async () => {
      expect((await server.request('GET', '/api/secrets', { auth: 'public' })).status).toBe(403);
      await call('POST', 'grant', { action: 'api::secret.secret.find' });
      expect((await server.request('GET', '/api/secrets', { auth: 'public' })).status).toBe(200);
      expect(await call('POST', 'revoke', { action: 'api::secret.secret.find' })).toEqual({ revoked: 1 });
      expect((await server.request('GET', '/api/secrets', { auth: 'public' })).status).toBe(403);
    });

    it("reads rows as Strapi's knex does: decimals as numbers, booleans as the database has them, JSON as stored", async () => {
      const created = await server.request('POST', '/api/articles', {
        auth: 'full',
        body: { data: { title: 'Typed', price: 9.5, isFeatured: true, meta: { a: 1 } } },
      });
      expect(created.status, created.text).toBe(201);
      const { row, types } = await call('GET', `articles/${created.json.data.documentId}`);
      expect(row.price).toBe(9.5);
      expect(row.is_featured).toBe(database === 'sqlite' ? 1 : true);
      // SQLite's text, PostgreSQL's jsonb as its text (Strapi parses it itself), MySQL's JSON parsed by mysql2.
      expect(types.meta).toBe(database === 'mysql' ? 'object' : 'string');
      expect(typeof row.meta === 'string' ? JSON.parse(row.meta) : row.meta).toEqual({ a: 1 });
    });

    it('strapi.db.transaction: trx, strapi.db.connection and the document service share one transaction', async () => {
      const answer = await call('POST', 'transaction', { name: 'shared one' });
      expect(answer).toEqual({
        documentId: expect.any(String),
        seen: 'shared one',
        count: 1,
        viaTrx: 'shared one +trx',
        viaDocuments: 'shared one +trx',
        nested: true,
        completed: false,
      });
      expect(await restTags('shared one')).toEqual(['shared one +trx', 'shared one side']);
      const document = await server.request('GET', `/api/tags/${answer.documentId}`, { auth: 'full' });
      expect(document.json.data.name).toBe('shared one +trx');
    });

    it('a throw rolls back what the document service, knex and trx wrote', async () => {
      const failed = await call('POST', 'transaction', { name: 'shared two', fail: true }, 400);
      expect(failed.error).toMatchObject({ name: 'ApplicationError', message: 'rolled back: shared two' });
      expect(await restTags('shared two')).toEqual([]);
    });

    it("rollback() rolls it all back and answers what the callback returns, as Strapi's does", async () => {
      expect(await call('POST', 'rollback', { name: 'undone' })).toEqual({
        answered: 'after rollback',
        completed: true,
        rolledBack: ['onRollback'],
      });
      expect(await restTags('undone')).toEqual([]);
    });

    it('strapi.db.connection.transaction(): the document service joins it, a savepoint rolls back alone, a throw rolls back all', async () => {
      const committed = await call('POST', 'knex-transaction', { name: 'own knex' });
      expect(committed.documentId).toEqual(expect.any(String));
      expect(await restTags('own knex')).toEqual(['own knex +knex']);
      expect(await call('POST', 'knex-transaction', { name: 'own fail', fail: true }, 409)).toEqual({
        error: 'knex rollback: own fail',
      });
      expect(await restTags('own fail')).toEqual([]);
    });

    it("a lifecycle reading through knex inside a REST write's transaction sees that transaction", async () => {
      const names: string[] = [];
      for (const name of ['counted', 'counted']) {
        const created = await server.request('POST', '/api/tags', { auth: 'full', body: { data: { name } } });
        expect(created.status, created.text).toBe(201);
        names.push(created.json.data.name);
      }
      expect(names).toEqual(['counted #1', 'counted #2']);
    });

    it('16 clients at once through strapi.db.transaction lose nothing, and the failing ones leave nothing', async () => {
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, index) =>
          server.request('POST', '/api/sql/transaction', {
            auth: 'full',
            body: { name: `client ${String(index).padStart(2, '0')}`, fail: index % 4 === 3 },
          }),
        ),
      );
      answers.forEach((answer, index) => {
        expect(answer.status, answer.text).toBe(index % 4 === 3 ? 400 : 200);
        if (answer.status === 200) expect(answer.json).toMatchObject({ count: 1, nested: true });
      });
      const kept = Array.from({ length: 16 }, (_, index) => index).filter((index) => index % 4 !== 3);
      expect(await restTags('client ')).toEqual(
        kept.flatMap((index) => {
          const name = `client ${String(index).padStart(2, '0')}`;
          return [`${name} +trx`, `${name} side`];
        }),
      );
    });
  });
}
