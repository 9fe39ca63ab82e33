import { ValidationError } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { isIn, simpleSelect } from '../plan/simple-plans.js';
import type { ContentType, Schema } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import type { RelationInput, RelationRef } from './relation-input.js';

/** The document a relation write happens in: what decides which target rows a reference means. */
export interface RelationSource {
  /** The written row is a draft (draft & publish types always write their draft row). */
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  readonly locale: string | null;
  /** The project's default locale (i18n), or null without locales. */
  readonly defaultLocale: string | null;
}

/** A related document as links see it: its document id and the rows a reference links to. */
export interface TargetDocument {
  readonly documentId: string;
  readonly rowIds: readonly number[];
}

/** Resolved references: `refKey(targetUid, ref)` → the target document (absent: not found). */
export type ResolvedTargets = ReadonlyMap<string, TargetDocument>;

/** The lookup key of a reference to a document of `targetUid`. */
export function refKey(targetUid: string, ref: RelationRef): string {
  return ref.by === 'id'
    ? `${targetUid}#${ref.id}`
    : `${targetUid}@${ref.documentId}|${ref.locale ?? ''}|${ref.status ?? ''}`;
}

/** Every reference a relation input mentions (items, connect, disconnect, positions). */
export function refsOf(input: RelationInput): RelationRef[] {
  if (input.kind === 'set') return [...input.items];
  const refs = [...input.disconnect];
  for (const item of input.connect) {
    refs.push(item.ref);
    if (item.position.kind === 'before' || item.position.kind === 'after') refs.push(item.position.ref);
  }
  return refs;
}

interface TargetRow {
  readonly id: number;
  readonly documentId: string;
  readonly locale: string | null;
  readonly published: boolean;
}

/**
 * Looks up every reference to documents of `target` in two statements at most (row ids, then
 * documentIds) and picks the rows each one links, as Strapi does:
 *
 * - status: a draft & publish target is linked in its draft version from a draft & publish
 *   source; from any other source in the status the reference names, or both versions;
 * - locale: both sides localized → the source's locale; only the target → the reference's
 *   locale, else the default locale (as Strapi links and names it); target not localized → its row.
 *
 * Unresolvable references are left out; `requireTargets` turns them into Strapi's 400.
 */
export async function resolveTargets(
  exec: Executor,
  dialect: Dialect,
  target: ContentType,
  refs: readonly RelationRef[],
  source: RelationSource,
): Promise<Map<string, TargetDocument>> {
  const resolved = new Map<string, TargetDocument>();
  if (refs.length === 0) return resolved;
  const byRowId = new Map<number, TargetRow>();
  const rowIds = [...new Set(refs.flatMap((ref) => (ref.by === 'id' ? [ref.id] : [])))];
  if (rowIds.length > 0) {
    for (const row of await selectRows(exec, dialect, target, 'id', rowIds)) byRowId.set(row.id, row);
  }
  const documentIds = new Set(refs.flatMap((ref) => (ref.by === 'documentId' ? [ref.documentId] : [])));
  for (const row of byRowId.values()) documentIds.add(row.documentId);
  const rows = documentIds.size > 0 ? await selectRows(exec, dialect, target, 'document_id', [...documentIds]) : [];

  for (const ref of refs) {
    const byId = ref.by === 'id' ? byRowId.get(ref.id) : undefined;
    if (ref.by === 'id' && !byId) continue;
    const documentId = byId ? byId.documentId : (ref as Extract<RelationRef, { by: 'documentId' }>).documentId;
    const wanted = byId ? { locale: byId.locale ?? undefined } : (ref as Extract<RelationRef, { by: 'documentId' }>);
    const locale = targetLocale(target, source, wanted.locale);
    const status = targetStatus(target, source, 'status' in wanted ? wanted.status : undefined);
    const matching = rows.filter(
      (row) =>
        row.documentId === documentId &&
        (locale === undefined || row.locale === locale) &&
        (status === undefined || row.published === (status === 'published')),
    );
    if (matching.length > 0)
      resolved.set(refKey(target.uid, ref), { documentId, rowIds: matching.map((row) => row.id) });
  }
  return resolved;
}

/** Throws Strapi's 400 for the first reference that did not resolve. */
export function requireTargets(
  target: ContentType,
  refs: readonly RelationRef[],
  resolved: ResolvedTargets,
  source: RelationSource,
): void {
  for (const ref of refs) {
    if (resolved.has(refKey(target.uid, ref))) continue;
    const id = ref.by === 'id' ? String(ref.id) : ref.documentId;
    const locale = ref.by === 'documentId' ? (targetLocale(target, source, ref.locale) ?? null) : null;
    throw new ValidationError(`Document with id "${id}", locale "${locale ?? 'null'}" not found`);
  }
}

function targetLocale(target: ContentType, source: RelationSource, requested: string | undefined): string | undefined {
  if (!target.localized) return undefined;
  if (source.localized) return source.locale ?? undefined;
  return requested ?? source.locale ?? source.defaultLocale ?? undefined;
}

function targetStatus(
  target: ContentType,
  source: RelationSource,
  requested: 'draft' | 'published' | undefined,
): 'draft' | 'published' | undefined {
  if (!target.draftAndPublish) return undefined;
  if (source.draftAndPublish) return 'draft';
  return requested;
}

async function selectRows(
  exec: Executor,
  dialect: Dialect,
  target: ContentType,
  column: 'id' | 'document_id',
  values: readonly (number | string)[],
): Promise<TargetRow[]> {
  const plan = simpleSelect(
    target.table,
    {
      id: ['id', 'integer'],
      documentId: ['document_id', 'string'],
      locale: ['locale', 'string'],
      publishedAt: ['published_at', 'datetime'],
    },
    isIn(column, values, column === 'id' ? 'integer' : 'string'),
    { orderById: true },
  );
  const rows = await exec.all(compileSelect(dialect, plan));
  return rows.map((row) => ({
    id: Number(row.id),
    documentId: String(row.documentId),
    locale: row.locale === null || row.locale === undefined ? null : String(row.locale),
    published: row.publishedAt !== null && row.publishedAt !== undefined,
  }));
}

/** The content type a relation attribute targets (relations to components do not exist). */
export function relationTarget(schema: Schema, uid: string | undefined): ContentType | undefined {
  return uid === undefined ? undefined : schema.contentTypes.get(uid);
}
