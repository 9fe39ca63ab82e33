import { describe, expect, it } from 'vitest';
import { columnEquals, type Condition, type SelectPlan, type ValueKind } from '../plan/plan-types.js';
import { compileCount, compileSelect, compileSelectWithTotal } from './compile-read.js';
import { isIn, simpleSelect } from '../plan/simple-plans.js';
import { compileCopyRows, compileDelete, compileInsert, compileUpdate } from './compile-write.js';
import type { Dialect } from './dialect.js';
import { mysqlDialect } from './dialects/mysql.js';
import { postgresDialect } from './dialects/postgres.js';
import { sqliteDialect } from './dialects/sqlite.js';

const t0 = (column: string) => ({ alias: 't0', column });
const compare = (
  column: string,
  op: Extract<Condition, { kind: 'compare' }>['op'],
  value: unknown,
  valueKind: ValueKind = 'string',
): Condition => ({
  kind: 'compare',
  column: t0(column),
  op,
  value,
  valueKind,
});
const select = (where: Condition | null, extra: Partial<SelectPlan> = {}): SelectPlan => ({
  from: { table: 'articles', alias: 't0' },
  columns: [
    { column: t0('id'), as: 'id', kind: 'integer' },
    { column: t0('bigcount'), as: 'bigcount', kind: 'biginteger' },
  ],
  where,
  orderBy: [{ column: t0('id'), direction: 'asc', kind: 'integer' }],
  limit: 25,
  offset: 0,
  ...extra,
});

