import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { loadProject } from '../src/project/load-project.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

for (const kind of inject('databases')) {
  describe(`[${kind}] permissions as code are re-applied at every start`, () => {
    let dir: string;
    let database: TestDatabase;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-perm-'));
      cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
      database = await createTestDatabase(kind);
    });
    afterAll(async () => {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    async function withApp<T>(work: (app: App) => Promise<T>): Promise<T> {
      const app = await createApp(await loadProject(dir, database.env));
      try {
        return await work(app);
      } finally {
        await app.close();
      }
    }
    const statusOf = (path: string) =>
      withApp(async (app) => (await app.server.inject({ method: 'GET', url: path })).statusCode);
    const publicActions = () =>
      withApp(async (app) => {
        const rows = await app.db.all({
          sql: `select p.action from up_permissions p join up_permissions_role_lnk l on l.permission_id = p.id join up_roles r on r.id = l.role_id where r.type = 'public' order by p.action`,
          params: [],
        });
        return rows.map((row) => String(row.action));
      });
    const configure = (source: string) => writeFileSync(join(dir, 'config/permissions.js'), source);

    it('grants what config/permissions.js lists', async () => {
      configure("module.exports = { public: ['api::tag.tag.find', 'api::article.article.find'] };");
      expect(await statusOf('/api/articles')).toBe(200);
    });

    it('revokes what it no longer lists, keeps the plugin defaults, never duplicates', async () => {
      configure("module.exports = { public: ['api::tag.tag.find'] };");
      expect(await statusOf('/api/articles')).toBe(403);
      expect(await statusOf('/api/tags')).toBe(200);
      const actions = await publicActions();
      expect(actions).toEqual([...new Set(actions)]);
      expect(actions).toContain('plugin::users-permissions.auth.register');
      expect(actions).not.toContain('api::article.article.find');
    });

    it('leaves stored permissions alone when the role is not listed', async () => {
      configure('module.exports = { authenticated: [] };');
      expect(await statusOf('/api/tags')).toBe(200);
    });

    it('ignores unknown actions with a notice', async () => {
      configure("module.exports = { public: ['api::tag.tag.find', 'api::nope.nope.find'] };");
      await withApp(async (app) => {
        expect(app.notices).toContain(
          'config/permissions: role "public": unknown action "api::nope.nope.find" ignored',
        );
      });
    });
  });
}
