import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readModelFiles } from '../project/read-model-files.js';
import type { FilterNode, SortTerm, Status } from '../query/query-types.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import { buildSchema } from '../schema/build-schema.js';
import type { ContentType, Model, Schema } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { mysqlDialect } from '../sql/dialects/mysql.js';
import { postgresDialect } from '../sql/dialects/postgres.js';
import { sqliteDialect } from '../sql/dialects/sqlite.js';
import {
  LINK_ID_KEY,
  LINK_ORDER_KEY,
  PARENT_KEY,
  planPopulate,
  planPopulateCount,
  type PopulateRead,
} from './plan-populate.js';

/** The example project's content model, as `cairn start --dir examples/blog` builds it. */
const files = readModelFiles(resolve(import.meta.dirname, '../../examples/blog'));
const schema: Schema = buildSchema([...BUILTIN_CONTENT_TYPES, ...files.contentTypes], files.components);
const type = (uid: string) => schema.contentTypes.get(uid) as ContentType;
const article = type('api::article.article');
const author = type('api::author.author');
const tag = type('api::tag.tag');

const read = (attribute: string, extra: Partial<PopulateRead> = {}): PopulateRead => ({
  attribute,
  fields: null,
  sort: [],
  filters: null,
  ...extra,
});
const sqlOf = (dialect: Dialect, parent: Model, populate: PopulateRead, ids: number[], status: Status = 'published') =>
  compileSelect(dialect, planPopulate(schema, parent, populate, ids, status).select);
const sqlite = (parent: Model, populate: PopulateRead, ids: number[], status: Status = 'published') =>
  sqlOf(sqliteDialect, parent, populate, ids, status);

/** The columns every tag is returned with (tags have no D&P and are not localized: no locale). */
const TAG_COLUMNS =
  '"t0"."id" as "id", "t0"."document_id" as "documentId", "t0"."name" as "name", "t0"."created_at" as "createdAt", "t0"."updated_at" as "updatedAt", "t0"."published_at" as "publishedAt"';

describe('planPopulate: manyToMany owner side (articles → tags), three dialects', () => {
  it.each<[string, Dialect, string, unknown[]]>([
    [
      'sqlite',
      sqliteDialect,
      `select ${TAG_COLUMNS}, "l0"."article_id" as "__parent", "l0"."id" as "__link", "l0"."tag_ord" as "__order" from "tags" as "t0" inner join "articles_tags_lnk" as "l0" on "l0"."tag_id" = "t0"."id" where "l0"."article_id" in (?, ?, ?) order by "l0"."tag_ord" asc, "l0"."id" asc`,
      [3, 5, 8],
    ],
    [
      'postgres',
      postgresDialect,
      `select ${TAG_COLUMNS}, "l0"."article_id" as "__parent", "l0"."id" as "__link", "l0"."tag_ord" as "__order" from "tags" as "t0" inner join "articles_tags_lnk" as "l0" on "l0"."tag_id" = "t0"."id" where "l0"."article_id" in ($1, $2, $3) order by "l0"."tag_ord" asc nulls first, "l0"."id" asc nulls first`,
      [3, 5, 8],
    ],
    [
      'mysql',
      mysqlDialect,
      'select `t0`.`id` as `id`, `t0`.`document_id` as `documentId`, `t0`.`name` as `name`, `t0`.`created_at` as `createdAt`, `t0`.`updated_at` as `updatedAt`, `t0`.`published_at` as `publishedAt`, `l0`.`article_id` as `__parent`, `l0`.`id` as `__link`, `l0`.`tag_ord` as `__order` from `tags` as `t0` inner join `articles_tags_lnk` as `l0` on `l0`.`tag_id` = `t0`.`id` where `l0`.`article_id` in (?, ?, ?) order by `l0`.`tag_ord` asc, `l0`.`id` asc',
      [3, 5, 8],
    ],
  ])('%s', (_name, dialect, sql, params) => {
    expect(sqlOf(dialect, article, read('tags'), [3, 5, 8])).toEqual({ sql, params });
  });

  it('follows a to-many link hop to the tag model and marks the hidden columns', () => {
    const { hop, select } = planPopulate(schema, article, read('tags'), [1], 'published');
    expect(hop.target).toBe(tag);
    expect(hop.toMany).toBe(true);
    const hidden = select.columns.filter((c) => c.hidden).map((c) => [c.as, `${c.column.alias}.${c.column.column}`]);
    expect(hidden).toEqual([
      [PARENT_KEY, 'l0.article_id'],
      [LINK_ID_KEY, 'l0.id'],
      [LINK_ORDER_KEY, 'l0.tag_ord'],
    ]);
    expect(select.columns.filter((c) => !c.hidden).map((c) => c.as)).toEqual([
      'id',
      'documentId',
      'name',
      'createdAt',
      'updatedAt',
      'publishedAt',
    ]);
    expect(select.limit).toBeNull();
    expect(select.offset).toBe(0);
  });

  it('reads the same rows for a draft request (tags have no draft & publish)', () => {
    expect(sqlite(article, read('tags'), [3], 'draft')).toEqual(sqlite(article, read('tags'), [3], 'published'));
  });
});