describe('golden SQL (SQLite)', () => {
  it.each<[string, Condition, string, unknown[]]>([
    ['eq', compare('title', 'eq', 'x'), '"t0"."title" = ?', ['x']],
    ['eq null', compare('title', 'eq', null), '"t0"."title" is null', []],
    ['ne null', compare('title', 'ne', null), '"t0"."title" is not null', []],
    ['boolean encodes 0/1', compare('is_featured', 'eq', true, 'boolean'), '"t0"."is_featured" = ?', [1]],
    [
      'datetime encodes epoch ms',
      compare('created_at', 'gt', new Date('2024-05-17T13:45:00.000Z'), 'datetime'),
      '"t0"."created_at" > ?',
      [1715953500000],
    ],
    ['eqi', compare('title', 'eqi', 'X'), 'lower("t0"."title") = lower(?)', ['X']],
    ['in', compare('views', 'in', [1, 2], 'integer'), '"t0"."views" in (?, ?)', [1, 2]],
    ['empty in matches nothing', compare('views', 'in', [], 'integer'), '1 = 0', []],
    ['empty notIn matches all', compare('views', 'notIn', [], 'integer'), '1 = 1', []],
    ['between', compare('views', 'between', [1, 9], 'integer'), '"t0"."views" between ? and ?', [1, 9]],
    [
      'contains escapes wildcards',
      compare('title', 'contains', '100%_\\'),
      `"t0"."title" like ? escape '\\'`,
      ['%100\\%\\_\\\\%'],
    ],
    ['notContainsi', compare('title', 'notContainsi', 'a'), `not ("t0"."title" like ? escape '\\')`, ['%a%']],
    ['startsWith', compare('title', 'startsWith', 'a'), `"t0"."title" like ? escape '\\'`, ['a%']],
    ['endsWithi', compare('title', 'endsWithi', 'a'), `"t0"."title" like ? escape '\\'`, ['%a']],
    ['null=false', compare('title', 'null', false), '"t0"."title" is not null', []],
    ['notNull=true', compare('title', 'notNull', true), '"t0"."title" is not null', []],
    [
      'and/or/not',
      {
        kind: 'and',
        children: [
          compare('a', 'eq', 1, 'integer'),
          { kind: 'not', child: { kind: 'or', children: [compare('b', 'eq', 'x'), compare('c', 'eq', 'y')] } },
        ],
      },
      '("t0"."a" = ? and not ("t0"."b" = ? or "t0"."c" = ?))',
      [1, 'x', 'y'],
    ],
    [
      'search',
      { kind: 'search', columns: [t0('id'), t0('title')], term: 'a_b' },
      `("t0"."id" like ? escape '\\' or "t0"."title" like ? escape '\\')`,
      ['%a\\_b%', '%a\\_b%'],
    ],
    [
      'exists over a peer row',
      {
        kind: 'exists',
        from: { table: 'articles', alias: 'pf' },
        where: { kind: 'sameValue', left: { alias: 'pf', column: 'locale' }, right: t0('locale') },
      },
      'exists (select 1 as "one" from "articles" as "pf" where ("pf"."locale" = "t0"."locale" or ("pf"."locale" is null and "t0"."locale" is null)))',
      [],
    ],
  ])('%s', (_name, where, sqlWhere, params) => {
    const compiled = compileSelect(sqliteDialect, select(where));
    expect(compiled.sql).toBe(
      `select "t0"."id" as "id", cast("t0"."bigcount" as text) as "bigcount" from "articles" as "t0" where ${sqlWhere} order by "t0"."id" asc limit +?`,
    );
    expect(compiled.params).toEqual([...params, 25]);
  });

  it('offset without a limit uses the largest safe limit', () => {
    const compiled = compileSelect(sqliteDialect, select(null, { limit: null, offset: 10, orderBy: [] }));
    expect(compiled.sql).toBe(
      'select "t0"."id" as "id", cast("t0"."bigcount" as text) as "bigcount" from "articles" as "t0" limit +? offset +?',
    );
    expect(compiled.params).toEqual([Number.MAX_SAFE_INTEGER, 10]);
  });

  it('count', () => {
    const compiled = compileCount(sqliteDialect, {
      from: { table: 'articles', alias: 't0' },
      where: compare('views', 'gte', 3, 'integer'),
    });
    expect(compiled).toEqual({
      sql: 'select count(*) as "count" from "articles" as "t0" where "t0"."views" >= ?',
      params: [3],
    });
  });

  it('count through a to-one relation filter: its tables joined on SQLite, `in (subquery)` elsewhere', () => {
    const byAuthor = (distinct: boolean): Condition => ({
      kind: 'inSelect',
      column: { alias: 't0', column: 'id' },
      selected: { alias: 'l1', column: 'article_id' },
      from: { table: 'authors', alias: 't1' },
      joins: [
        {
          table: 'articles_author_lnk',
          alias: 'l1',
          on: {
            kind: 'compareColumns',
            left: { alias: 'l1', column: 'author_id' },
            op: 'eq',
            right: { alias: 't1', column: 'id' },
          },
        },
      ],
      where: { kind: 'compare', column: { alias: 't1', column: 'name' }, op: 'eq', value: 'Ann', valueKind: 'string' },
      ...(distinct && { distinct }),
    });
    const count = (dialect: Dialect, distinct: boolean) =>
      compileCount(dialect, {
        from: { table: 'articles', alias: 't0' },
        where: { kind: 'and', children: [compare('views', 'gte', 3, 'integer'), byAuthor(distinct)] },
      });
    const links = 'from "authors" as "t1" inner join "articles_author_lnk" as "l1" on "l1"."author_id" = "t1"."id"';
    expect(count(sqliteDialect, true)).toEqual({
      sql: `select count(*) as "count" ${links} cross join "articles" as "t0" on "t0"."id" = "l1"."article_id" where ("t1"."name" = ? and "t0"."views" >= ?)`,
      params: ['Ann', 3],
    });
    const asIn = `select count(*) as "count" from "articles" as "t0" where ("t0"."views" >= ? and "t0"."id" in (select "l1"."article_id" ${links} where "t1"."name" = ?))`;
    expect(count(sqliteDialect, false)).toEqual({ sql: asIn, params: [3, 'Ann'] });
    for (const dialect of [postgresDialect, mysqlDialect]) {
      expect(count(dialect, true).sql).toContain(' in (select ');
      expect(count(dialect, true).sql).not.toContain('cross join');
    }
  });

  it('insert returns ids and encodes JSON, booleans and big integers', () => {
    const row = new Map([
      ['title', { value: 'x', kind: 'string' as const }],
      ['meta', { value: { a: 1 }, kind: 'json' as const }],
      ['is_featured', { value: false, kind: 'boolean' as const }],
      ['bigcount', { value: '9223372036854775807', kind: 'biginteger' as const }],
    ]);
    expect(compileInsert(sqliteDialect, { table: 'articles', rows: [row] })).toEqual({
      sql: 'insert into "articles" ("title", "meta", "is_featured", "bigcount") values (?, ?, ?, ?) returning "id"',
      params: ['x', '{"a":1}', 0, 9223372036854775807n],
    });
  });

  it('update and delete', () => {
    const where: Condition = {
      kind: 'compare',
      column: { alias: '', column: 'id' },
      op: 'eq',
      value: 3,
      valueKind: 'integer',
    };
    expect(
      compileUpdate(sqliteDialect, { table: 'tags', set: new Map([['name', { value: 'n', kind: 'string' }]]), where }),
    ).toEqual({
      sql: 'update "tags" set "name" = ? where "id" = ?',
      params: ['n', 3],
    });
    expect(compileDelete(sqliteDialect, { table: 'tags', where })).toEqual({
      sql: 'delete from "tags" where "id" = ?',
      params: [3],
    });
  });

  it('a delete given an index reads through it on MySQL only (which locks every row a delete reads)', () => {
    const plan = {
      table: 'files_related_mph',
      where: columnEquals('related_id', 3, 'integer'),
      throughIndex: 'files_related_mph_related_idx',
    };
    expect(compileDelete(mysqlDialect, plan).sql).toBe(
      'delete `files_related_mph` from `files_related_mph` force index (`files_related_mph_related_idx`) where `related_id` = ?',
    );
    expect(compileDelete(postgresDialect, plan).sql).toBe('delete from "files_related_mph" where "related_id" = $1');
    expect(compileDelete(sqliteDialect, plan).sql).toBe('delete from "files_related_mph" where "related_id" = ?');
  });

  it('a locking read given an index reads through it on MySQL only; a read that locks nothing never names it', () => {
    const plan: SelectPlan = {
      from: { table: 'articles', alias: '' },
      columns: [{ column: { alias: '', column: 'id' }, as: 'id', kind: 'integer' }],
      where: columnEquals('document_id', 'd', 'string'),
      orderBy: [{ column: { alias: '', column: 'id' }, direction: 'asc', kind: 'integer' }],
      limit: null,
      offset: 0,
      forUpdate: true,
      throughIndex: 'articles_documents_idx',
    };
    expect(compileSelect(mysqlDialect, plan).sql).toBe(
      'select `id` as `id` from `articles` force index (`articles_documents_idx`) where `document_id` = ? order by `id` asc for update',
    );
    expect(compileSelect(postgresDialect, plan).sql).toBe(
      'select "id" as "id" from "articles" where "document_id" = $1 order by "id" asc nulls first for update',
    );
    expect(compileSelect(mysqlDialect, { ...plan, forUpdate: false }).sql).toBe(
      'select `id` as `id` from `articles` where `document_id` = ? order by `id` asc',
    );
  });

  it('copy rows (publish) in one statement', () => {
    const where: Condition = {
      kind: 'compare',
      column: { alias: '', column: 'id' },
      op: 'eq',
      value: 7,
      valueKind: 'integer',
    };
    const compiled = compileCopyRows(sqliteDialect, {
      table: 'articles',
      columns: ['document_id', 'title', 'published_at'],
      overrides: new Map([['published_at', { value: new Date(1000), kind: 'datetime' }]]),
      where,
    });
    expect(compiled).toEqual({
      sql: 'insert into "articles" ("document_id", "title", "published_at") select "document_id" as "document_id", "title" as "title", ? as "published_at" from "articles" where "id" = ? returning "id"',
      params: [1000, 7],
    });
  });
});

