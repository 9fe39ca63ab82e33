import { expect } from 'vitest';
import { dbStep, type Step } from './scenario.js';
import type { TestServer } from './test-server.js';

/* SQL row counts of the blog example's component, component-link and media tables. */

/** Tables holding component rows, component links and media links of the blog example. */
export const COMPONENT_TABLES = [
  'components_shared_seos',
  'components_shared_keywords',
  'components_shared_quotes',
  'components_shared_rich_texts',
  'components_shared_media_blocks',
  'articles_cmps',
  'globals_cmps',
  'components_shared_seos_cmps',
  'components_shared_quotes_author_lnk',
  'files_related_mph',
  'files',
] as const;
/** One of COMPONENT_TABLES. */
export type ComponentTable = (typeof COMPONENT_TABLES)[number];

/** The rows of a raw SQL query (no parameters). */
export async function queryRows(server: TestServer, sql: string): Promise<Record<string, unknown>[]> {
  return server.app.db.all({ sql, params: [] });
}

/** Number of rows of `table`, optionally only those matching the SQL condition `where`. */
export async function countRows(server: TestServer, table: ComponentTable, where?: string): Promise<number> {
  const rows = await queryRows(server, `select count(*) as n from ${table}${where ? ` where ${where}` : ''}`);
  return Number(rows[0]!.n);
}

/** Row count of every table in COMPONENT_TABLES. */
export async function countAll(server: TestServer): Promise<Record<ComponentTable, number>> {
  const result = {} as Record<ComponentTable, number>;
  for (const table of COMPONENT_TABLES) result[table] = await countRows(server, table);
  return result;
}

/** A step saving the row counts of every table as `vars[as]`, the base for `expectCounts`. */
export const saveCounts = (name: string, as: string): Step =>
  dbStep(name, async ({ vars, server }) => {
    vars[as] = await countAll(server);
  });

/** A step asserting that the row counts moved by exactly `delta` since the counts saved as `vars[base]` (others unchanged). */
export function expectCounts(name: string, base: string, delta: Partial<Record<ComponentTable, number>>): Step {
  return dbStep(name, async ({ vars, server }) => {
    const before = vars[base] as Record<ComponentTable, number>;
    const expected = Object.fromEntries(COMPONENT_TABLES.map((t) => [t, before[t] + (delta[t] ?? 0)]));
    expect(await countAll(server)).toEqual(expected);
  });
}
