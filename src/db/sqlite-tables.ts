import type { Database } from './database.js';

/** Whether a SQLite database has a table of this name. */
export async function sqliteHasTable(db: Database, table: string): Promise<boolean> {
  const [found] = await db.all({
    sql: "select count(*) as n from sqlite_master where type = 'table' and name = ?",
    params: [table],
  });
  return Number(found?.n ?? 0) > 0;
}

/**
 * Moves the rows of `table` from the SQLite database file `sourceFile` (open as `source`) into
 * the same table of `target` (another SQLite file), then drops it from the source. Rows keep
 * their ids; a row already in the target is kept as it is, so a move stopped between the copy
 * and the drop copies again without duplicates. Both must be SQLite databases (the copy
 * ATTACHes the source file to the target).
 */
export async function moveSqliteTable(
  source: Database,
  sourceFile: string,
  target: Database,
  table: string,
  columns: readonly string[],
): Promise<void> {
  const quote = (name: string) => target.dialect.quoteIdentifier(name);
  const list = columns.map(quote).join(', ');
  await target.run({ sql: 'attach database ? as moved', params: [sourceFile] });
  try {
    await target.run({
      sql: `insert or ignore into ${quote(table)} (${list}) select ${list} from moved.${quote(table)}`,
      params: [],
    });
  } finally {
    await target.run({ sql: 'detach database moved', params: [] });
  }
  await source.run({ sql: `drop table ${quote(table)}`, params: [] });
}
