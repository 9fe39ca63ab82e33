import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledRowMaker } from './row-maker.js';
import { openSqliteDatabase } from './sqlite-database.js';

describe('compiledRowMaker', () => {
  const connection = new BetterSqlite3(':memory:');
  afterAll(() => connection.close());
  /** better-sqlite3's own row object and the compiled maker's, for one select. */
  const both = (sql: string) => {
    const statement = connection.prepare(sql);
    const own = statement.get() as Record<string, unknown>;
    const names = statement.columns().map((column) => column.name);
    const values = statement.raw(true).get() as unknown[];
    return { own, made: compiledRowMaker(names)(values) };
  };

  it('makes the objects better-sqlite3 makes: same keys, order and values', () => {
    const { own, made } = both(`select 7 as id, 'A "quoted" title' as title, null as published_at, 1.5 as "x""y"`);
    expect(made).toEqual(own);
    expect(Object.keys(made)).toEqual(Object.keys(own));
  });

  it('keeps the last value of a name given twice, at its first place, as better-sqlite3 does', () => {
    const { own, made } = both('select 1 as a, 2 as b, 3 as a');
    expect(made).toEqual({ a: 3, b: 2 });
    expect(Object.keys(made)).toEqual(Object.keys(own));
    expect(made).toEqual(own);
  });

  it('writes any name as data: backslashes, newlines, code; __proto__ an own property, not the prototype', () => {
    const names = ['back\\slash', 'line\nbreak', '}); throw 1; ({', '__proto__', 'constructor', '0'];
    const row = compiledRowMaker(names)([1, 2, 3, { polluted: true }, 5, 6]);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row)).toEqual(['0', ...names.slice(0, -1)]);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ polluted: true });
    for (const [index, name] of names.entries())
      if (name !== '__proto__') expect(Object.getOwnPropertyDescriptor(row, name)?.value).toBe(index + 1);
  });
});

describe('SQLite reads before and after a statement switches to raw rows', () => {
  it('answers the same rows at every run', async () => {
    const db = openSqliteDatabase(':memory:');
    try {
      await db.run({ sql: 'create table t (id integer primary key, name text, at integer, meta text)', params: [] });
      await db.run({ sql: `insert into t (name, at, meta) values ('a', 1, '{"k":1}'), ('b', null, null)`, params: [] });
      const query = {
        sql: 'select id as "id", name as "name", at as "at", meta as "meta" from t where id > ?',
        params: [0],
      };
      const expected = [
        { id: 1, name: 'a', at: 1, meta: '{"k":1}' },
        { id: 2, name: 'b', at: null, meta: null },
      ];
      for (let run = 0; run < 6; run++) {
        const rows = await db.all(query);
        expect(rows).toEqual(expected);
        expect(rows.map((row) => Object.keys(row))).toEqual(expected.map((row) => Object.keys(row)));
      }
    } finally {
      await db.close();
    }
  });
});
