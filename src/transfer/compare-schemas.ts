import { isDeepStrictEqual } from 'node:util';
import type { ArchiveSchema } from './archive-schemas.js';

/**
 * One difference between an archive's schema and the project's, at a path inside the schema
 * (`['attributes', 'title', 'maxLength']`): `added` exists only in the project, `deleted` only in
 * the archive, `modified` differs.
 */
export type SchemaDiff =
  | { readonly kind: 'added' | 'deleted'; readonly path: readonly string[]; readonly value: unknown }
  | { readonly kind: 'modified'; readonly path: readonly string[]; readonly values: readonly [unknown, unknown] };

/** The differences per model uid (`api::article.article` → its diffs); empty when the schemas agree. */
export type SchemaDiffs = ReadonlyMap<string, readonly SchemaDiff[]>;

/** Attribute options Strapi's `strict` strategy does not compare. */
const IGNORABLE_ATTRIBUTE_KEYS = new Set(['private', 'required', 'configurable', 'default']);

/**
 * Compares the archive's schemas with the project's as Strapi's `strict` schema strategy does:
 * every key of every model, recursively (arrays item by item), except `private`, `required`,
 * `configurable` and `default` directly on an attribute. A model present on one side only is one
 * `added`/`deleted` diff at the empty path.
 */
export function compareSchemas(archive: readonly ArchiveSchema[], project: readonly ArchiveSchema[]): SchemaDiffs {
  const source = new Map(archive.map((schema) => [schema.uid, schema]));
  const destination = new Map(project.map((schema) => [schema.uid, schema]));
  const diffs = new Map<string, SchemaDiff[]>();
  for (const uid of new Set([...source.keys(), ...destination.keys()])) {
    const found = diff(source.get(uid), destination.get(uid), []).filter((d) => !ignorable(d));
    if (found.length > 0) diffs.set(uid, found);
  }
  return diffs;
}

function ignorable(d: SchemaDiff): boolean {
  return d.path.length === 3 && d.path[0] === 'attributes' && IGNORABLE_ATTRIBUTE_KEYS.has(d.path[2] ?? '');
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function diff(a: unknown, b: unknown, path: readonly string[]): SchemaDiff[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    const length = Math.max(a.length, b.length);
    return Array.from({ length }, (_, i) => diff(a[i], b[i], [...path, String(i)])).flat();
  }
  if (isObject(a) && isObject(b) && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((key) => diff(a[key], b[key], [...path, key]));
  }
  if (isDeepStrictEqual(a, b)) return [];
  if (a === undefined) return [{ kind: 'added', path, value: b }];
  if (b === undefined) return [{ kind: 'deleted', path, value: a }];
  return [{ kind: 'modified', path, values: [a, b] }];
}

/**
 * The report printed when an import is refused, one line per model and one per difference, in
 * Strapi's words:
 *
 *   - api::article.article:
 *     - attributes.subtitle exists in source schema but not in destination schema …
 */
export function formatSchemaDiffs(diffs: SchemaDiffs): string {
  const lines: string[] = [];
  for (const [uid, list] of diffs) {
    lines.push(`- ${uid}:`);
    // Strapi's order: changed values, then what only the archive has, then what only the project has.
    const sorted = [...list].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
    for (const d of sorted) lines.push(`  - ${describe(d)}`);
  }
  return lines.join('\n');
}

const KIND_ORDER: Readonly<Record<SchemaDiff['kind'], number>> = { modified: 0, deleted: 1, added: 2 };

function describe(d: SchemaDiff): string {
  const path = d.path.length > 0 ? d.path.join('.') : '(the whole type)';
  if (d.kind !== 'modified') {
    return d.kind === 'added'
      ? `${path} exists in the project but not in the archive`
      : `${path} exists in the archive but not in the project`;
  }
  const [from, to] = d.values;
  const [fromType, toType] = [typeof from, typeof to];
  const show = (value: unknown) => JSON.stringify(value) ?? String(value);
  return fromType === toType
    ? `${path} differs: ${show(from)} in the archive, ${show(to)} in the project`
    : `${path} has another type: ${show(from)} (${fromType}) in the archive, ${show(to)} (${toType}) in the project`;
}
