import type { AdminIdentity } from '../../access/principal.js';
import { NotFoundError, PolicyError } from '../../core/errors.js';
import type { HttpRequest, HttpResponse } from '../../http/http-types.js';
import type { Query } from '../../query/query-types.js';
import type { ContentType } from '../../schema/types.js';
import type { Document } from '../../shape/shape-rows.js';
import { shownInContentManager } from '../admin-permission-catalog.js';
import { cmPermissions, type CmPermissions, type CmVerb } from './cm-permissions.js';
import {
  adminCaller,
  cmQuery,
  creatorsOf,
  shapeForContentManager,
  versionsOf,
  type CmDocument,
  type CmReadDeps,
  type CmView,
  type VersionRow,
} from './cm-read.js';
import { defaultLocaleFirst, sharedValuesOf } from './cm-localizations.js';

const EXPLORER = 'plugin::content-manager.explorer';
/** The document-service verb behind each version action of the content manager. */
export const VERSION_VERBS = { publish: 'publish', unpublish: 'unpublish', discard: 'discardDraft' } as const;

/** What the panel asks before publishing: Cairn lets relations to drafts be published, so there are none to warn of. */
export const NO_DRAFT_RELATIONS = { draftM2mLinks: 0, unpublishedRelations: 0 } as const;

/** What the content manager's document routes share (cmDocumentKit). */
export type CmDocumentKit = ReturnType<typeof cmDocumentKit>;

/**
 * What the content manager's document routes (collection types, cm-document-routes.ts, and
 * single types, cm-single-type-routes.ts) share: the type a request names, the permission check
 * of a verb (cm-permissions.ts), the request's query, one document's answer with its `meta`, and
 * the form data a write may send.
 */
export function cmDocumentKit(deps: CmReadDeps) {
  const { service, schema } = deps;
  const typeOf = (request: HttpRequest, kind: ContentType['kind']): ContentType => {
    const type = schema.contentTypes.get(String(request.params.model));
    if (!type || !shownInContentManager(type) || type.kind !== kind) throw new PolicyError();
    return type;
  };
  /** 403 `Policy Failed` unless the admin holds the verb on the type; then its checks on rows and fields. */
  const may = (admin: AdminIdentity, verb: CmVerb, type: ContentType): CmPermissions => {
    if (!admin.may(`${EXPLORER}.${verb}`, type.uid)) throw new PolicyError();
    return cmPermissions(deps, admin, type);
  };
  /** The rows of a document's versions a request acts on (see versionsIn), after `check` of the verb. */
  const checkVersions = async (
    p: CmPermissions,
    verb: CmVerb,
    type: ContentType,
    documentIds: readonly string[],
    locale: string | null,
    status?: 'draft' | 'published',
  ): Promise<void> => {
    const versions = versionsIn(type, await versionsOf(deps.db, type, documentIds), locale, status);
    await p.check(
      verb,
      versions.map((v) => v.id),
    );
  };
  /**
   * Before a publish: `publish` must cover the document's draft in the locale, or, when the form
   * is about to create that version (saved and published at once), a new version there.
   */
  const checkPublishable = async (
    p: CmPermissions,
    type: ContentType,
    documentId: string | null,
    locale: string | null,
  ): Promise<void> => {
    const versions = documentId === null ? [] : await versionsOf(deps.db, type, [documentId]);
    const drafts = versionsIn(type, versions, locale, 'draft');
    if (drafts.length === 0) p.checkNew('publish', locale);
    else
      await p.check(
        'publish',
        drafts.map((v) => v.id),
      );
  };
  const query = (type: ContentType, request: HttpRequest, view: CmView = 'edit'): Query =>
    cmQuery(deps, type, request.query, view);
  /** One document's answer; `written`: a write's, whose other locales Strapi returns in full. */
  const one = async (
    p: CmPermissions,
    type: ContentType,
    document: Document | null,
    q: Query,
    view: CmView = 'edit',
  ): Promise<HttpResponse> => {
    if (!document) throw new NotFoundError();
    const [shaped] = await p.output(await shapeForContentManager(deps, type, [document], view));
    return { status: 200, body: { data: shaped, meta: await documentMeta(deps, p, type, shaped as CmDocument, q) } };
  };
  /**
   * Form data for a write of a document's version in the query's locale: checked and narrowed by
   * `update` when that version exists, by `create` when the write makes it.
   */
  const writable = async (
    p: CmPermissions,
    type: ContentType,
    documentId: string,
    data: Record<string, unknown>,
    q: Query,
  ): Promise<Record<string, unknown>> => {
    const [version] = versionsIn(type, await versionsOf(deps.db, type, [documentId]), q.locale, 'draft');
    return version ? p.input('update', data, version.id, q.locale) : p.input('create', data, null, q.locale);
  };
  const documentIdOf = (request: HttpRequest) => String(request.params.documentId);
  const single = async (type: ContentType, q: Query, admin: AdminIdentity) =>
    service.findFirst(type, q, adminCaller(admin));
  const draftQuery = (q: Query): Query => ({ ...q, status: 'draft' });
  return { typeOf, may, checkVersions, checkPublishable, query, one, writable, documentIdOf, single, draftQuery };
}

/**
 * `meta` of a single document: its other locales (`availableLocales`, each with its status) and
 * its other version in the same locale (`availableStatus`: the published one beside a draft, or
 * the draft beside a published one).
 */
export async function documentMeta(
  deps: CmReadDeps,
  p: CmPermissions,
  type: ContentType,
  document: CmDocument,
  q: Query,
) {
  const versions = await versionsOf(deps.db, type, [String(document.documentId)]);
  const locale = (document.locale as string | null | undefined) ?? null;
  const showingDraft = document.publishedAt === null;
  const otherStatus = type.draftAndPublish
    ? versions.filter((v) => v.locale === locale && (v.publishedAt === null) !== showingDraft)
    : [];
  const otherLocales = type.localized
    ? versions.filter((v) => v.locale !== locale && (v.publishedAt === null) === (q.status === 'draft'))
    : [];
  const creators = await creatorsOf(
    deps.db,
    type,
    [...otherStatus, ...otherLocales].map((v) => v.id),
  );
  const view = (v: (typeof versions)[number]) => ({
    id: v.id,
    documentId: v.documentId,
    locale: v.locale,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    publishedAt: v.publishedAt,
    createdBy: creators.get(v.id)?.createdBy ?? null,
    updatedBy: creators.get(v.id)?.updatedBy ?? null,
  });
  // What the panel pre-fills a new translation with, from the first entry: the default locale's.
  const shared = await sharedValuesOf(
    deps,
    type,
    otherLocales.map((v) => v.id),
    q.status,
  );
  return {
    // Their shared values only as far as the admin may read them, as the document itself.
    availableLocales: await p.output(
      defaultLocaleFirst(otherLocales, deps.config.i18n.defaultLocale).map((v) => ({
        ...shared.get(v.id),
        ...view(v),
        status: v.status,
      })),
    ),
    availableStatus: otherStatus.map(view),
  };
}

/**
 * The versions a request acts on: those in its locale (every locale for `*`, or when the type is
 * not localized), and in `status` when given (a type without draft & publish has one version).
 */
export function versionsIn(
  type: ContentType,
  versions: readonly VersionRow[],
  locale: string | null,
  status?: 'draft' | 'published',
): VersionRow[] {
  return versions.filter(
    (v) =>
      (!type.localized || locale === '*' || v.locale === locale) &&
      (status === undefined || !type.draftAndPublish || (v.publishedAt === null) === (status === 'draft')),
  );
}
