import { findManyDocuments, type ReadContext } from '../../documents/read-documents.js';
import { normalizeQuery } from '../../query/normalize-query.js';
import { isScalar, type Attribute, type ContentType, type Model, type Schema } from '../../schema/types.js';
import type { Document } from '../../shape/shape-rows.js';
import { cmQueryOptions, type CmDocument, type CmReadDeps } from './cm-read-deps.js';
import type { VersionRow } from './cm-read.js';

/*
 * The other locales of a document as the content manager shows them, in Strapi 5.54's three forms:
 *
 * - `localizations` of a read (`GET`, publish): `{ id, documentId, locale, updatedAt, publishedAt,
 *   status }`, from the version rows alone (see cm-read.ts);
 * - `localizations` of a write's answer (create, update, discard, unpublish): each other locale's
 *   draft with every scalar field, and its components, dynamic zones and media only as far as
 *   they hold fields that need validation (required, unique, min/max, min/maxLength): what the
 *   panel's bulk-locale publish checks. `localizationsWritten` reads them;
 * - `meta.availableLocales`: version fields, creators, status, and the non-localized scalar and
 *   media values, which the panel copies into a new translation's form from the first entry (the
 *   default locale first). `sharedValuesOf` reads them.
 *
 * Each read is one read of the document read path (one statement per populate node) for all the
 * rows at once; none when there is nothing to read. It reads the other versions of a document the
 * admin was already allowed to open, so it runs as the server's own read (no caller's populate
 * pruning), as Strapi reads these versions through its query engine.
 */

const readContext = (deps: CmReadDeps): ReadContext => ({
  schema: deps.schema,
  exec: deps.db,
  dialect: deps.db.dialect,
});

/** The rows with these ids (any locale, in `status`), read with the given fields and populate. */
async function rowsById(
  deps: CmReadDeps,
  type: ContentType,
  ids: readonly number[],
  status: 'draft' | 'published',
  select: { readonly fields?: readonly string[]; readonly populate: Record<string, unknown> },
): Promise<Map<number, Document>> {
  if (ids.length === 0) return new Map();
  const query = normalizeQuery(
    deps.schema,
    type,
    {
      ...(select.fields ? { fields: [...select.fields] } : {}),
      populate: select.populate,
      filters: { id: { $in: [...ids] } },
      ...(type.localized ? { locale: '*' } : {}),
      status: type.draftAndPublish ? status : 'published',
      pagination: { page: 1, pageSize: ids.length, withCount: false },
    },
    cmQueryOptions(deps),
  );
  const { documents } = await findManyDocuments(readContext(deps), type, query);
  return new Map(documents.map((document) => [Number(document.id), document]));
}

/** Whether Strapi's edit view validates this attribute (`getDoesAttributeRequireValidation`). */
function needsValidation(attribute: Attribute): boolean {
  if (attribute.required) return true;
  if (!isScalar(attribute)) return false;
  return (
    attribute.unique ||
    attribute.min !== undefined ||
    attribute.max !== undefined ||
    attribute.minLength !== undefined ||
    attribute.maxLength !== undefined
  );
}

interface ValidationSelect {
  fields?: string[];
  populate?: Record<string, unknown>;
}

/**
 * The fields of `model` a validation needs, as a populate entry: scalars that need validation,
 * required media, and components and dynamic-zone members that hold any (recursively); empty
 * when nothing does.
 */
function validationSelect(schema: Schema, model: Model, depth = 0): ValidationSelect {
  const select: ValidationSelect = {};
  const populate = (name: string, value: unknown) => {
    select.populate = { ...select.populate, [name]: value };
  };
  const inner = (uid: string): ValidationSelect | null => {
    const component = schema.components.get(uid);
    if (!component || depth >= 8) return null;
    const nested = validationSelect(schema, component, depth + 1);
    return Object.keys(nested).length > 0 ? nested : null;
  };
  for (const attribute of model.attributes.values()) {
    if (attribute.private || attribute.type === 'password') continue;
    if (isScalar(attribute)) {
      if (needsValidation(attribute)) select.fields = [...(select.fields ?? []), attribute.name];
    } else if (attribute.type === 'media') {
      if (needsValidation(attribute)) populate(attribute.name, true);
    } else if (attribute.type === 'component') {
      const nested = inner(attribute.component);
      if (nested) populate(attribute.name, nested);
    } else if (attribute.type === 'dynamiczone') {
      const on = Object.fromEntries(
        attribute.components.flatMap((uid) => {
          const nested = inner(uid);
          return nested ? [[uid, nested] as const] : [];
        }),
      );
      if (Object.keys(on).length > 0) populate(attribute.name, { on });
    }
  }
  return select;
}

/**
 * `localizations` of a write's answer: each of `versions` (other locales' drafts of the
 * document) with every scalar field, the validated parts of its components, dynamic zones and
 * media, and its status.
 */
export async function localizationsWritten(
  deps: CmReadDeps,
  type: ContentType,
  versions: readonly VersionRow[],
): Promise<CmDocument[]> {
  const populate = validationSelect(deps.schema, type).populate ?? {};
  const rows = await rowsById(
    deps,
    type,
    versions.map((version) => version.id),
    'draft',
    { populate },
  );
  return versions.flatMap((version) => {
    const row = rows.get(version.id);
    return row ? [{ ...row, status: version.status }] : [];
  });
}

/**
 * The non-localized scalar and media values of these rows (other locales of a document, in one
 * status), by row id: what the panel pre-fills a new translation with.
 */
export async function sharedValuesOf(
  deps: CmReadDeps,
  type: ContentType,
  ids: readonly number[],
  status: 'draft' | 'published',
): Promise<Map<number, Document>> {
  const shared = [...type.attributes.values()].filter(
    (attribute) => !attribute.localized && !attribute.system && !attribute.private && attribute.type !== 'password',
  );
  const fields = shared.filter(isScalar).map((attribute) => attribute.name);
  const media = shared.filter((attribute) => attribute.type === 'media').map((attribute) => attribute.name);
  const rows = await rowsById(deps, type, ids, status, {
    fields,
    populate: Object.fromEntries(media.map((name) => [name, true])),
  });
  const names = [...fields, ...media];
  return new Map(
    [...rows].map(([id, row]) => [id, Object.fromEntries(names.filter((name) => name in row).map((n) => [n, row[n]]))]),
  );
}

/** Versions with the default locale first, the others in their order (Strapi's `availableLocales` order). */
export function defaultLocaleFirst<T extends { readonly locale: string | null }>(
  versions: readonly T[],
  defaultLocale: string,
): T[] {
  return [
    ...versions.filter((version) => version.locale === defaultLocale),
    ...versions.filter((version) => version.locale !== defaultLocale),
  ];
}