describe('planPopulate: inverse side (authors → articles)', () => {
  const titles = read('articles', { fields: ['title'] });

  it.each<[string, Dialect, string]>([
    [
      'sqlite',
      sqliteDialect,
      'select "t0"."id" as "id", "t0"."document_id" as "documentId", "t0"."title" as "title", "l0"."author_id" as "__parent", "l0"."id" as "__link", "l0"."article_ord" as "__order" from "articles" as "t0" inner join "articles_author_lnk" as "l0" on "l0"."article_id" = "t0"."id" where ("l0"."author_id" in (?, ?) and "t0"."published_at" is not null) order by "l0"."article_ord" asc, "l0"."id" asc',
    ],
    [
      'postgres',
      postgresDialect,
      'select "t0"."id" as "id", "t0"."document_id" as "documentId", "t0"."title" as "title", "l0"."author_id" as "__parent", "l0"."id" as "__link", "l0"."article_ord" as "__order" from "articles" as "t0" inner join "articles_author_lnk" as "l0" on "l0"."article_id" = "t0"."id" where ("l0"."author_id" in ($1, $2) and "t0"."published_at" is not null) order by "l0"."article_ord" asc nulls first, "l0"."id" asc nulls first',
    ],
    [
      'mysql',
      mysqlDialect,
      'select `t0`.`id` as `id`, `t0`.`document_id` as `documentId`, `t0`.`title` as `title`, `l0`.`author_id` as `__parent`, `l0`.`id` as `__link`, `l0`.`article_ord` as `__order` from `articles` as `t0` inner join `articles_author_lnk` as `l0` on `l0`.`article_id` = `t0`.`id` where (`l0`.`author_id` in (?, ?) and `t0`.`published_at` is not null) order by `l0`.`article_ord` asc, `l0`.`id` asc',
    ],
  ])('%s: the owner’s link table with columns swapped, published rows', (_name, dialect, sql) => {
    expect(sqlOf(dialect, author, titles, [1, 2])).toEqual({ sql, params: [1, 2] });
  });

  it('reads draft rows for a draft request', () => {
    expect(sqlite(author, titles, [1]).sql).toContain(
      'where ("l0"."author_id" in (?) and "t0"."published_at" is not null)',
    );
    expect(sqlite(author, titles, [1], 'draft').sql).toContain(
      'where ("l0"."author_id" in (?) and "t0"."published_at" is null)',
    );
  });

  it('manyToMany inverse side (tags → articles) orders by the owner’s inverse order column', () => {
    const { sql, params } = sqlite(tag, titles, [4]);
    expect(sql).toContain(
      'from "articles" as "t0" inner join "articles_tags_lnk" as "l0" on "l0"."article_id" = "t0"."id"',
    );
    expect(sql).toContain('"l0"."tag_id" as "__parent", "l0"."id" as "__link", "l0"."article_ord" as "__order"');
    expect(sql).toContain('where ("l0"."tag_id" in (?) and "t0"."published_at" is not null)');
    expect(sql.endsWith('order by "l0"."article_ord" asc, "l0"."id" asc')).toBe(true);
    expect(params).toEqual([4]);
  });

  it('to-one owner side (articles → author) has no order column: link id only', () => {
    const { hop, select } = planPopulate(schema, article, read('author'), [1], 'published');
    expect(hop.toMany).toBe(false);
    expect(select.columns.some((c) => c.as === LINK_ORDER_KEY)).toBe(false);
    const { sql } = compileSelect(sqliteDialect, select);
    expect(sql).toContain(
      '"l0"."article_id" as "__parent", "l0"."id" as "__link" from "authors" as "t0" inner join "articles_author_lnk" as "l0" on "l0"."author_id" = "t0"."id"',
    );
    expect(sql).toContain('where "l0"."article_id" in (?)');
    expect(sql.endsWith('order by "l0"."id" asc')).toBe(true);
  });
});

