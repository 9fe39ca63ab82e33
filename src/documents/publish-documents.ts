import { ValidationError } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { isIn } from '../plan/simple-plans.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import { storedColumns } from '../plan/plan-write.js';
import { compileCopyRows } from '../sql/compile-write.js';
import type { Document } from '../shape/shape-rows.js';
import { answerReader, type DocumentContext } from './context.js';
import { publishDraft } from './publish-draft.js';
import { deleteRows } from './write-documents.js';
import { findOneDocument } from './read-documents.js';
import { repointIncomingLinks } from './copy-links.js';
import { fireCopyCreateHooks } from './copy-hooks.js';
import { copyRowTree } from './row-tree.js';
import { lockDocument, lockDocumentForDelete } from './write-locks.js';
import { deleteLookupRead, versionFreeRead, versionsRead, writeReader } from './write-reads.js';

/** Publishing verbs exist only where versions do (Strapi refuses them too). */
function requireDraftAndPublish(type: ContentType): void {
  if (!type.draftAndPublish) throw new ValidationError(`${type.uid} does not have draft & publish enabled`);
}

/**
 * Publishes a document's drafts in the query's locale (`*`: every locale it has), each replacing
 * its published version (publish-draft.ts: required attributes and uniqueness checked first),
 * holding the document's lock, in one transaction. Returns the published version in the query's
 * locale (the first published locale with `*`), or null when the document has no draft there.
 */
export async function publishDocument(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  query: Query,
): Promise<Document | null> {
  requireDraftAndPublish(type);
  return ctx.db.transaction(async (tx) => {
    const rows = await lockDocument(tx, ctx.db.dialect, type, documentId);
    const drafts = rows.filter((row) => row.status === 'draft' && inLocale(row.locale, query.locale));
    if (drafts.length === 0) return null;
    for (const draft of drafts) await publishDraft(ctx, tx, type, draft.id, { documentId, locale: draft.locale });
    return readVersion(ctx, tx, type, documentId, query, 'published');
  });
}

/**
 * Unpublishes a document in the query's locale (`*`: every locale): deletes its published
 * versions with their components and media links (relation links go with the rows); the drafts
 * stay. Returns the draft in the query's locale, or null when nothing was published there.
 */
export async function unpublishDocument(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  query: Query,
): Promise<Document | null> {
  requireDraftAndPublish(type);
  return ctx.db.transaction(async (tx) => {
    const rows = await lockDocumentForDelete(tx, ctx.db.dialect, type, documentId);
    const ids = rows
      .filter((row) => row.status === 'published' && inLocale(row.locale, query.locale))
      .map((row) => row.id);
    await deleteLookupRead(writeReader(ctx, tx), type, documentId, query.locale, ids, true);
    if (ids.length === 0) return null;
    await deleteRows(ctx, tx, type, ids);
    return readVersion(ctx, tx, type, documentId, query, 'draft');
  });
}

/**
 * Discards a document's drafts in the query's locale (`*`: every locale): each draft is replaced
 * by a copy of its locale's published version — components, media and relation links, relations
 * to draft & publish targets mapped to their drafts — as Strapi's `discardDraft` does. One-way
 * links from other rows to the old draft move to the new one. Returns the new draft in the query's
 * locale, or null when nothing is published there (there is nothing to go back to).
 */
export async function discardDraft(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  query: Query,
): Promise<Document | null> {
  requireDraftAndPublish(type);
  return ctx.db.transaction(async (tx) => {
    const dialect = ctx.db.dialect;
    const writer = { schema: ctx.schema, exec: tx, dialect };
    const rows = await lockDocumentForDelete(tx, dialect, type, documentId);
    const published = rows.filter((row) => row.status === 'published' && inLocale(row.locale, query.locale));
    if (published.length === 0) return null;
    const reader = writeReader(ctx, tx);
    for (const version of published) {
      const drafts = rows.filter((row) => row.status === 'draft' && row.locale === version.locale).map((row) => row.id);
      await versionsRead(reader, type, documentId, query.locale, 'draft', [version.id], drafts);
      const [draftId] = await tx.insert(
        compileCopyRows(dialect, {
          table: type.table,
          columns: storedColumns(type),
          overrides: new Map([['published_at', { value: null, kind: 'datetime' }]]),
          where: isIn('id', [version.id]),
        }),
        1,
      );
      if (draftId === undefined) throw new Error(`Copying ${type.uid} row ${version.id} returned no id`);
      await copyRowTree(writer, type, version.id, draftId, undefined, 'draft');
      if (drafts.length > 0) {
        await repointIncomingLinks(writer, type, drafts, draftId);
        await deleteRows(ctx, tx, type, drafts);
      }
      // Strapi deletes the drafts, then creates the new one: its create hooks come last.
      await versionFreeRead(reader, type, documentId, version.locale, 'draft');
      await fireCopyCreateHooks(ctx, tx, type, draftId);
    }
    return readVersion(ctx, tx, type, documentId, query, 'draft');
  });
}

function inLocale(rowLocale: string | null, locale: string | null): boolean {
  return locale === null || locale === '*' || rowLocale === locale;
}

/** The document's version of `status`, shaped by the query's `fields` and `populate`. */
async function readVersion(
  ctx: DocumentContext,
  tx: Executor,
  type: ContentType,
  documentId: string,
  query: Query,
  status: 'draft' | 'published',
): Promise<Document | null> {
  const read = answerReader(ctx, tx);
  const versionQuery: Query = { ...query, status, filters: null, search: null, publicationFilter: null };
  return findOneDocument(read, type, documentId, versionQuery);
}
