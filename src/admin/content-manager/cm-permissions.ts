import type { AdminGrant } from '../../access/admin-grants.js';
import type { AdminIdentity } from '../../access/principal.js';
import { ForbiddenError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import type { Query } from '../../query/query-types.js';
import type { ContentType } from '../../schema/types.js';
import { permittedFields, permittedFilter, permittedSort, pickPermitted } from '../admin-fields.js';
import { checkCovered, coveringRows, coversEverything, grantsCovering, scopeFilter } from '../admin-scope.js';
import type { CmDocument, CmReadDeps } from './cm-read-deps.js';

/** The content manager's verbs, each an action `plugin::content-manager.explorer.<verb>`. */
export type CmVerb = 'create' | 'read' | 'update' | 'delete' | 'publish';

/**
 * One admin's permissions on one type, as the content manager applies them (Strapi's permission
 * checker): lists and counts read only the rows the `read` grants cover (a filter in SQL), a
 * document is read, updated, deleted or published only when a grant of that verb covers its
 * version (403 `Forbidden` otherwise), and what is read or written keeps only the fields those
 * grants permit. A Super Admin's grants cover everything, and nothing is read to check them.
 */
export interface CmPermissions {
  /**
   * A list's query as the `read` grants allow it: only the rows they cover (its permission filter,
   * in SQL, so the page and its total count those alone), and no filter or sort on a field they hide.
   */
  list(query: Query): Promise<Query>;
  /** Throws 403 `Forbidden` unless `verb` covers every one of these rows (ids of the type's table). */
  check(verb: CmVerb, rowIds: readonly number[]): Promise<void>;
  /** Throws 403 `Forbidden` unless `verb` covers a version the admin is about to create in `locale`. */
  checkNew(verb: CmVerb, locale: string | null): void;
  /** The rows among these that `verb` covers. */
  covered(verb: CmVerb, rowIds: readonly number[]): Promise<Set<number>>;
  /**
   * Form data for `verb` on a row (a version being updated or published), or, `row` null, for a
   * new version in `locale` (created by the admin): 403 unless a grant covers it, and only the
   * permitted fields kept (Strapi drops the others).
   */
  input(
    verb: 'create' | 'update',
    data: Record<string, unknown>,
    row: number | null,
    locale: string | null,
  ): Promise<Record<string, unknown>>;
  /** Documents shaped for the admin with only the fields `read` permits on each. */
  output(documents: readonly CmDocument[]): Promise<CmDocument[]>;
}

const EXPLORER = 'plugin::content-manager.explorer';

/** The content manager's permission checks for `admin` on `type`. */
export function cmPermissions(deps: CmReadDeps, admin: AdminIdentity, type: ContentType): CmPermissions {
  const { db, schema } = deps;
  const grantsOf = (verb: CmVerb) => admin.grants(`${EXPLORER}.${verb}`, type.uid);
  const whole = (grants: readonly AdminGrant[]) => coversEverything(grants, type);
  const rows = { exec: db, dialect: db.dialect, schema, model: type, admin };
  const coveringEach = (verb: CmVerb, ids: readonly number[]) => coveringRows(rows, grantsOf(verb), ids);
  const forbidUnless = (grants: readonly AdminGrant[]): readonly AdminGrant[] => {
    if (grants.length === 0) throw new ForbiddenError();
    return grants;
  };
  /** The grants of `verb` covering a new version in `locale`, created by the admin. */
  const coveringNew = (verb: CmVerb, locale: string | null) =>
    grantsCovering(
      grantsOf(verb),
      { id: 0, locale, createdById: admin.id, creatorRoleIds: admin.roleIds, matches: () => true },
      type,
      admin,
    );

  return {
    async list(query) {
      const grants = grantsOf('read');
      const fields = permittedFields(grants);
      return {
        ...query,
        filters: permittedFilter(schema, type, query.filters, fields),
        permissionFilter: await scopeFilter(rows, grants),
        sort: permittedSort(type, query.sort, fields),
      };
    },
    check: (verb, rowIds) => checkCovered(rows, grantsOf(verb), rowIds),
    checkNew(verb, locale) {
      forbidUnless(coveringNew(verb, locale));
    },
    async covered(verb, rowIds) {
      if (whole(grantsOf(verb))) return new Set(rowIds);
      const each = await coveringEach(verb, rowIds);
      return new Set(rowIds.filter((id) => (each.get(id) ?? []).length > 0));
    },
    async input(verb, data, row, locale) {
      const grants = grantsOf(verb);
      if (whole(grants)) return data;
      const covering = row === null ? coveringNew(verb, locale) : ((await coveringEach(verb, [row])).get(row) ?? []);
      return pickPermitted(schema, type, data, permittedFields(forbidUnless(covering)));
    },
    async output(documents) {
      const grants = grantsOf('read');
      if (whole(grants) || documents.length === 0) return [...documents];
      const each = await coveringEach(
        'read',
        documents.map((document) => Number(document.id)),
      );
      return documents.map((document) => {
        const fields = permittedFields(each.get(Number(document.id)) ?? []);
        const picked = pickPermitted(schema, type, document, fields);
        const { localizations } = picked;
        return Array.isArray(localizations)
          ? {
              ...picked,
              localizations: localizations.map((entry) =>
                isRecord(entry) ? pickPermitted(schema, type, entry, fields) : entry,
              ),
            }
          : picked;
      });
    },
  };
}
