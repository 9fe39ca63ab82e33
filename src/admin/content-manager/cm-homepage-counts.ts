import type { Database } from '../../db/database.js';
import { columnsEqual } from '../../plan/hops.js';
import { allOf, type Condition, type JoinClause, type SelectPlan, type ValueKind } from '../../plan/plan-types.js';
import { simpleSelect } from '../../plan/simple-plans.js';
import type { ContentType } from '../../schema/types.js';
import { decodeValue } from '../../shape/decode-value.js';
import { compileCount, compileSelect } from '../../sql/compile-read.js';

/** How many of a type's documents the home page shows as draft, published and modified. */
export interface StatusCounts {
  readonly draft: number;
  readonly published: number;
  readonly modified: number;
}

/** One stored version of a document, as the home page lists it. */
export interface HomepageVersion {
  readonly type: ContentType;
  readonly documentId: string;
  readonly locale: string | null;
  readonly title: unknown;
  readonly updatedAt: string;
  readonly publishedAt: string | null;
}

const isNull = (alias: string, column: string, isNullValue: boolean): Condition => ({
  kind: 'compare',
  column: { alias, column },
  op: isNullValue ? 'null' : 'notNull',
  value: true,
  valueKind: 'datetime',
});

/**
 * A type's documents by status, counted in one statement whatever their number. Each draft row
 * (each document version an editor sees; every row of a type without draft & publish, all
 * published) is a draft when its locale has no published row, published when that row has the
 * draft's `updated_at` (publishing copies it), modified otherwise:
 *
 *   select count(d.id) as drafts, count(p.id) as withPublished, count(s.id) as unchanged
 *   from articles d
 *   left join articles p on p.document_id = d.document_id and p.locale ≡ d.locale and p.published_at is not null
 *   left join articles s on … and s.updated_at = d.updated_at
 *   where d.published_at is null
 */
export async function statusCounts(db: Database, type: ContentType): Promise<StatusCounts> {
  if (!type.draftAndPublish) {
    const [row] = await db.all(compileCount(db.dialect, { from: { table: type.table, alias: '' }, where: null }));
    return { draft: 0, published: Number(row?.count ?? 0), modified: 0 };
  }
  const published = (alias: string, sameUpdate: boolean): JoinClause => ({
    table: type.table,
    alias,
    left: true,
    on: allOf([
      columnsEqual(alias, 'document_id', 'd', 'document_id'),
      type.localized
        ? { kind: 'sameValue', left: { alias, column: 'locale' }, right: { alias: 'd', column: 'locale' } }
        : null,
      isNull(alias, 'published_at', false),
      sameUpdate ? columnsEqual(alias, 'updated_at', 'd', 'updated_at') : null,
    ]) as Condition,
  });
  const count = (alias: string, as: string) =>
    ({ column: { alias, column: 'id' }, as, kind: 'integer', aggregate: 'count' }) as const;
  const plan: SelectPlan = {
    from: { table: type.table, alias: 'd' },
    joins: [published('p', false), published('s', true)],
    columns: [count('d', 'drafts'), count('p', 'withPublished'), count('s', 'unchanged')],
    where: isNull('d', 'published_at', true),
    orderBy: [],
    limit: null,
    offset: 0,
  };
  const [row] = await db.all(compileSelect(db.dialect, plan));
  const drafts = Number(row?.drafts ?? 0);
  const withPublished = Number(row?.withPublished ?? 0);
  const unchanged = Number(row?.unchanged ?? 0);
  return { draft: drafts - withPublished, published: unchanged, modified: withPublished - unchanged };
}

/**
 * A type's `limit` latest versions an editor sees (drafts, or every row without draft & publish),
 * by `updated_at`; `published`: its latest published rows by `published_at`. One statement,
 * whatever the number of rows. `title` is the main field's column, when it has one; `covered`, a
 * condition the rows must meet too (the admin's read permission), when there is one.
 */
export async function latestVersions(
  db: Database,
  type: ContentType,
  titleColumn: string | null,
  published: boolean,
  limit: number,
  covered: Condition | null = null,
): Promise<HomepageVersion[]> {
  const columns: Record<string, readonly [string, ValueKind]> = {
    documentId: ['document_id', 'string'],
    updatedAt: ['updated_at', 'datetime'],
    publishedAt: ['published_at', 'datetime'],
    ...(type.localized ? { locale: ['locale', 'string'] } : {}),
    ...(titleColumn !== null ? { title: [titleColumn, 'string'] } : {}),
  };
  const where = allOf([type.draftAndPublish ? isNull('', 'published_at', !published) : null, covered]);
  const order = published ? 'published_at' : 'updated_at';
  const rows = await db.all(
    compileSelect(
      db.dialect,
      simpleSelect(type.table, columns, where, {
        orderBy: [
          [order, 'desc', 'datetime'],
          ['id', 'desc', 'integer'],
        ],
        limit,
      }),
    ),
  );
  return rows.map((row) => ({
    type,
    documentId: String(row.documentId),
    locale: (row.locale as string | null | undefined) ?? null,
    title: row.title ?? row.documentId,
    updatedAt: String(decodeValue('datetime', row.updatedAt)),
    publishedAt: row.publishedAt === null ? null : String(decodeValue('datetime', row.publishedAt)),
  }));
}