describe('planPopulate: components, media, localizations', () => {
  it('a single component through the owner’s _cmps table', () => {
    expect(sqlite(article, read('seo'), [7, 9])).toEqual({
      sql: 'select "t0"."id" as "id", "t0"."meta_title" as "metaTitle", "t0"."meta_description" as "metaDescription", "l0"."entity_id" as "__parent", "l0"."id" as "__link", "l0"."order" as "__order" from "components_shared_seos" as "t0" inner join "articles_cmps" as "l0" on "l0"."cmp_id" = "t0"."id" where ("l0"."entity_id" in (?, ?) and +"l0"."field" = ? and +"l0"."component_type" = ?) order by "l0"."order" asc, "l0"."id" asc',
      params: [7, 9, 'seo', 'shared.seo'],
    });
  });

  it('a dynamic-zone member: one read per component type', () => {
    const { hop, select } = planPopulate(
      schema,
      article,
      read('blocks', { component: 'shared.quote' }),
      [7],
      'published',
    );
    expect(hop.target).toBe(schema.components.get('shared.quote'));
    expect(hop.toMany).toBe(true);
    expect(compileSelect(postgresDialect, select)).toEqual({
      sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."body" as "body", "l0"."entity_id" as "__parent", "l0"."id" as "__link", "l0"."order" as "__order" from "components_shared_quotes" as "t0" inner join "articles_cmps" as "l0" on "l0"."cmp_id" = "t0"."id" where ("l0"."entity_id" in ($1) and "l0"."field" = $2 and "l0"."component_type" = $3) order by "l0"."order" asc nulls first, "l0"."id" asc nulls first',
      params: [7, 'blocks', 'shared.quote'],
    });
  });

  it('a component nested in a component uses the component’s own _cmps table', () => {
    const seo = schema.components.get('shared.seo') as Model;
    const { sql, params } = sqlite(seo, read('keywords'), [2]);
    expect(sql).toContain(
      'from "components_shared_keywords" as "t0" inner join "components_shared_seos_cmps" as "l0" on "l0"."cmp_id" = "t0"."id"',
    );
    expect(sql).toContain('where ("l0"."entity_id" in (?) and +"l0"."field" = ? and +"l0"."component_type" = ?)');
    expect(params).toEqual([2, 'keywords', 'shared.keyword']);
  });

  it('media through files_related_mph with related_type and field', () => {
    expect(sqlite(article, read('cover', { fields: ['name', 'url'] }), [7])).toEqual({
      sql: 'select "t0"."id" as "id", "t0"."document_id" as "documentId", "t0"."name" as "name", "t0"."url" as "url", "l0"."related_id" as "__parent", "l0"."id" as "__link", "l0"."order" as "__order" from "files" as "t0" inner join "files_related_mph" as "l0" on "l0"."file_id" = "t0"."id" where ("l0"."related_id" in (?) and "l0"."related_type" = ? and "l0"."field" = ?) order by "l0"."order" asc, "l0"."id" asc',
      params: [7, 'api::article.article', 'cover'],
    });
  });

  it('media of another model names that model’s uid and attribute', () => {
    const { sql, params } = compileSelect(
      mysqlDialect,
      planPopulate(schema, author, read('avatar', { fields: ['url'] }), [1, 2], 'draft').select,
    );
    expect(sql).toBe(
      'select `t0`.`id` as `id`, `t0`.`document_id` as `documentId`, `t0`.`url` as `url`, `l0`.`related_id` as `__parent`, `l0`.`id` as `__link`, `l0`.`order` as `__order` from `files` as `t0` inner join `files_related_mph` as `l0` on `l0`.`file_id` = `t0`.`id` where (`l0`.`related_id` in (?, ?) and `l0`.`related_type` = ? and `l0`.`field` = ?) order by `l0`.`order` asc, `l0`.`id` asc',
    );
    expect(params).toEqual([1, 2, 'api::author.author', 'avatar']);
  });

  it('media inside a component is keyed by the component uid', () => {
    const seo = schema.components.get('shared.seo') as Model;
    const { params } = sqlite(seo, read('shareImage'), [5]);
    expect(params).toEqual([5, 'shared.seo', 'shareImage']);
  });

  it('localizations: the other locales of the same document, same status', () => {
    expect(sqlite(article, read('localizations', { fields: ['title', 'locale'] }), [4, 6])).toEqual({
      sql: 'select "t0"."id" as "id", "t0"."document_id" as "documentId", "t0"."title" as "title", "t0"."locale" as "locale", "p0"."id" as "__parent" from "articles" as "t0" inner join "articles" as "p0" on ("p0"."document_id" = "t0"."document_id" and not ("t0"."locale" = "p0"."locale" or ("t0"."locale" is null and "p0"."locale" is null))) where ("p0"."id" in (?, ?) and "t0"."published_at" is not null) order by "t0"."id" asc',
      params: [4, 6],
    });
    const { select } = planPopulate(schema, article, read('localizations'), [4], 'draft');
    expect(select.columns.some((c) => c.as === LINK_ID_KEY || c.as === LINK_ORDER_KEY)).toBe(false);
    expect(compileSelect(sqliteDialect, select).sql).toContain(
      'where ("p0"."id" in (?) and "t0"."published_at" is null)',
    );
  });
});