describe('golden SQL: one sorted page, three dialects (ids sorted and cut first, then the rows read)', () => {
  const plan: SelectPlan = {
    from: { table: 'articles', alias: 't0' },
    columns: [
      { column: t0('id'), as: 'id', kind: 'integer' },
      { column: t0('title'), as: 'title', kind: 'string' },
      { column: t0('bigcount'), as: 'bigcount', kind: 'biginteger' },
    ],
    where: {
      kind: 'and',
      children: [
        compare('published_at', 'notNull', true, 'datetime'),
        compare('is_featured', 'eq', true, 'boolean'),
        { kind: 'compare', column: t0('views'), op: 'containsi', value: '5%', valueKind: 'integer' },
        compare('created_at', 'gte', new Date('2024-05-17T13:45:00.000Z'), 'datetime'),
      ],
    },
    orderBy: [
      { column: t0('title'), direction: 'asc', kind: 'string' },
      { column: t0('id'), direction: 'desc', kind: 'integer' },
    ],
    limit: 10,
    offset: 20,
  };

  it.each([
    [
      sqliteDialect,
      `select "t0"."id" as "id", "t0"."title" as "title", cast("t0"."bigcount" as text) as "bigcount" from "articles" as "t0" inner join (select "t0"."id" as "id" from "articles" as "t0" where ("t0"."published_at" is not null and "t0"."is_featured" = ? and "t0"."views" like ? escape '\\' and "t0"."created_at" >= ?) order by "t0"."title" asc, "t0"."id" desc limit +? offset +?) as "p" on "p"."id" = "t0"."id" order by "t0"."title" asc, "t0"."id" desc`,
      [1, '%5\\%%', 1715953500000, 10, 20],
    ],
    [
      postgresDialect,
      `select "t0"."id" as "id", "t0"."title" as "title", "t0"."bigcount" as "bigcount" from "articles" as "t0" inner join (select "t0"."id" as "id" from "articles" as "t0" where ("t0"."published_at" is not null and "t0"."is_featured" = $1 and lower(cast("t0"."views" as varchar)) like lower($2) escape '\\' and "t0"."created_at" >= $3) order by "t0"."title" collate "C" asc nulls first, "t0"."id" desc nulls last limit $4 offset $5) as "p" on "p"."id" = "t0"."id" order by "t0"."title" collate "C" asc nulls first, "t0"."id" desc nulls last`,
      [true, '%5\\%%', '2024-05-17 13:45:00.000', 10, 20],
    ],
    [
      mysqlDialect,
      'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`bigcount` as `bigcount` from `articles` as `t0` inner join (select `t0`.`id` as `id` from `articles` as `t0` where (`t0`.`published_at` is not null and `t0`.`is_featured` = ? and lower(`t0`.`views`) like lower(?) and `t0`.`created_at` >= ?) order by cast(`t0`.`title` as binary) asc, `t0`.`id` desc limit ? offset ?) as `p` on `p`.`id` = `t0`.`id` order by cast(`t0`.`title` as binary) asc, `t0`.`id` desc',
      // LIMIT/OFFSET bound as strings: MySQL 8.0.22+ refuses JS numbers there in prepared statements.
      [1, '%5\\%%', new Date('2024-05-17T13:45:00.000Z'), '10', '20'],
    ],
  ])('%s', (dialect, sql, params) => {
    expect(compileSelect(dialect, plan)).toEqual({ sql, params });
  });

  it('with its total: on SQLite the matches read once into a materialized CTE and counted there, carried out by the page rows', () => {
    const { sql, params } = compileSelectWithTotal(sqliteDialect, plan) ?? { sql: '', params: [] };
    expect(sql).toBe(
      `with "m" as materialized (select "t0"."id" as "id", "t0"."title" as "s0", "t0"."id" as "s1" from "articles" as "t0" where ("t0"."published_at" is not null and "t0"."is_featured" = ? and "t0"."views" like ? escape '\\' and "t0"."created_at" >= ?)) select "t0"."id" as "id", "t0"."title" as "title", cast("t0"."bigcount" as text) as "bigcount", "p"."__total" as "__total" from "articles" as "t0" inner join (select "m"."id" as "id", (select count(*) from "m") as "__total" from "m" order by "m"."s0" asc, "m"."s1" desc limit +? offset +?) as "p" on "p"."id" = "t0"."id" order by "t0"."title" asc, "t0"."id" desc`,
    );
    expect(params).toEqual([1, '%5\\%%', 1715953500000, 10, 20]);
    // PostgreSQL and MySQL: count(*) over () beside the sorted ids.
    expect(compileSelectWithTotal(postgresDialect, plan)?.sql).toContain('count(*) over () as "__total"');
    expect(compileSelectWithTotal(mysqlDialect, plan)?.sql).toContain('count(*) over () as `__total`');
    // In id order a page stops at its last row: no window there, the COUNT stays apart.
    const byId = { ...plan, orderBy: [{ column: t0('id'), direction: 'asc' as const, kind: 'integer' as const }] };
    expect(compileSelectWithTotal(sqliteDialect, byId)).toBeNull();
    expect(compileSelectWithTotal(sqliteDialect, { ...plan, limit: null })).toBeNull();
  });

  it('inserts: RETURNING where the dialect has it', () => {
    const rows = [new Map([['name', { value: 'x', kind: 'string' as const }]])];
    expect(compileInsert(postgresDialect, { table: 'tags', rows }).sql).toBe(
      'insert into "tags" ("name") values ($1) returning "id"',
    );
    expect(compileInsert(mysqlDialect, { table: 'tags', rows }).sql).toBe('insert into `tags` (`name`) values (?)');
  });
});

