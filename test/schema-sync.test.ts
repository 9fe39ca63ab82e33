import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { loadProject } from '../src/project/load-project.js';
import { readExistingSchema } from '../src/sql/ddl/introspection.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

const LAYOUT: [string, string[]][] = [
  [
    'articles',
    [
      'id',
      'document_id',
      'title',
      'slug',
      'summary',
      'body',
      'content',
      'views',
      'rating',
      'price',
      'bigcount',
      'is_featured',
      'publish_date',
      'publish_time',
      'event_at',
      'stamp',
      'meta',
      'category',
      'contact_email',
      'secret_code',
      'created_at',
      'updated_at',
      'published_at',
      'created_by_id',
      'updated_by_id',
      'locale',
    ],
  ],
  ['articles_author_lnk', ['id', 'article_id', 'author_id', 'article_ord']],
  ['articles_tags_lnk', ['id', 'article_id', 'tag_id', 'tag_ord', 'article_ord']],
  ['articles_editor_lnk', ['id', 'article_id', 'author_id']],
  ['articles_cmps', ['id', 'entity_id', 'cmp_id', 'component_type', 'field', 'order']],
  ['components_shared_seos', ['id', 'meta_title', 'meta_description']],
  ['components_shared_seos_cmps', ['id', 'entity_id', 'cmp_id', 'component_type', 'field', 'order']],
  ['components_shared_quotes_author_lnk', ['id', 'quote_id', 'author_id']],
  ['files_related_mph', ['id', 'file_id', 'related_id', 'related_type', 'field', 'order']],
  ['up_users_role_lnk', ['id', 'user_id', 'role_id', 'user_ord']],
  ['up_permissions_role_lnk', ['id', 'permission_id', 'role_id', 'permission_ord']],
  ['upload_folders_parent_lnk', ['id', 'folder_id', 'inv_folder_id', 'folder_ord']],
  ['admin_users_roles_lnk', ['id', 'user_id', 'role_id', 'role_ord', 'user_ord']],
  [
    'strapi_api_token_permissions_token_lnk',
    ['id', 'api_token_permission_id', 'api_token_id', 'api_token_permission_ord'],
  ],
  ['strapi_core_store_settings', ['id', 'key', 'value', 'type', 'environment', 'tag']],
  [
    'i18n_locale',
    [
      'id',
      'document_id',
      'name',
      'code',
      'created_at',
      'updated_at',
      'published_at',
      'created_by_id',
      'updated_by_id',
      'locale',
    ],
  ],
];

/** Foreign keys of a table as "<referenced table> <ON DELETE rule>", on any of the three databases. */
const FOREIGN_KEYS_SQL = {
  sqlite: 'select "table" as target, on_delete from pragma_foreign_key_list(?)',
  postgres: `select ccu.table_name as target, rc.delete_rule as on_delete
             from information_schema.table_constraints tc
             join information_schema.referential_constraints rc on rc.constraint_name = tc.constraint_name and rc.constraint_schema = tc.constraint_schema
             join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.constraint_schema = tc.constraint_schema
             where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema() and tc.table_name = $1`,
  mysql: `select referenced_table_name as target, delete_rule as on_delete from information_schema.referential_constraints
          where constraint_schema = database() and table_name = ?`,
} as const;

async function foreignKeys(app: App, table: string): Promise<string[]> {
  const rows = await app.db.all({ sql: FOREIGN_KEYS_SQL[app.db.dialect.name], params: [table] });
  return rows.map((row) => `${row.target} ${row.on_delete}`).sort();
}

