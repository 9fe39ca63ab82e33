import { findableBy } from '../access/authorize-query.js';
import { authorizeFor } from '../access/shared-authorization.js';
import type { AccessControl, Principal } from '../access/principal.js';
import { assertFindableRelationInput } from '../access/restricted-relations.js';
import { sanitizeData } from '../access/sanitize-input.js';
import type { ChangeBus, DocumentChange, DocumentChangeKind } from '../events/change-bus.js';
import type { Query, Status } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import type { Document } from '../shape/shape-rows.js';
import { answerBudget, type AnswerBudget } from './answer-budget.js';
import {
  throughMiddlewares,
  type DocumentAction,
  type DocumentCall,
  type DocumentMiddlewares,
} from './document-middlewares.js';
import type { DocumentContext } from './context.js';
import { findSingleDocumentId } from './document-rows.js';
import { FIND_ONE_EVENTS } from './row-hooks.js';
import { entryReads, singleTypeRead, writeReader } from './write-reads.js';
import {
  countDocuments,
  findFirstDocument,
  findManyDocuments,
  findOneDocument,
  type PaginationMeta,
  type ReadContext,
} from './read-documents.js';
import { countWithHooks, findManyWithHooks, findOneWithHooks, readHooksFor } from './read-hooks.js';
import { discardDraft, publishDocument, unpublishDocument } from './publish-documents.js';
import { createDocument, deleteDocument, putSingleDocument, updateDocument } from './write-documents.js';

/**
 * The document service: every consumer (the REST content API, the users API, later GraphQL and
 * the admin panel) reads and writes documents through these verbs, so none can skip what they
 * own. Each verb, top to bottom:
 *
 * 1. `authorize`: the caller's view of the query — populate pruned to the types it may `find`,
 *    filters and sorts through a relation it may not read refused (as Strapi's content API does;
 *    access/authorize-query.ts);
 * 2. for writes, `input`: the data's keys checked (unknown and non-writable keys refused) and
 *    relations to types the caller may not read refused;
 * 3. the work: one read, or one transaction (validation, draft & publish, locks; write-documents.ts);
 * 4. for writes, after the commit: the change events on the bus (none on rollback);
 * 5. the documents answered go through `signMedia` (the upload plugin's signed URLs for a private
 *    provider, as Strapi's document-service middleware signs them).
 *
 * Every answer, read or written, is held to the context's `answerLimits` (answer-budget.ts): a
 * read past them stops with a 400, and a write whose answer would be past them is rolled back.
 *
 * The route's own permission (`api::article.article.create`, …) is the consumer's guard: a
 * verb runs for a caller already allowed to call it.
 */
export interface DocumentService {
  /**
   * The documents of one page. `answer`: the budget this read shares with others of the same
   * answer (a GraphQL request's root fields); each read gets its own otherwise.
   */
  findMany(
    type: ContentType,
    query: Query,
    caller: Principal,
    answer?: AnswerBudget,
  ): Promise<{ readonly documents: Document[]; readonly pagination: PaginationMeta }>;
  /** The document's version the query selects (status, locale), or null. */
  findOne(
    type: ContentType,
    documentId: string,
    query: Query,
    caller: Principal,
    answer?: AnswerBudget,
  ): Promise<Document | null>;
  /** The first document the query selects (a single type's only one), or null. */
  findFirst(type: ContentType, query: Query, caller: Principal, answer?: AnswerBudget): Promise<Document | null>;
  count(type: ContentType, query: Query, caller: Principal): Promise<number>;
  /**
   * The document's versions in the query's locale (drafts first, no populate), as a delete
   * removes them (Strapi's `delete` answers them): Cairn's own read, through no middleware and
   * firing no lifecycle, for a caller allowed to delete.
   */
  versions(type: ContentType, documentId: string, query: Query): Promise<Document[]>;
  /** Creates a document (and publishes it unless `status=draft`). */
  create(type: ContentType, data: unknown, query: Query, caller: Principal): Promise<Document>;
  /** Updates a document's version in the query's locale; null when there is none. */
  update(
    type: ContentType,
    documentId: string,
    data: unknown,
    query: Query,
    caller: Principal,
  ): Promise<Document | null>;
  /** A single type's write: updates its document, or creates it when it has none in that locale. */
  put(
    type: ContentType,
    data: unknown,
    query: Query,
    caller: Principal,
  ): Promise<{ readonly document: Document; readonly created: boolean }>;
  /**
   * Deletes a document's versions in the query's locale (`*`: all); `documentId` null: the single
   * type's document. False when there was nothing to delete.
   */
  delete(type: ContentType, documentId: string | null, query: Query, caller: Principal): Promise<boolean>;
  /**
   * Publishes the document's drafts in the query's locale (`*`: all): its published version, or
   * null when it has no draft there. Draft & publish types only (else a 400).
   */
  publish(type: ContentType, documentId: string, query: Query, caller: Principal): Promise<Document | null>;
  /** Removes the published versions in the query's locale: the draft, or null when nothing was published. */
  unpublish(type: ContentType, documentId: string, query: Query, caller: Principal): Promise<Document | null>;
  /**
   * Replaces the drafts in the query's locale by copies of their published versions: the new
   * draft, or null when nothing is published there.
   */
  discardDraft(type: ContentType, documentId: string, query: Query, caller: Principal): Promise<Document | null>;
}