describe('planPopulate: fields, sort and filters', () => {
  it('fields narrow the target columns; id, documentId and hidden keys stay', () => {
    const { sql } = sqlite(article, read('tags', { fields: ['name'] }), [1]);
    expect(
      sql.startsWith(
        'select "t0"."id" as "id", "t0"."document_id" as "documentId", "t0"."name" as "name", "l0"."article_id" as "__parent", "l0"."id" as "__link", "l0"."tag_ord" as "__order" from "tags" as "t0"',
      ),
    ).toBe(true);
  });

  it('fields on a component keep its id', () => {
    const { sql } = sqlite(article, read('seo', { fields: ['metaDescription'] }), [1]);
    expect(
      sql.startsWith(
        'select "t0"."id" as "id", "t0"."meta_description" as "metaDescription", "l0"."entity_id" as "__parent"',
      ),
    ).toBe(true);
  });

  it('default columns leave out passwords and private attributes', () => {
    const { select } = planPopulate(schema, author, read('articles'), [1], 'published');
    const names = select.columns.filter((c) => !c.hidden).map((c) => c.as);
    expect(names).toContain('title');
    expect(names).toContain('locale');
    expect(names).not.toContain('secretCode');
    expect(names).not.toContain('createdBy');
  });

  const byName: SortTerm[] = [{ path: ['name'], direction: 'desc' }];

  it.each<[string, Dialect, string]>([
    ['sqlite', sqliteDialect, ' order by "t0"."name" desc, "t0"."id" asc'],
    ['postgres', postgresDialect, ' order by "t0"."name" collate "C" desc nulls last, "t0"."id" asc nulls first'],
    ['mysql', mysqlDialect, ' order by cast(`t0`.`name` as binary) desc, `t0`.`id` asc'],
  ])('%s: sort replaces the link order and ends with an id tie-break', (_name, dialect, orderBy) => {
    const { sql } = sqlOf(dialect, article, read('tags', { sort: byName }), [1]);
    expect(sql.endsWith(orderBy)).toBe(true);
    expect(sql).not.toContain('order by "l0"');
    expect(sql).not.toContain('order by `l0`');
  });

  it('sort on id needs no extra tie-break', () => {
    const { sql } = sqlite(article, read('tags', { sort: [{ path: ['id'], direction: 'desc' }] }), [1]);
    expect(sql.endsWith(' order by "t0"."id" desc')).toBe(true);
  });

  it('the link columns are still returned when sorting', () => {
    const { sql } = sqlite(article, read('tags', { sort: byName }), [1]);
    expect(sql).toContain('"l0"."id" as "__link", "l0"."tag_ord" as "__order"');
  });

  it.each<[string, Dialect, string, unknown[]]>([
    [
      'sqlite',
      sqliteDialect,
      'where ("l0"."article_id" in (?, ?) and "t0"."name" like ? escape \'\\\')',
      [1, 2, '%news%'],
    ],
    [
      'postgres',
      postgresDialect,
      'where ("l0"."article_id" in ($1, $2) and "t0"."name" like $3 escape \'\\\')',
      [1, 2, '%news%'],
    ],
    ['mysql', mysqlDialect, 'where (`l0`.`article_id` in (?, ?) and `t0`.`name` like ?)', [1, 2, '%news%']],
  ])('%s: filters apply to the target rows at alias t0', (_name, dialect, where, params) => {
    const filters: FilterNode = { kind: 'compare', field: 'name', op: 'contains', value: 'news' };
    const { sql, params: bound } = sqlOf(dialect, article, read('tags', { filters }), [1, 2]);
    expect(sql).toContain(where);
    expect(bound).toEqual(params);
  });

  it('filters are ANDed after the link and status conditions', () => {
    const filters: FilterNode = {
      kind: 'or',
      children: [
        { kind: 'compare', field: 'views', op: 'gt', value: 10 },
        { kind: 'compare', field: 'title', op: 'eq', value: 'x' },
      ],
    };
    const { sql, params } = sqlite(author, read('articles', { fields: ['title'], filters }), [1]);
    expect(sql).toContain(
      'where (("l0"."author_id" in (?) and "t0"."published_at" is not null) and ("t0"."views" > ? or "t0"."title" = ?))',
    );
    expect(params).toEqual([1, 10, 'x']);
  });

  it('nested filters open a semi-join subquery with aliases that do not clash with t0/l0', () => {
    const filters: FilterNode = {
      kind: 'nested',
      attribute: 'author',
      child: { kind: 'compare', field: 'name', op: 'eq', value: 'Ann' },
    };
    const { sql, params } = sqlite(tag, read('articles', { fields: ['title'], filters }), [3], 'draft');
    expect(sql).toContain(
      'where (("l0"."tag_id" in (?) and "t0"."published_at" is null) and "t0"."id" in (select "l1"."article_id" from "authors" as "t1" inner join "articles_author_lnk" as "l1" on "l1"."author_id" = "t1"."id" where "t1"."name" = ?))',
    );
    expect(params).toEqual([3, 'Ann']);
  });
});

