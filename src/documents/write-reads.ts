import type { Executor } from '../db/database.js';
import type { Status } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import type { Dialect } from '../sql/dialect.js';
import type { DocumentContext } from './context.js';
import { deepPopulateParam } from './read-params.js';
import { findVersionIds } from './document-rows.js';
import { FIND_ONE_EVENTS, fireWriteReads, readRow, readRows, type RowHooks } from './row-hooks.js';

/*
 * The reads Strapi 5's Document Service makes of a type's rows while it writes, each firing the
 * type's findOne/findMany lifecycles (recorded from Strapi 5.54 with a function subscriber):
 *
 * - update: the version written looked up (`{ where: { documentId, locale, publishedAt: { $null: true } } }`),
 *   and when there is none, whether the document exists at all (`{ where: { documentId } }`);
 * - delete: the rows to delete (`findMany({ where: { documentId, locale } })`);
 * - publish: the drafts (deep populate) and the published rows (`select: ['id', 'locale']`),
 *   both at once; before each new published row, a check that none is there (`select: ['id']`);
 * - discard: the same, published and draft swapped; unpublish: the published rows;
 * - a single type's write or delete: `findOne()` of any row, to know its documentId;
 * - after the commit, its event hub reads each version written (deep populate) for the
 *   `entry.create`/`update`/`publish` events.
 *
 * Each function fires them only when the type has such hooks; what they find is read then.
 */

/** Where a write's reads find rows: its transaction (or the pool, after commit). */
export interface WriteReader {
  readonly schema: Schema;
  readonly exec: Executor;
  readonly dialect: Dialect;
  readonly hooks: RowHooks | undefined;
}

/** The status and locale lookup of a document's versions: `locale` unless every locale is meant (`*`). */
function lookup(type: ContentType, documentId: string, locale: string | null): Record<string, unknown> {
  return type.localized && locale !== null && locale !== '*' ? { documentId, locale } : { documentId };
}

const rowOrNull = (reader: WriteReader, type: ContentType, id: number | undefined) => async () =>
  id === undefined ? null : readRow(reader.exec, reader.dialect, type, id);

const rowsOf = (reader: WriteReader, type: ContentType, ids: readonly number[]) => () =>
  readRows(reader.exec, reader.dialect, type, ids);

/**
 * An update's lookup of the version it writes (`draftId`: the draft row, the only row without
 * draft & publish; undefined: none), then, without one, of any version (`anyId`).
 */
export async function updateLookupReads(
  reader: WriteReader,
  type: ContentType,
  documentId: string,
  locale: string | null,
  draftId: number | undefined,
  anyId: number | undefined,
): Promise<void> {
  const where = {
    ...lookup(type, documentId, locale),
    ...(type.draftAndPublish && { publishedAt: { $null: true } }),
  };
  await fireWriteReads(reader.hooks, type, [
    { kind: 'FindOne', params: { where }, found: rowOrNull(reader, type, draftId) },
    ...(draftId === undefined
      ? [{ kind: 'FindOne' as const, params: { where: { documentId } }, found: rowOrNull(reader, type, anyId) }]
      : []),
  ]);
}

/** A delete's (or an unpublish's, `published`) read of the rows it removes. */
export async function deleteLookupRead(
  reader: WriteReader,
  type: ContentType,
  documentId: string,
  locale: string | null,
  ids: readonly number[],
  published = false,
): Promise<void> {
  const where = { ...lookup(type, documentId, locale), ...(published && { publishedAt: { $ne: null } }) };
  await fireWriteReads(reader.hooks, type, [{ kind: 'FindMany', params: { where }, found: rowsOf(reader, type, ids) }]);
}

/**
 * A publish's (`to: 'published'`) or a discard's (`to: 'draft'`) reads: the versions it copies
 * (deep populate) and the ones it replaces (`select: ['id', 'locale']`), run at once by Strapi,
 * the second answering first.
 */
export async function versionsRead(
  reader: WriteReader,
  type: ContentType,
  documentId: string,
  locale: string | null,
  to: 'published' | 'draft',
  copiedIds: readonly number[],
  replacedIds: readonly number[],
): Promise<void> {
  const base = lookup(type, documentId, locale);
  const draft = { ...base, publishedAt: null };
  const published = { ...base, publishedAt: { $ne: null } };
  await fireWriteReads(
    reader.hooks,
    type,
    [
      {
        kind: 'FindMany',
        params: {
          where: to === 'published' ? draft : published,
          populate: deepPopulateParam(reader.schema, type, ['documentId', 'locale']),
        },
        found: rowsOf(reader, type, copiedIds),
      },
      {
        kind: 'FindMany',
        params: { where: to === 'published' ? published : draft, select: ['id', 'locale'] },
        found: async () =>
          (await readRows(reader.exec, reader.dialect, type, replacedIds)).map((row) => ({
            id: row.id,
            locale: row.locale ?? null,
          })),
      },
    ],
    [1, 0],
  );
}

/** The check before a copied version is created that the document has none of its status there yet (none: null). */
export async function versionFreeRead(
  reader: WriteReader,
  type: ContentType,
  documentId: string,
  locale: string | null,
  status: 'published' | 'draft',
): Promise<void> {
  const where = {
    documentId,
    ...(type.localized && { locale }),
    publishedAt: status === 'published' ? { $notNull: true } : { $null: true },
  };
  await fireWriteReads(reader.hooks, type, [
    { kind: 'FindOne', params: { select: ['id'], where }, found: async () => null },
  ]);
}

/** A single type's `findOne()` of its first row (of `documentId`, any status and locale; null: none), to know its documentId. */
export async function singleTypeRead(reader: WriteReader, type: ContentType, documentId: string | null): Promise<void> {
  if (!reader.hooks?.has(type.uid, FIND_ONE_EVENTS)) return;
  const [id] =
    documentId === null ? [] : await findVersionIds(reader.exec, reader.dialect, type, { documentId, locale: '*' });
  await fireWriteReads(reader.hooks, type, [{ kind: 'FindOne', params: {}, found: rowOrNull(reader, type, id) }]);
}

/**
 * After a commit, the event hub's reads of a document's versions written in `locale` (of
 * `statuses`; the only row without draft & publish), all started at once.
 */
export async function entryReads(
  reader: WriteReader,
  type: ContentType,
  documentId: string,
  locale: string | null,
  statuses: readonly Status[],
): Promise<void> {
  if (!reader.hooks?.has(type.uid, FIND_ONE_EVENTS)) return;
  const ids: number[] = [];
  for (const status of type.draftAndPublish ? statuses : [undefined])
    ids.push(
      ...(await findVersionIds(reader.exec, reader.dialect, type, { documentId, locale, ...(status && { status }) })),
    );
  const populate = deepPopulateParam(reader.schema, type);
  await fireWriteReads(
    reader.hooks,
    type,
    ids.map((id) => ({ kind: 'FindOne', params: { where: { id }, populate }, found: rowOrNull(reader, type, id) })),
  );
}

/** The reader of a write's reads on `exec` (its transaction, or the pool). */
export function writeReader(ctx: DocumentContext, exec: Executor): WriteReader {
  return { schema: ctx.schema, exec, dialect: ctx.db.dialect, hooks: ctx.hooks };
}
