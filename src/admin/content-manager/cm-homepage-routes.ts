import { NotFoundError } from '../../core/errors.js';
import type { ValueKind } from '../../plan/plan-types.js';
import { simpleSelect } from '../../plan/simple-plans.js';
import type { ContentType } from '../../schema/types.js';
import { decodeValue } from '../../shape/decode-value.js';
import { compileSelect } from '../../sql/compile-read.js';
import type { AdminRoute } from '../admin-route.js';
import { shownInContentManager } from '../admin-permission-catalog.js';
import type { CmReadDeps } from './cm-read.js';

/** How many documents the home page's recent lists show. */
const RECENT = 4;

interface Version {
  readonly type: ContentType;
  readonly documentId: string;
  readonly locale: string | null;
  readonly title: unknown;
  readonly updatedAt: string;
  readonly publishedAt: string | null;
}

/**
 * The admin home page's content widgets: how many documents are draft, published or modified,
 * and the last documents published or updated. The content manager's preview is not configured
 * (404, as Strapi answers without a preview handler).
 */
export function cmHomepageRoutes(deps: CmReadDeps): AdminRoute[] {
  const { db, schema } = deps;
  const types = () =>
    [...schema.contentTypes.values()].filter((type) => type.origin === 'api' && shownInContentManager(type));
  const versions = async (type: ContentType): Promise<Version[]> => {
    const main = deps.mainField(type);
    const mainColumn = main === null ? undefined : type.attributes.get(main);
    const columns: Record<string, readonly [string, ValueKind]> = {
      documentId: ['document_id', 'string'],
      updatedAt: ['updated_at', 'datetime'],
      publishedAt: ['published_at', 'datetime'],
      ...(type.localized ? { locale: ['locale', 'string'] } : {}),
      ...(mainColumn && 'column' in mainColumn ? { title: [mainColumn.column, 'string'] } : {}),
    };
    const rows = await db.all(compileSelect(db.dialect, simpleSelect(type.table, columns)));
    return rows.map((row) => ({
      type,
      documentId: String(row.documentId),
      locale: (row.locale as string | null | undefined) ?? null,
      title: row.title ?? row.documentId,
      updatedAt: String(decodeValue('datetime', row.updatedAt)),
      publishedAt: row.publishedAt === null ? null : String(decodeValue('datetime', row.publishedAt)),
    }));
  };
  const statusOf = (version: Version, all: readonly Version[]): 'draft' | 'published' | 'modified' => {
    if (!version.type.draftAndPublish) return 'published';
    const key = (v: Version) => `${v.documentId} ${v.locale ?? ''}`;
    const draft = all.find((v) => key(v) === key(version) && v.publishedAt === null);
    const published = all.find((v) => key(v) === key(version) && v.publishedAt !== null);
    if (!published) return 'draft';
    return draft && draft.updatedAt !== published.updatedAt ? 'modified' : 'published';
  };
  return [
    {
      method: 'GET',
      path: '/content-manager/homepage/count-documents',
      auth: 'admin',
      handle: async () => {
        const counts = { draft: 0, published: 0, modified: 0 };
        for (const type of types()) {
          const all = await versions(type);
          for (const version of all) {
            // One count per document version the editor sees: drafts (and rows of types without drafts).
            if (type.draftAndPublish && version.publishedAt !== null) continue;
            counts[statusOf(version, all)] += 1;
          }
        }
        return { status: 200, body: { data: counts } };
      },
    },
    {
      method: 'GET',
      path: '/content-manager/homepage/recent-documents',
      auth: 'admin',
      handle: async (request) => {
        const published = request.query.action === 'publish';
        const candidates: { version: Version; all: Version[] }[] = [];
        for (const type of types()) {
          const all = await versions(type);
          if (published && !type.draftAndPublish) continue;
          for (const version of all) {
            if (published ? version.publishedAt === null : type.draftAndPublish && version.publishedAt !== null)
              continue;
            candidates.push({ version, all });
          }
        }
        const at = (v: Version) => (published ? (v.publishedAt ?? '') : v.updatedAt);
        candidates.sort((a, b) => at(b.version).localeCompare(at(a.version)));
        return {
          status: 200,
          body: {
            data: candidates.slice(0, RECENT).map(({ version, all }) => ({
              documentId: version.documentId,
              locale: version.locale,
              updatedAt: version.updatedAt,
              publishedAt: version.publishedAt,
              title: version.title,
              status: statusOf(version, all),
              contentTypeUid: version.type.uid,
              contentTypeDisplayName: version.type.displayName,
              kind: version.type.kind,
            })),
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/content-manager/preview/url/:uid',
      auth: 'admin',
      handle: async () => {
        throw new NotFoundError('Preview config not found');
      },
    },
  ];
}