describe('golden SQL: a count per key in one grouped statement, three dialects', () => {
  const plan = simpleSelect(
    'articles_tags_lnk',
    { source: ['article_id', 'integer'], count: ['tag_id', 'integer', 'count'] },
    isIn('article_id', [1, 2]),
    { groupBy: ['article_id'] },
  );

  it.each([
    [
      sqliteDialect,
      'select "article_id" as "source", count("tag_id") as "count" from "articles_tags_lnk" where "article_id" in (?, ?) group by "article_id"',
    ],
    [
      postgresDialect,
      'select "article_id" as "source", count("tag_id") as "count" from "articles_tags_lnk" where "article_id" in ($1, $2) group by "article_id"',
    ],
    [
      mysqlDialect,
      'select `article_id` as `source`, count(`tag_id`) as `count` from `articles_tags_lnk` where `article_id` in (?, ?) group by `article_id`',
    ],
  ])('%s', (dialect, sql) => {
    expect(compileSelect(dialect, plan)).toEqual({ sql, params: [1, 2] });
  });

  it('orders by the given columns', () => {
    const latest = simpleSelect('articles', { id: ['id', 'integer'] }, null, {
      orderBy: [['updated_at', 'desc', 'datetime']],
      limit: 4,
    });
    expect(compileSelect(sqliteDialect, latest)).toEqual({
      sql: 'select "id" as "id" from "articles" order by "updated_at" desc limit +?',
      params: [4],
    });
  });
});

