import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiToken } from '../src/api-tokens/api-token-store.js';
import { createApp, type App } from '../src/app.js';
import { putStoreJson, readStoreJson } from '../src/db/core-store.js';
import { rowOf } from '../src/plan/simple-plans.js';
import { loadProject } from '../src/project/load-project.js';
import { compileInsert } from '../src/sql/compile-write.js';
import { readRoleActions, setRoleActions } from '../src/users-permissions/role-permissions.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * A start writes only what the database lacks: settings an admin (or Strapi) stored win over
 * Cairn's defaults. The project is examples/blog as a plain Strapi project would have it (no
 * Cairn i18n options, no config/permissions.js); its database was then given, as through
 * Strapi's admin: the default locale `sk` (with its locale row and Slovak content), a changed
 * users-permissions advanced setting, a changed Public role and a changed content-manager layout.
 */

const CM_ARTICLE = 'plugin_content_manager_configuration_content_types::api::article.article';

for (const kind of inject('databases')) {
  describe(`[${kind}] a restart keeps the settings the database holds`, () => {
    let dir: string;
    let database: TestDatabase;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-stored-settings-'));
      cpSync(EXAMPLE_PROJECT, dir, {
        recursive: true,
        filter: (source) => !/[\\/](\.env|\.tmp|permissions\.js)$/.test(source),
      });
      writeFileSync(join(dir, 'config/plugins.js'), 'module.exports = () => ({});\n');
      database = await createTestDatabase(kind);
    });
    afterAll(async () => {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    const start = async () => createApp(await loadProject(dir, database.env));
    const rows = (app: App, sql: string) =>
      app.db.all({
        sql: sql.replace(/`(\w+)`/g, (_, name: string) => app.db.dialect.quoteIdentifier(name)),
        params: [],
      });
    /** What the test compares before and after the restart: the whole core store, the locales, the roles' actions. */
    const settings = async (app: App) => ({
      store: await rows(app, 'select `key`, `value`, `type` from `strapi_core_store_settings` order by `key`'),
      locales: await rows(app, 'select `code`, `name` from `i18n_locale` order by `id`'),
      roles: await Promise.all(
        (await rows(app, 'select `id`, `type` from `up_roles` order by `id`')).map(async (role) => ({
          type: role.type,
          actions: [...(await readRoleActions(app.db, app.db, Number(role.id)))].sort(),
        })),
      ),
    });
    const get = (app: App, url: string) => app.server.inject({ method: 'GET', url });

    it(
      'the default locale sk, a users-permissions setting, a role permission and a view layout stay as stored',
      { timeout: 120_000 },
      async () => {
        // A project that has run before: the first start creates what an empty database lacks.
        const created = await start();
        try {
          expect(await rows(created, 'select `code` from `i18n_locale`')).toEqual([{ code: 'en' }]);
          expect(await readStoreJson(created.db, created.db, 'plugin_i18n_default_locale')).toBe('en');
        } finally {
          await created.close();
        }
        const first = await start();
        let before: Awaited<ReturnType<typeof settings>>;
        try {
          const { db } = first;
          const { config } = first.project;
          await db.transaction(async (tx) => {
            const at: [Date, 'datetime'] = [new Date('2025-01-02T03:04:05Z'), 'datetime'];
            const sk = rowOf({
              document_id: ['skskskskskskskskskskskss', 'string'],
              name: ['Slovak (sk)', 'string'],
              code: ['sk', 'string'],
              created_at: at,
              updated_at: at,
              published_at: at,
            });
            await tx.insert(compileInsert(db.dialect, { table: 'i18n_locale', rows: [sk] }), 1);
            await putStoreJson(tx, db, 'plugin_i18n_default_locale', 'sk');
            const advanced = (await readStoreJson(tx, db, 'plugin_users-permissions_advanced')) as Record<
              string,
              unknown
            >;
            await putStoreJson(tx, db, 'plugin_users-permissions_advanced', { ...advanced, allow_register: false });
            const [publicRole] = await tx.all({ sql: "select id from up_roles where type = 'public'", params: [] });
            await setRoleActions(
              tx,
              db,
              Number(publicRole?.id),
              new Set(['api::article.article.find', 'plugin::users-permissions.auth.callback']),
              new Date(),
            );
            const layout = (await readStoreJson(tx, db, CM_ARTICLE)) as { settings: object; layouts: object };
            await putStoreJson(tx, db, CM_ARTICLE, {
              ...layout,
              settings: { ...layout.settings, pageSize: 50, mainField: 'slug' },
              layouts: { ...layout.layouts, list: ['id', 'slug'] },
            });
          });
          const token = await createApiToken(
            db,
            { salt: config.admin.apiTokenSalt, encryptionKey: config.admin.encryptionKey },
            { name: 'full', type: 'full-access' },
            new Date(),
          );
          const article = await first.server.inject({
            method: 'POST',
            url: '/api/articles?locale=sk&status=published',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ data: { title: 'Slovenský článok' } }),
          });
          expect(article.statusCode).toBe(201);
          before = await settings(first);
        } finally {
          await first.close();
        }
        expect(before.locales).toEqual([
          { code: 'en', name: 'English (en)' },
          { code: 'sk', name: 'Slovak (sk)' },
        ]);

        const second = await start();
        try {
          expect(await settings(second)).toEqual(before);
          const list = await get(second, '/api/articles?fields[0]=title&fields[1]=locale');
          expect(list.statusCode).toBe(200);
          expect(
            list.json().data.map((entry: { title: string; locale: string }) => [entry.title, entry.locale]),
          ).toEqual([['Slovenský článok', 'sk']]);
          expect(second.project.config.i18n.defaultLocale).toBe('sk');
        } finally {
          await second.close();
        }
      },
    );
  });
}
