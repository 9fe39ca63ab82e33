import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { openDatabase } from '../src/db/open-database.js';
import { syncSchema } from '../src/db/sync-schema.js';
import { rowOf } from '../src/plan/simple-plans.js';
import { loadProject } from '../src/project/load-project.js';
import { BOOKKEEPING_TABLES } from '../src/schema/core-tables.js';
import type { TableSpec } from '../src/schema/table-spec.js';
import { compileInsert } from '../src/sql/compile-write.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/** What real Strapi 5.54 left after its first start on an empty database with examples/blog's model. */
const FIXTURES = resolve(import.meta.dirname, 'fixtures/strapi-5.54-blog');
const strapi = JSON.parse(readFileSync(join(FIXTURES, 'bookkeeping.json'), 'utf8')) as {
  strapiMigrationsInternal: string[];
  strapiDatabaseSchemaHash: string;
  coreStore: { key: string; value: string; type: string }[];
};
const strapiSchema = JSON.parse(readFileSync(join(FIXTURES, 'database-schema.json'), 'utf8')) as {
  tables: { name: string }[];
};
const sortedTables = (schema: { tables: { name: string }[] }) =>
  [...schema.tables].sort((a, b) => a.name.localeCompare(b.name));

for (const kind of inject('databases')) {
  describe(`[${kind}] Strapi's bookkeeping tables`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    });

    /** A fresh copy of examples/blog on a fresh database; `before` prepares the database first (as Strapi would have left it). */
    async function freshProject(
      before?: (app: Pick<App, 'db'>) => Promise<void>,
    ): Promise<{ start: () => Promise<App> }> {
      const dir = mkdtempSync(join(tmpdir(), 'cairn-bookkeeping-'));
      cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
      const database: TestDatabase = await createTestDatabase(kind);
      cleanups.push(async () => {
        await database.drop();
        rmSync(dir, { recursive: true, force: true });
      });
      if (before) {
        const db = await openDatabase((await loadProject(dir, database.env)).config.database);
        try {
          await before({ db });
        } finally {
          await db.close();
        }
      }
      return { start: async () => createApp(await loadProject(dir, database.env)) };
    }

    const rows = (app: Pick<App, 'db'>, sql: string) =>
      app.db.all({
        sql: sql.replace(/`(\w+)`/g, (_, name: string) => app.db.dialect.quoteIdentifier(name)),
        params: [],
      });
    const bookkeeping = async (app: Pick<App, 'db'>) => ({
      internal: await rows(app, 'select `id`, `name`, `time` from `strapi_migrations_internal` order by `id`'),
      migrations: await rows(app, 'select `id` from `strapi_migrations`'),
      schema: await rows(app, 'select `id`, `schema`, `time`, `hash` from `strapi_database_schema` order by `id`'),
      store: await rows(
        app,
        "select `key`, `value`, `type` from `strapi_core_store_settings` where `key` = 'strapi_unidirectional-join-table-repair-ran'",
      ),
    });
    const insert = (app: Pick<App, 'db'>, table: string, values: Parameters<typeof rowOf>[0]) =>
      app.db.insert(compileInsert(app.db.dialect, { table, rows: [rowOf(values)] }), 1);
    const parsed = (value: unknown) =>
      (typeof value === 'string' ? JSON.parse(value) : value) as { tables: { name: string }[] };

    it('on a database Cairn creates: the rows a first Strapi 5.54 start leaves, and the same after a second start', async () => {
      const project = await freshProject();
      const first = await project.start();
      const made = await bookkeeping(first).finally(() => first.close());
      expect(made.internal.map((row) => row.name)).toEqual(strapi.strapiMigrationsInternal);
      expect(made.migrations).toEqual([]);
      expect(made.schema).toHaveLength(1);
      expect(made.schema[0]?.hash).toBe(strapi.strapiDatabaseSchemaHash);
      expect(sortedTables(parsed(made.schema[0]?.schema))).toEqual(sortedTables(strapiSchema));
      expect(made.store).toEqual(strapi.coreStore);

      const second = await project.start();
      const again = await bookkeeping(second).finally(() => second.close());
      expect(again).toEqual(made);
    });

    it('on a database Strapi made: its rows are kept as they are, nothing is added', async () => {
      const older = strapi.strapiMigrationsInternal.slice(0, 6);
      const project = await freshProject(async (app) => {
        await syncSchema(app.db, BOOKKEEPING_TABLES);
        for (const name of older)
          await insert(app, 'strapi_migrations_internal', {
            name: [name, 'string'],
            time: [new Date('2025-01-02T03:04:05Z'), 'datetime'],
          });
        await insert(app, 'strapi_database_schema', {
          schema: ['{"tables":[]}', 'string'],
          time: [new Date('2025-01-02T03:04:05Z'), 'datetime'],
          hash: ['an older hash', 'string'],
        });
      });
      const app = await project.start();
      const kept = await bookkeeping(app).finally(() => app.close());
      expect(kept.internal.map((row) => row.name)).toEqual(older);
      expect(kept.schema.map((row) => [row.hash, parsed(row.schema)])).toEqual([['an older hash', { tables: [] }]]);
      expect(kept.store).toEqual([]);
    });

    it('with the bookkeeping tables created but empty (a start stopped before seeding them; MySQL commits DDL at once): seeded as on a new database', async () => {
      const project = await freshProject((app) => syncSchema(app.db, BOOKKEEPING_TABLES).then(() => undefined));
      const app = await project.start();
      const seeded = await bookkeeping(app).finally(() => app.close());
      expect(seeded.internal.map((row) => row.name)).toEqual(strapi.strapiMigrationsInternal);
      expect(seeded.schema.map((row) => row.hash)).toEqual([strapi.strapiDatabaseSchemaHash]);
      expect(seeded.store).toEqual(strapi.coreStore);
    });

    it('on a Strapi 4 database (a content table without document_id): nothing recorded, so Strapi still migrates it', async () => {
      const v4Articles: TableSpec = {
        name: 'articles',
        columns: [
          { name: 'id', type: 'increments', unsigned: false },
          { name: 'title', type: 'string', unsigned: false },
        ],
        indexes: [],
        foreignKeys: [],
      };
      const project = await freshProject((app) => syncSchema(app.db, [v4Articles]).then(() => undefined));
      const app = await project.start();
      const left = await bookkeeping(app).finally(() => app.close());
      expect(left).toEqual({ internal: [], migrations: [], schema: [], store: [] });
      expect(app.notices).toContain(
        "table articles has no document_id column: this looks like a Strapi 4 database; Strapi 5's migrations are left to run when Strapi starts on it",
      );
    });

    it("with a column whose type is not Strapi's: the migrations are recorded, the schema is left for Strapi's own diff", async () => {
      const tags: TableSpec = {
        name: 'tags',
        columns: [
          { name: 'id', type: 'increments', unsigned: false },
          { name: 'document_id', type: 'string', unsigned: false },
          { name: 'name', type: 'integer', unsigned: false },
        ],
        indexes: [],
        foreignKeys: [],
      };
      const project = await freshProject((app) => syncSchema(app.db, [tags]).then(() => undefined));
      const app = await project.start();
      const left = await bookkeeping(app).finally(() => app.close());
      expect(left.internal.map((row) => row.name)).toEqual(strapi.strapiMigrationsInternal);
      expect(left.schema).toEqual([]);
      expect(app.notices).toContain(
        "Strapi's schema record is left empty because tags.name differ from Strapi's layout: Strapi will compare the whole database at its next start",
      );
    });
  });
}