/** Builds the service once, in the composition root. */
export function createDocumentService(deps: {
  readonly documents: DocumentContext;
  readonly access: AccessControl;
  readonly changes: ChangeBus;
  /**
   * Rewrites the answered documents' media (upload/file-url-signer.ts); absent (a public provider),
   * documents are answered as read, at no cost.
   */
  readonly signMedia?: (type: ContentType, query: Query, documents: readonly Document[]) => Promise<Document[]>;
  /** The project's Document Service middlewares (`strapi.documents.use`), run around every verb; absent: none. */
  readonly middlewares?: DocumentMiddlewares;
  /**
   * A lifecycle hook that threw on a read made after a write committed (the event hub's read of
   * the versions written, write-reads.ts): the write stands and answers; absent: the error is thrown.
   */
  readonly onHookError?: (error: unknown) => void;
}): DocumentService {
  const { documents, access, changes } = deps;
  const { signMedia } = deps;
  const signOne = async <T extends Document | null>(type: ContentType, query: Query, document: T): Promise<T> =>
    document === null || !signMedia ? document : ((await signMedia(type, query, [document]))[0] as T);
  const { schema, db, hooks } = documents;
  const reader: ReadContext = { schema, exec: db, dialect: db.dialect };
  /** The context of one answer's read: the budget it shares, or a fresh one when answers are bounded. */
  const read = (answer?: AnswerBudget): ReadContext => {
    const budget = answer ?? (documents.answerLimits && answerBudget(documents.answerLimits));
    return budget ? { ...reader, answer: budget } : reader;
  };
  /** The context a caller's writes run in: an admin user's are recorded as theirs. */
  const contextOf = (caller: Principal): DocumentContext =>
    caller.kind === 'admin' ? { ...documents, actor: caller.admin.id } : documents;
  const authorize = (type: ContentType, query: Query, caller: Principal): Query =>
    authorizeFor(schema, access, type, query, caller);
  const input = (type: ContentType, data: unknown, caller: Principal): Record<string, unknown> => {
    const clean = sanitizeData(schema, type, data);
    assertFindableRelationInput(schema, type, clean, findableBy(access, caller));
    return clean;
  };
  const change = (
    kind: DocumentChangeKind,
    type: ContentType,
    documentId: string,
    query: Query,
    published = false,
  ): DocumentChange => ({
    subject: 'document',
    kind,
    type,
    documentId,
    locale: query.locale === '*' ? null : query.locale,
    published,
    at: documents.now(),
  });
  /** A committed create or update (which publishes too, under draft & publish, unless `status=draft`). */
  const written = async (kind: 'create' | 'update', type: ContentType, document: Document, query: Query) => {
    const published = type.draftAndPublish && query.status !== 'draft';
    changes.publish(change(kind, type, String(document.documentId), query, published));
    await entryRead(type, String(document.documentId), query, published ? ['draft', 'published'] : ['draft']);
  };
  /**
   * After a commit, Strapi's event hub reads the versions written (of `statuses`; the only row
   * without draft & publish) to send its `entry.*` events: their findOne events, when the type has
   * such hooks (write-reads.ts).
   */
  const entryRead = async (type: ContentType, documentId: string, query: Query, statuses: readonly Status[]) => {
    try {
      await entryReads(writeReader(documents, db), type, documentId, query.locale, statuses);
    } catch (error) {
      if (!deps.onHookError) throw error;
      deps.onHookError(error);
    }
  };

  /** publish, unpublish, discardDraft: the work on the document's versions, then its change when there was any. */
  const versionVerb =
    (
      kind: 'publish' | 'unpublish' | 'discard',
      work: (ctx: DocumentContext, type: ContentType, documentId: string, query: Query) => Promise<Document | null>,
    ) =>
    async (type: ContentType, documentId: string, query: Query, caller: Principal): Promise<Document | null> => {
      const allowed = authorize(type, query, caller);
      const document = await work(contextOf(caller), type, documentId, allowed);
      if (document) {
        changes.publish(change(kind, type, documentId, allowed));
        if (kind !== 'unpublish')
          await entryRead(type, documentId, allowed, [kind === 'publish' ? 'published' : 'draft']);
      }
      return signOne(type, allowed, document);
    };

  const verbs: DocumentService = {
    // Async, so that a refused query is a rejected promise like every other failure.
    async findMany(type, query, caller, answer) {
      const allowed = authorize(type, query, caller);
      const hooked = readHooksFor(hooks, type);
      const found = hooked
        ? await findManyWithHooks(hooked, read(answer), type, allowed)
        : await findManyDocuments(read(answer), type, allowed);
      return signMedia ? { ...found, documents: await signMedia(type, allowed, found.documents) } : found;
    },
    async findOne(type, documentId, query, caller, answer) {
      const allowed = authorize(type, query, caller);
      const hooked = readHooksFor(hooks, type);
      const found = hooked
        ? await findOneWithHooks(hooked, read(answer), type, allowed, documentId)
        : await findOneDocument(read(answer), type, documentId, allowed);
      return signOne(type, allowed, found);
    },
    async findFirst(type, query, caller, answer) {
      const allowed = authorize(type, query, caller);
      const hooked = readHooksFor(hooks, type);
      const found = hooked
        ? await findOneWithHooks(hooked, read(answer), type, allowed, null)
        : await findFirstDocument(read(answer), type, allowed);
      return signOne(type, allowed, found);
    },
    async count(type, query, caller) {
      const allowed = authorize(type, query, caller);
      const hooked = readHooksFor(hooks, type);
      return hooked ? countWithHooks(hooked, reader, type, allowed) : countDocuments(reader, type, allowed);
    },

    async versions(type, documentId, query) {
      const found: Document[] = [];
      for (const status of type.draftAndPublish ? (['draft', 'published'] as const) : (['draft'] as const)) {
        const version = await findOneDocument(reader, type, documentId, { ...query, status, populate: [] });
        if (version) found.push(version);
      }
      return found;
    },

    async create(type, data, query, caller) {
      const allowed = authorize(type, query, caller);
      const document = await createDocument(contextOf(caller), type, input(type, data, caller), allowed);
      await written('create', type, document, allowed);
      return signOne(type, allowed, document);
    },

    async update(type, documentId, data, query, caller) {
      const allowed = authorize(type, query, caller);
      const document = await updateDocument(contextOf(caller), type, documentId, input(type, data, caller), allowed);
      if (document) await written('update', type, document, allowed);
      return signOne(type, allowed, document);
    },

    async put(type, data, query, caller) {
      const allowed = authorize(type, query, caller);
      const result = await putSingleDocument(contextOf(caller), type, input(type, data, caller), allowed);
      await written(result.created ? 'create' : 'update', type, result.document, allowed);
      return { ...result, document: await signOne(type, allowed, result.document) };
    },

    async delete(type, documentId, query, caller) {
      const allowed = authorize(type, query, caller);
      if (documentId === null && hooks?.has(type.uid, FIND_ONE_EVENTS))
        await singleTypeRead(writeReader(documents, db), type, await findSingleDocumentId(db, db.dialect, type, '*'));
      const target = documentId ?? (await findSingleDocumentId(db, db.dialect, type, allowed.locale));
      if (target === null) return false;
      // Listeners that need the document as it was read it now; a committed delete is published.
      const outcome = await changes.deleting(change('delete', type, target, allowed));
      let removed = false;
      try {
        removed = await deleteDocument(documents, type, target, allowed);
      } finally {
        // A delete that removed nothing (another one got there first) publishes nothing.
        outcome(removed);
      }
      return removed;
    },

    publish: versionVerb('publish', publishDocument),
    unpublish: versionVerb('unpublish', unpublishDocument),
    discardDraft: versionVerb('discard', discardDraft),
  };
  const { middlewares } = deps;
  return middlewares ? withMiddlewares(verbs, middlewares, schema) : verbs;
}