for (const kind of inject('databases')) {
  describe(`[${kind}] the database layout and its sync`, () => {
    let dir: string;
    let database: TestDatabase;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-sync-'));
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
    const existing = async (app: App) =>
      readExistingSchema(
        await app.db.all(app.db.dialect.introspector.columnsQuery),
        await app.db.all(app.db.dialect.introspector.indexesQuery),
      );

    it("creates Strapi 5's tables and columns", async () => {
      await withApp(async (app) => {
        const schema = await existing(app);
        for (const [table, columns] of LAYOUT)
          expect([...(schema.tables.get(table)?.keys() ?? [])], table).toEqual(columns);
      });
    });

    it('creates the indexes and cascading foreign keys of join tables', async () => {
      await withApp(async (app) => {
        const { indexes } = await existing(app);
        for (const name of [
          'articles_tags_lnk_fk',
          'articles_tags_lnk_ifk',
          'articles_tags_lnk_ofk',
          'articles_tags_lnk_oifk',
          'articles_tags_lnk_uq',
          'articles_documents_idx',
          'articles_created_by_id_fk',
          'strapi_sessions_session_id_idx',
          'strapi_sessions_user_id_idx',
          'upload_files_folder_path_index',
          'upload_folders_path_index',
        ]) {
          expect(indexes.has(name), name).toBe(true);
        }
        expect(await foreignKeys(app, 'articles_tags_lnk')).toEqual(['articles CASCADE', 'tags CASCADE']);
        expect(await foreignKeys(app, 'articles')).toEqual(['admin_users SET NULL', 'admin_users SET NULL']);
      });
    });

    it("indexes a localized type's published and draft rows by locale where partial indexes exist", async () => {
      await withApp(async (app) => {
        const { indexes } = await existing(app);
        const names = ['articles_published_locale_idx', 'articles_draft_locale_idx'];
        if (app.db.dialect.name === 'mysql') {
          for (const name of names) expect(indexes.has(name), name).toBe(false);
          return;
        }
        for (const name of names) expect(indexes.has(name), name).toBe(true);
        if (app.db.dialect.name === 'postgres') {
          const rows = await app.db.all({
            sql: `select indexname, indexdef from pg_indexes where tablename = 'articles' and indexname like '%locale_idx'`,
            params: [],
          });
          expect(Object.fromEntries(rows.map((row) => [row.indexname, row.indexdef]))).toEqual({
            articles_published_locale_idx: expect.stringMatching(/\(locale\) WHERE \(published_at IS NOT NULL\)$/),
            articles_draft_locale_idx: expect.stringMatching(/\(locale\) WHERE \(published_at IS NULL\)$/),
          });
          return;
        }
        // SQLite reads a locale's published and draft pages and their totals, as Cairn writes
        // those statements, through the indexes, not the whole table.
        const written: { sql: string; params: readonly unknown[] }[] = [];
        const listening = await createApp(await loadProject(dir, database.env), {
          onQuery: (query) => void written.push(query),
        });
        try {
          for (const url of ['/api/articles?locale=fr', '/api/articles?locale=fr&status=draft']) {
            written.length = 0;
            expect((await listening.server.inject({ method: 'GET', url })).statusCode).toBe(200);
            const reads = written.filter((query) => /^select .* from "articles" as "t0" where/.test(query.sql));
            expect(reads, url).toHaveLength(2);
            for (const query of reads) {
              const steps = await app.db.all({ sql: `explain query plan ${query.sql}`, params: query.params });
              expect(steps.map((row) => String(row.detail))[0], `${url}: ${query.sql}`).toMatch(
                /^SEARCH t0 USING INDEX articles_(published|draft)_locale_idx \(locale=\?\)$/,
              );
            }
          }
        } finally {
          await listening.close();
        }
        // SQLite reads a locale's published page and its total through the index, not the whole table.
        const plan = async (sql: string) =>
          (await app.db.all({ sql: `explain query plan ${sql}`, params: ['fr'] })).map((row) => String(row.detail));
        const published = '"published_at" is not null and "locale" = ?';
        expect(await plan(`select * from "articles" where ${published} order by "id" limit 25`)).toEqual([
          'SEARCH articles USING INDEX articles_published_locale_idx (locale=?)',
        ]);
        expect(await plan(`select count(*) from "articles" where ${published}`)).toEqual([
          'SEARCH articles USING INDEX articles_published_locale_idx (locale=?)',
        ]);
        expect(await plan(`select count(*) from "articles" where "published_at" is null and "locale" = ?`)).toEqual([
          'SEARCH articles USING INDEX articles_draft_locale_idx (locale=?)',
        ]);
      });
    });

    it('reads the sources linked to matching targets from one index (a filter through a relation), joined on SQLite when to-one', async () => {
      await withApp(async (app) => {
        const { indexes } = await existing(app);
        for (const name of ['articles_author_lnk_tgt_src_idx', 'articles_tags_lnk_tgt_src_idx'])
          expect(indexes.has(name), name).toBe(true);
        if (app.db.dialect.name !== 'sqlite') return;
        const written: { sql: string; params: readonly unknown[] }[] = [];
        const listening = await createApp(await loadProject(dir, database.env), {
          onQuery: (query) => void written.push(query),
        });
        try {
          const url = '/api/articles?filters[author][name][$containsi]=a&sort=publishDate:desc';
          expect((await listening.server.inject({ method: 'GET', url })).statusCode).toBe(200);
          const filtered = written.filter((query) => query.sql.includes('"articles_author_lnk" as "l1"'));
          expect(filtered.length, url).toBeGreaterThan(0);
          for (const query of filtered) {
            // A to-one relation: its links are joined, not kept in a temporary list first.
            expect(query.sql).toContain('cross join "articles" as "t0" on "t0"."id" = "l1"."article_id"');
            const steps = await app.db.all({ sql: `explain query plan ${query.sql}`, params: query.params });
            const details = steps.map((row) => String(row.detail));
            expect(details.filter((step) => step.startsWith('LIST SUBQUERY'))).toEqual([]);
            expect(
              details.filter((step) => / l1 USING COVERING INDEX articles_author_lnk_tgt_src_idx\b/.test(step)),
              details.join('\n'),
            ).toHaveLength(1);
          }
        } finally {
          await listening.close();
        }
      });
    });

    it("finds a row's media from one index of (related_id, related_type, field), besides Strapi's own", async () => {
      await withApp(async (app) => {
        const { indexes } = await existing(app);
        for (const name of ['files_related_mph_idix', 'files_related_mph_related_idx'])
          expect(indexes.has(name), name).toBe(true);
      });
    });

    it('a second start changes nothing and reports nothing', async () => {
      let statements = 0;
      const app = await createApp(await loadProject(dir, database.env), { onQuery: () => statements++ });
      try {
        expect(app.notices).toEqual([]);
      } finally {
        await app.close();
      }
      expect(statements).toBeLessThan(40);
    });

    describe('never drops data', () => {
      let tagSchema: string;
      let original: string;
      beforeAll(() => {
        tagSchema = join(dir, 'src/api/tag/content-types/tag/schema.json');
        original = readFileSync(tagSchema, 'utf8');
      });

      it('adds a new attribute as a column and keeps existing rows', async () => {
        await withApp(async (app) => {
          expect(
            (await app.server.inject({ method: 'POST', url: '/api/tags', payload: { data: { name: 'kept' } } }))
              .statusCode,
          ).toBe(201);
        });
        writeFileSync(
          tagSchema,
          JSON.stringify({
            ...JSON.parse(original),
            attributes: { ...JSON.parse(original).attributes, color: { type: 'string' } },
          }),
        );
        await withApp(async (app) => {
          expect([...((await existing(app)).tables.get('tags')?.keys() ?? [])]).toContain('color');
          const list = await app.server.inject({ method: 'GET', url: '/api/tags' });
          expect(list.json().data).toEqual([expect.objectContaining({ name: 'kept', color: null })]);
          const documentId = list.json().data[0].documentId;
          expect(
            (
              await app.server.inject({
                method: 'PUT',
                url: `/api/tags/${documentId}`,
                payload: { data: { color: 'red' } },
              })
            ).statusCode,
          ).toBe(200);
        });
      });

      it('keeps the column of a removed attribute and reports it', async () => {
        writeFileSync(tagSchema, original);
        await withApp(async (app) => {
          expect(app.notices).toContain('column tags.color is no longer in the schema; kept with its data');
          expect(await app.db.all({ sql: 'select color from tags', params: [] })).toEqual([{ color: 'red' }]);
        });
      });

      it('reports a type change instead of converting', async () => {
        const changed = JSON.parse(original);
        changed.attributes.name = { type: 'integer' };
        writeFileSync(tagSchema, JSON.stringify(changed));
        await withApp(async (app) => {
          expect(
            app.notices.some(
              (notice) => notice.startsWith('column tags.name has type') && notice.includes('left unchanged'),
            ),
          ).toBe(true);
          expect(await app.db.all({ sql: 'select name from tags', params: [] })).toEqual([{ name: 'kept' }]);
        });
        writeFileSync(tagSchema, original);
      });
    });
  });
}
