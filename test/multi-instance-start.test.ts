import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningCairn } from './support/cli.js';
import { prepareInstances, redisAnswers, serverDatabases, type InstanceGroup } from './support/instances.js';

/*
 * Three `cairn start` processes (built: `npm run build` first) started at once on an empty
 * PostgreSQL or MySQL database: the start-up lock makes them sync one after the other, so all
 * three come up, and the database holds what one start makes (the same tables and columns as a
 * database synced alone, one set of roles, locales and admin roles, one webhook).
 */

const redis = await redisAnswers();

/** Every column of the database's tables, as `table.column type`, sorted. */
async function columns(group: InstanceGroup): Promise<string[]> {
  const where =
    group.database.kind === 'postgres'
      ? `table_schema = '${group.database.env.DATABASE_SCHEMA}'`
      : `table_schema = '${group.database.env.DATABASE_NAME}'`;
  const rows = await group.query(
    `select table_name as t, column_name as c, data_type as d from information_schema.columns where ${where}`,
  );
  return rows.map((row) => `${String(row.t)}.${String(row.c)} ${String(row.d)}`).sort();
}

const counts = async (group: InstanceGroup) =>
  Object.fromEntries(
    await Promise.all(
      ['up_roles', 'i18n_locale', 'admin_roles', 'strapi_webhooks', 'strapi_core_store_settings'].map(
        async (table) => [table, Number((await group.query(`select count(*) as n from ${table}`))[0]?.n)] as const,
      ),
    ),
  );

const webhooks = `module.exports = [{ name: 'hook', url: 'http://127.0.0.1:9/hook', events: ['entry.create'] }];\n`;

for (const database of serverDatabases(inject('databases'), redis)) {
  describe(`[${database}, Redis] three instances starting at once on an empty database`, () => {
    let group: InstanceGroup;
    let alone: InstanceGroup;
    let instances: RunningCairn[];

    beforeAll(async () => {
      const files = { 'config/webhooks.js': webhooks };
      [group, alone] = await Promise.all([
        prepareInstances(database, { redis: true, files }),
        prepareInstances(database, { files }),
      ]);
      instances = await group.start(3);
      // The reference: the same project started by one process alone.
      await alone.start(1);
    });
    afterAll(async () => {
      await group?.close();
      await alone?.close();
    });

    it('all three start, none logs an error', () => {
      expect(instances).toHaveLength(3);
      for (const instance of instances) {
        const errors = instance
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);
        expect(errors).toEqual([]);
      }
    });

    it('the tables and columns are those of a database synced alone, with one of each start-up row', async () => {
      expect(await columns(group)).toEqual(await columns(alone));
      expect(await counts(group)).toEqual(await counts(alone));
      expect(await counts(group)).toMatchObject({ up_roles: 2, admin_roles: 3, strapi_webhooks: 1 });
    });

    it('each instance writes and reads', async () => {
      for (const [index, instance] of instances.entries()) {
        const created = await fetch(`${instance.base}/api/tags`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data: { name: `tag ${index}` } }),
        });
        expect(created.status).toBe(201);
      }
      const listed = (await (await fetch(`${instances[0]?.base}/api/tags`)).json()) as { data: unknown[] };
      expect(listed.data).toHaveLength(3);
    });
  });
}
