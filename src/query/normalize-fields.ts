import type { SortTerm } from './query-types.js';
import { ValidationError } from '../core/errors.js';
import { isScalar, type Model } from '../schema/types.js';
import { invalidQueryKey } from './invalid-key.js';

/**
 * `fields` → the scalar attributes to return, or null for all of them:
 *
 *   'title,views'          → ['title', 'views']
 *   ['title', 'views']     → ['title', 'views']   (also `fields=title&fields=views`)
 *   '*' (anywhere)         → null
 *
 * `id` and `documentId` are accepted and always returned anyway. Relations, components, media,
 * dynamic zones, private and password attributes → 400 `Invalid key …`; an object → 400.
 */
export function normalizeFields(model: Model, raw: unknown, param = 'fields'): string[] | null {
  if (raw === undefined || raw === null) return null;
  let names: string[];
  if (typeof raw === 'string') names = raw.split(',');
  else if (Array.isArray(raw) && raw.every((item) => typeof item === 'string'))
    names = raw.flatMap((item: string) => item.split(','));
  else throw new ValidationError('Invalid fields parameter. Expected a string or an array of strings');
  names = names.map((name) => name.trim()).filter((name) => name !== '');
  if (names.includes('*')) return null;
  const selected: string[] = [];
  for (const name of names) {
    if (name === 'id' || (name === 'documentId' && model.modelType === 'contentType')) continue;
    const attribute = model.attributes.get(name);
    if (!attribute) throw invalidQueryKey(param, name, null);
    if (!isScalar(attribute) || attribute.private || attribute.type === 'password')
      throw invalidQueryKey(param, name, name);
    if (!selected.includes(name)) selected.push(name);
  }
  return selected;
}

/**
 * When Strapi's query joins other tables (a populated relation, or filters through one) it selects
 * the columns it sorts on, so a scalar sorted on shows up in the output even when `fields` leaves
 * it out: `populate[articles][fields][0]=title&populate[articles][sort]=publishDate` returns
 * `title` and `publishDate`. The caller decides when a join is involved. Sorts through relations
 * or components add nothing; `fields` null (everything) stays null.
 */
export function withSortedFields(
  fields: readonly string[] | null,
  sort: readonly SortTerm[],
): readonly string[] | null {
  if (fields === null) return null;
  const added = sort
    .filter((term) => term.path.length === 1 && term.path[0] !== 'id' && term.path[0] !== 'documentId')
    .map((term) => term.path[0] as string);
  const missing = [...new Set(added)].filter((name) => !fields.includes(name));
  return missing.length === 0 ? fields : [...fields, ...missing];
}
