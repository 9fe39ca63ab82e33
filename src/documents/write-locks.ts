import type { Executor, Transaction } from '../db/database.js';
import type { Status } from '../query/query-types.js';
import { documentIndex } from '../schema/tables.js';
import type { ContentType, ScalarAttribute } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { versionCondition } from './document-rows.js';

/*
 * The locking discipline of document writes (PostgreSQL and MySQL; SQLite runs one transaction
 * at a time, see db/sqlite-database.ts). Every write transaction starts by taking, in one sorted
 * request, the named locks of what it is about to write, and holds them until it ends:
 *
 * - `document:<uid>:<documentId>` for an update, publish or delete of an existing document (all
 *   its locales and versions): writes of one document run one after the other, and each reads
 *   the document as the previous one left it (no deleted document brought back by an update
 *   that read it before the delete, no two published rows from racing publishes, no publish of
 *   an out-of-date draft).
 * - `single:<uid>` for a single type, whose writes find, then create or update, its one document.
 * - `unique:<uid>:<attribute>:<value>` for each unique attribute value written: two documents
 *   cannot both pass the uniqueness check with the same value.
 *
 * Rows are locked only where they are about to be deleted: a delete's rows, and the published
 * row a publish replaces (SELECT … FOR UPDATE, just before). Another transaction inserting a link
 * to such a row holds a share lock on it (its foreign key check): the delete waits until that link
 * is committed, so the publish moves it to the new row instead of the delete cascading it away;
 * or the link's insert waits for the delete and then finds no row, and its write is run again
 * (db/retry-conflicts.ts) to link the new row or report the target gone. Rows a write only
 * updates are not locked up front. On PostgreSQL a write linking to them (a key-share lock) never
 * waits for the update; on MySQL its share lock does, so two writes linking each other's
 * documents (each updating its own row, then linking the other's) deadlock, and the one MySQL
 * rolls back runs again.
 *
 * A write that finds its document gone once it holds the lock answers 404, as Strapi does for
 * a document that does not exist.
 */

/**
 * The lock of a document: every write of any of its locales and versions takes it. A single
 * type's documents share one lock (singleTypeLock).
 */
export function documentLock(type: ContentType, documentId: string): string {
  return type.kind === 'singleType' ? singleTypeLock(type) : `document:${type.uid}:${documentId}`;
}

/** The lock of a single type: its writes find, then create or update, its one document. */
export function singleTypeLock(type: ContentType): string {
  return `single:${type.uid}`;
}

/** The locks of the unique attribute values a write sets (null values are never compared). */
export function uniqueValueLocks(
  type: ContentType,
  values: ReadonlyMap<string, { readonly attribute: ScalarAttribute; readonly value: unknown }>,
): string[] {
  const keys: string[] = [];
  for (const { attribute, value } of values.values()) {
    if (attribute.unique && value !== null && value !== undefined)
      keys.push(`unique:${type.uid}:${attribute.name}:${JSON.stringify(value)}`);
  }
  return keys;
}

/**
 * A condition a write must still meet when it commits, which the content model cannot express
 * (an email no other account holds): `check` runs inside the write's transaction once `locks` are
 * held along with the write's own, so two racing writes cannot both pass it. It throws the
 * error to answer.
 */
export interface WriteGuard {
  readonly locks: readonly string[];
  check(exec: Executor): Promise<void>;
}

/** A stored row of a document: one version of one locale. */
export interface VersionRow {
  readonly id: number;
  readonly locale: string | null;
  readonly status: Status;
}

/**
 * Takes the document's lock (with `otherLocks`), then reads its rows, every locale and version,
 * oldest first (empty: the document does not exist, or was deleted meanwhile).
 */
export async function lockDocument(
  tx: Transaction,
  dialect: Dialect,
  type: ContentType,
  documentId: string,
  otherLocks: readonly string[] = [],
): Promise<VersionRow[]> {
  await tx.lock([documentLock(type, documentId), ...otherLocks]);
  return documentRows(tx, dialect, type, documentId, false);
}

/** lockDocument for a delete: the rows read are locked too, until the transaction ends (see above). */
export async function lockDocumentForDelete(
  tx: Transaction,
  dialect: Dialect,
  type: ContentType,
  documentId: string,
): Promise<VersionRow[]> {
  await tx.lock([documentLock(type, documentId)]);
  return documentRows(tx, dialect, type, documentId, true);
}

/**
 * The rows of a document whose lock the transaction already holds (see lockDocument), every
 * locale and version, oldest first; `forDelete` locks them too.
 */
export async function documentRows(
  tx: Transaction,
  dialect: Dialect,
  type: ContentType,
  documentId: string,
  forDelete: boolean,
): Promise<VersionRow[]> {
  const rows = await tx.all(
    compileSelect(dialect, {
      from: { table: type.table, alias: '' },
      columns: [
        { column: { alias: '', column: 'id' }, as: 'id', kind: 'integer' },
        ...(type.localized ? [{ column: { alias: '', column: 'locale' }, as: 'locale', kind: 'string' as const }] : []),
        ...(type.draftAndPublish
          ? [{ column: { alias: '', column: 'published_at' }, as: 'publishedAt', kind: 'datetime' as const }]
          : []),
      ],
      where: versionCondition(type, { documentId, locale: '*' }),
      orderBy: [{ column: { alias: '', column: 'id' }, direction: 'asc', kind: 'integer' }],
      limit: null,
      offset: 0,
      forUpdate: forDelete,
      throughIndex: documentIndex(type.table),
    }),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    locale: type.localized ? String(row.locale) : null,
    status: type.draftAndPublish && (row.publishedAt === null || row.publishedAt === undefined) ? 'draft' : 'published',
  }));
}

/** The ids of the rows in `locale` (`*` or null: every locale) and, when given, `status`. */
export function versionIds(rows: readonly VersionRow[], locale: string | null, status?: Status): number[] {
  return rows
    .filter(
      (row) =>
        (locale === null || locale === '*' || row.locale === locale) && (status === undefined || row.status === status),
    )
    .map((row) => row.id);
}