/**
 * The verbs with the project's Document Service middlewares around each, whatever calls them
 * (REST, GraphQL, the admin panel, project code), as Strapi runs them around its Document
 * Service: only while one is registered (`active`), so a project without any pays nothing.
 * `findMany`'s middlewares see (and may replace) the documents, not Cairn's page.
 */
function withMiddlewares(verbs: DocumentService, middlewares: DocumentMiddlewares, schema: Schema): DocumentService {
  const via = <T>(
    type: ContentType,
    action: DocumentAction,
    call: DocumentCall,
    verb: (call: DocumentCall) => Promise<T>,
    shown?: (result: T) => unknown,
    kept?: (result: T, shown: unknown) => T,
  ): Promise<T> =>
    throughMiddlewares(middlewares, schema, type, action, call, verb, shown, kept ?? ((_r, s) => s as T));
  const idOf = (call: DocumentCall) => call.documentId ?? '';
  return {
    versions: verbs.versions,
    findMany: (type, query, caller, answer) =>
      !middlewares.active()
        ? verbs.findMany(type, query, caller, answer)
        : via(
            type,
            'findMany',
            { query },
            (call) => verbs.findMany(type, call.query, caller, answer),
            (page) => page.documents,
            (page, shown) => (Array.isArray(shown) ? { ...page, documents: shown as Document[] } : page),
          ),
    findOne: (type, documentId, query, caller, answer) =>
      !middlewares.active()
        ? verbs.findOne(type, documentId, query, caller, answer)
        : via(type, 'findOne', { query, documentId }, (call) =>
            verbs.findOne(type, idOf(call), call.query, caller, answer),
          ),
    findFirst: (type, query, caller, answer) =>
      !middlewares.active()
        ? verbs.findFirst(type, query, caller, answer)
        : via(type, 'findFirst', { query }, (call) => verbs.findFirst(type, call.query, caller, answer)),
    count: (type, query, caller) =>
      !middlewares.active()
        ? verbs.count(type, query, caller)
        : via(type, 'count', { query }, (call) => verbs.count(type, call.query, caller)),
    create: (type, data, query, caller) =>
      !middlewares.active()
        ? verbs.create(type, data, query, caller)
        : via(type, 'create', { query, data }, (call) => verbs.create(type, call.data, call.query, caller)),
    update: (type, documentId, data, query, caller) =>
      !middlewares.active()
        ? verbs.update(type, documentId, data, query, caller)
        : via(type, 'update', { query, data, documentId }, (call) =>
            verbs.update(type, idOf(call), call.data, call.query, caller),
          ),
    put: (type, data, query, caller) =>
      !middlewares.active()
        ? verbs.put(type, data, query, caller)
        : via(
            type,
            'update',
            { query, data },
            (call) => verbs.put(type, call.data, call.query, caller),
            (written) => written.document,
            (written, shown) =>
              shown && typeof shown === 'object' ? { ...written, document: shown as Document } : written,
          ),
    delete: (type, documentId, query, caller) =>
      !middlewares.active()
        ? verbs.delete(type, documentId, query, caller)
        : via(type, 'delete', { query, documentId }, (call) =>
            verbs.delete(type, call.documentId ?? null, call.query, caller),
          ),
    publish: (type, documentId, query, caller) =>
      !middlewares.active()
        ? verbs.publish(type, documentId, query, caller)
        : via(type, 'publish', { query, documentId }, (call) => verbs.publish(type, idOf(call), call.query, caller)),
    unpublish: (type, documentId, query, caller) =>
      !middlewares.active()
        ? verbs.unpublish(type, documentId, query, caller)
        : via(type, 'unpublish', { query, documentId }, (call) =>
            verbs.unpublish(type, idOf(call), call.query, caller),
          ),
    discardDraft: (type, documentId, query, caller) =>
      !middlewares.active()
        ? verbs.discardDraft(type, documentId, query, caller)
        : via(type, 'discardDraft', { query, documentId }, (call) =>
            verbs.discardDraft(type, idOf(call), call.query, caller),
          ),
  };
}