describe('planPopulateCount', () => {
  it.each<[string, Dialect, string]>([
    [
      'sqlite',
      sqliteDialect,
      'select "l0"."article_id" as "__parent", count("t0"."id") as "count" from "tags" as "t0" inner join "articles_tags_lnk" as "l0" on "l0"."tag_id" = "t0"."id" where "l0"."article_id" in (?, ?) group by "l0"."article_id"',
    ],
    [
      'postgres',
      postgresDialect,
      'select "l0"."article_id" as "__parent", count("t0"."id") as "count" from "tags" as "t0" inner join "articles_tags_lnk" as "l0" on "l0"."tag_id" = "t0"."id" where "l0"."article_id" in ($1, $2) group by "l0"."article_id"',
    ],
    [
      'mysql',
      mysqlDialect,
      'select `l0`.`article_id` as `__parent`, count(`t0`.`id`) as `count` from `tags` as `t0` inner join `articles_tags_lnk` as `l0` on `l0`.`tag_id` = `t0`.`id` where `l0`.`article_id` in (?, ?) group by `l0`.`article_id`',
    ],
  ])('%s: count(t0.id) per parent, no order', (_name, dialect, sql) => {
    expect(compileSelect(dialect, planPopulateCount(schema, article, read('tags'), [1, 2], 'published'))).toEqual({
      sql,
      params: [1, 2],
    });
  });

  it('keeps the status and filter conditions of the read', () => {
    const filters: FilterNode = { kind: 'compare', field: 'title', op: 'startsWith', value: 'A' };
    expect(
      compileSelect(sqliteDialect, planPopulateCount(schema, author, read('articles', { filters }), [5], 'draft')),
    ).toEqual({
      sql: 'select "l0"."author_id" as "__parent", count("t0"."id") as "count" from "articles" as "t0" inner join "articles_author_lnk" as "l0" on "l0"."article_id" = "t0"."id" where (("l0"."author_id" in (?) and "t0"."published_at" is null) and "t0"."title" like ? escape \'\\\') group by "l0"."author_id"',
      params: [5, 'A%'],
    });
  });

  it('ignores the read’s sort', () => {
    const plan = planPopulateCount(
      schema,
      article,
      read('tags', { sort: [{ path: ['name'], direction: 'asc' }] }),
      [1],
      'published',
    );
    expect(plan.orderBy).toEqual([]);
    expect(compileSelect(sqliteDialect, plan).sql).not.toContain('order by');
  });

  it('counts repeatable components through _cmps', () => {
    const seo = schema.components.get('shared.seo') as Model;
    expect(compileSelect(sqliteDialect, planPopulateCount(schema, seo, read('keywords'), [2, 3], 'published'))).toEqual(
      {
        sql: 'select "l0"."entity_id" as "__parent", count("t0"."id") as "count" from "components_shared_keywords" as "t0" inner join "components_shared_seos_cmps" as "l0" on "l0"."cmp_id" = "t0"."id" where ("l0"."entity_id" in (?, ?) and +"l0"."field" = ? and +"l0"."component_type" = ?) group by "l0"."entity_id"',
        params: [2, 3, 'keywords', 'shared.keyword'],
      },
    );
  });

  it('counts localizations grouped by the parent row', () => {
    const { sql } = compileSelect(
      sqliteDialect,
      planPopulateCount(schema, article, read('localizations'), [1], 'published'),
    );
    expect(
      sql.startsWith(
        'select "p0"."id" as "__parent", count("t0"."id") as "count" from "articles" as "t0" inner join "articles" as "p0"',
      ),
    ).toBe(true);
    expect(sql.endsWith(' group by "p0"."id"')).toBe(true);
  });
});
