import type { AdminIdentity } from '../../access/principal.js';
import { planFilter } from '../../plan/plan-filters.js';
import type { Condition } from '../../plan/plan-types.js';
import type { ContentType } from '../../schema/types.js';
import { permittedFields } from '../admin-fields.js';
import type { AdminRoute } from '../admin-route.js';
import { shownInContentManager } from '../admin-permission-catalog.js';
import { coversEverything, scopeFilter } from '../admin-scope.js';
import { latestVersions, statusCounts, type HomepageVersion } from './cm-homepage-counts.js';
import { versionsOf, type CmReadDeps, type VersionRow } from './cm-read.js';

/** How many documents the home page's recent lists show. */
const RECENT = 4;
const READ = 'plugin::content-manager.explorer.read';

type Status = 'draft' | 'published' | 'modified';

/** A version's status among its document's versions in the same locale (a published one is modified when its draft changed since). */
function statusOf(version: HomepageVersion, all: readonly VersionRow[]): Status {
  if (!version.type.draftAndPublish) return 'published';
  const same = all.filter((v) => v.documentId === version.documentId && v.locale === version.locale);
  const draft = same.find((v) => v.publishedAt === null);
  const published = same.find((v) => v.publishedAt !== null);
  if (!published) return 'draft';
  return draft && draft.updatedAt !== published.updatedAt ? 'modified' : 'published';
}

/**
 * The admin home page's content widgets: how many documents are draft, published or modified
 * (one COUNT statement per type), and the last documents published or updated (per type, its
 * latest few rows and their other versions: two statements, whatever the number of documents).
 *
 * Counts are per document version an editor sees (each locale's draft). Strapi 5.54 counts with
 * its own queries, which disagree with its list badges once a document has several locales: a
 * draft only when the document has one row in all, and at most one modified document per type
 * (`groupBy(...).first()`). Cairn counts what the badges show.
 */
export function cmHomepageRoutes(deps: CmReadDeps): AdminRoute[] {
  const { db, schema } = deps;
  // As Strapi's home page: only the types the admin may read.
  const types = (admin: AdminIdentity) =>
    [...schema.contentTypes.values()].filter(
      (type) => type.origin === 'api' && shownInContentManager(type) && admin.may(READ, type.uid),
    );
  /** The main field's column, unless the admin's read grants hide that field. */
  const titleColumn = (type: ContentType, admin: AdminIdentity): string | null => {
    const main = deps.mainField(type);
    const attribute = main === null ? undefined : type.attributes.get(main);
    const fields = permittedFields(admin.grants(READ, type.uid));
    if (main === null || (fields !== null && !fields.includes(main))) return null;
    return attribute && 'column' in attribute ? attribute.column : null;
  };
  /** The rows of `type` the admin's read grants cover (an Author: their own), null when all. */
  const readableRows = async (type: ContentType, admin: AdminIdentity): Promise<Condition | null> => {
    const grants = admin.grants(READ, type.uid);
    if (coversEverything(grants, type)) return null;
    const scope = await scopeFilter({ exec: db, dialect: db.dialect, schema, model: type, admin }, grants);
    if (scope === null) return null;
    // `id in (select t0.id from <table> t0 where <scope>)`: the list's statement has no alias of its own.
    const where = planFilter({ schema, model: type, alias: 't0', depth: 0, status: 'draft' }, scope);
    const t0 = { table: type.table, alias: 't0' };
    return {
      kind: 'inSelect',
      column: { alias: '', column: 'id' },
      selected: { alias: 't0', column: 'id' },
      from: t0,
      where,
    };
  };
  return [
    {
      method: 'GET',
      path: '/content-manager/homepage/count-documents',
      auth: 'admin',
      handle: async (_request, admin) => {
        const perType = await Promise.all(types(admin).map((type) => statusCounts(db, type)));
        const counts = { draft: 0, published: 0, modified: 0 };
        for (const each of perType) {
          counts.draft += each.draft;
          counts.published += each.published;
          counts.modified += each.modified;
        }
        return { status: 200, body: { data: counts } };
      },
    },
    {
      method: 'GET',
      path: '/content-manager/homepage/recent-documents',
      auth: 'admin',
      handle: async (request, admin) => {
        const published = request.query.action === 'publish';
        const listed = types(admin).filter((type) => !published || type.draftAndPublish);
        const perType = await Promise.all(
          listed.map(async (type) => {
            const rows = await readableRows(type, admin);
            const latest = await latestVersions(db, type, titleColumn(type, admin), published, RECENT, rows);
            const all = type.draftAndPublish
              ? await versionsOf(
                  db,
                  type,
                  latest.map((version) => version.documentId),
                )
              : [];
            return latest.map((version) => ({ version, status: statusOf(version, all) }));
          }),
        );
        const at = (v: HomepageVersion) => (published ? (v.publishedAt ?? '') : v.updatedAt);
        const candidates = perType.flat().sort((a, b) => at(b.version).localeCompare(at(a.version)));
        return {
          status: 200,
          body: {
            data: candidates.slice(0, RECENT).map(({ version, status }) => ({
              documentId: version.documentId,
              locale: version.locale,
              updatedAt: version.updatedAt,
              publishedAt: version.publishedAt,
              title: version.title,
              // Types without draft & publish have no status (Strapi leaves it undefined).
              ...(version.type.draftAndPublish ? { status } : {}),
              contentTypeUid: version.type.uid,
              contentTypeDisplayName: version.type.displayName,
              kind: version.type.kind,
            })),
          },
        };
      },
    },
  ];
}