describe('a page per parent (GraphQL relation pagination)', () => {
  const perParent = select(null, {
    limit: null,
    perParent: { key: { alias: 'l0', column: 'article_id' }, offset: 2, limit: 5 },
  });

  it('numbers the rows within each parent in the read order and keeps one window of them', () => {
    const { sql, params } = compileSelect(sqliteDialect, perParent);
    expect(sql).toBe(
      'select * from (select "t0"."id" as "id", cast("t0"."bigcount" as text) as "bigcount", ' +
        'row_number() over (partition by "l0"."article_id" order by "t0"."id" asc) as "__rn" from "articles" as "t0") ' +
        'as "w" where "w"."__rn" > ? and "w"."__rn" <= ? order by "w"."__rn" asc',
    );
    expect(params).toEqual([2, 7]);
  });

  it('has no upper bound without a limit, and quotes per dialect', () => {
    const open = { ...perParent, perParent: { key: { alias: 'l0', column: 'article_id' }, offset: 0, limit: null } };
    expect(compileSelect(mysqlDialect, open).sql).toMatch(
      /partition by `l0`.`article_id` order by .* as `__rn` from `articles` as `t0`\) as `w` where `w`.`__rn` > \? order by `w`.`__rn` asc$/,
    );
    expect(compileSelect(postgresDialect, open).params).toEqual([0]);
  });
});
