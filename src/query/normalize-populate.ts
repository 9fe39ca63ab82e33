import { ValidationError } from '../core/errors.js';
import { getModel, type Attribute, type Model, type Schema } from '../schema/types.js';
import { invalidQueryKey } from './invalid-key.js';
import { normalizeFields, withSortedFields } from './normalize-fields.js';
import { normalizeFilters } from './normalize-filters.js';
import { normalizeSort } from './normalize-sort.js';
import type { DynamicZoneFragment, PopulateNode, TargetPopulateNode } from './populate-types.js';

const PARAM = 'populate';
const MEDIA_UID = 'plugin::upload.file';
const TRUE_VALUES = new Set<unknown>([true, 'true', '1', 't']);
const FALSE_VALUES = new Set<unknown>([false, 'false', '0', 'f']);
const OPTION_KEYS = new Set(['fields', 'sort', 'filters', 'populate', 'count']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (key: string, path: string | null) => invalidQueryKey(PARAM, key, path);
const join = (parent: string | null, key: string) => (parent ? `${parent}.${key}` : key);

/**
 * `populate` in every Strapi form → PopulateNode[]:
 *
 *   '*'                                   → every relation, media, component, dynamic zone (and
 *                                           `localizations`), one level
 *   'author,tags' / ['author', 'tags']     → those attributes
 *   'author.articles' / 'seo.keywords'     → nested, through relations and components
 *   { author: true, tags: false }         → author only
 *   { author: { fields, sort, filters, populate, count } }
 *   { blocks: { on: { 'shared.quote': { fields, populate } } } }
 *   { blocks: { populate: '*' } }         → every component of the zone, one level deeper
 *
 * Errors as Strapi 5.54 reports them: `Invalid key nope` (path = the dotted path in string form,
 * the parent in object form), `Invalid key *` for `*` inside a list, `Invalid key limit at tags`
 * for pagination inside a populate, `populate[tags]=*` rejected on the target's first relation.
 */
export function normalizePopulate(schema: Schema, model: Model, raw: unknown): PopulateNode[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (raw === '*') return starNodes(schema, model);
  if (typeof raw === 'string') return fromPaths(schema, model, raw.split(','));
  if (Array.isArray(raw)) {
    if (raw.every((item) => typeof item === 'string')) return fromPaths(schema, model, raw.flatMap((item: string) => item.split(',')));
    return normalizeObject(schema, model, Object.assign({}, ...raw.filter(isObject)), null);
  }
  if (isObject(raw)) return normalizeObject(schema, model, raw, null);
  throw new ValidationError('Invalid populate parameter. Expected a string, an array of strings or an object');
}

/** Every attribute `populate=*` (or `[populate]=*`) selects, one level. */
function starNodes(schema: Schema, model: Model): PopulateNode[] {
  return populatableNames(model).map((name) => defaultNode(schema, model, name));
}

/** Attribute names that can be populated, in schema order. */
function populatableNames(model: Model): string[] {
  const names = [...model.attributes.values()].filter(isPopulatable).map((a) => a.name);
  if (model.modelType === 'contentType' && model.localized) names.push('localizations');
  return names;
}

function isPopulatable(attribute: Attribute): boolean {
  if (attribute.private) return false;
  if (attribute.type === 'relation') return attribute.target !== undefined;
  return attribute.type === 'media' || attribute.type === 'component' || attribute.type === 'dynamiczone';
}

function attributeOf(model: Model, name: string): Attribute | 'localizations' | null {
  if (name === 'localizations' && model.modelType === 'contentType' && model.localized) return 'localizations';
  const attribute = model.attributes.get(name);
  return attribute && isPopulatable(attribute) ? attribute : null;
}

/** The model a populatable attribute leads to (relation target, component, files, same type). */
function targetOf(schema: Schema, model: Model, attribute: Attribute | 'localizations'): Model | null {
  if (attribute === 'localizations') return model;
  if (attribute.type === 'relation') return attribute.target ? (getModel(schema, attribute.target) ?? null) : null;
  if (attribute.type === 'component') return schema.components.get(attribute.component) ?? null;
  if (attribute.type === 'media') return schema.contentTypes.get(MEDIA_UID) ?? null;
  return null;
}

function kindOf(attribute: Attribute | 'localizations'): TargetPopulateNode['kind'] {
  if (attribute === 'localizations') return 'localizations';
  return attribute.type === 'component' ? 'component' : attribute.type === 'media' ? 'media' : 'relation';
}

function defaultNode(schema: Schema, model: Model, name: string): PopulateNode {
  const attribute = attributeOf(model, name);
  if (!attribute) throw invalid(name, name);
  if (attribute !== 'localizations' && attribute.type === 'dynamiczone') {
    return { kind: 'dynamiczone', attribute: name, count: false, fragments: new Map(attribute.components.map((uid) => [uid, { fields: null, populate: [] }])) };
  }
  return { kind: kindOf(attribute), attribute: name, fields: null, sort: [], filters: null, count: false, populate: [] };
}

/**
 * String paths (`author.articles`, `seo.keywords`, `blocks.author`) → the object form, checked
 * segment by segment with the string form's error paths.
 */
function fromPaths(schema: Schema, model: Model, paths: readonly string[]): PopulateNode[] {
  const tree: Record<string, unknown> = {};
  for (const path of paths.map((p) => p.trim()).filter((p) => p !== '')) {
    if (path === '*') throw invalid('*', '*');
    addPath(schema, [model], path.split('.'), tree, null);
  }
  return normalizeObject(schema, model, tree, null);
}

function addPath(schema: Schema, models: readonly Model[], segments: readonly string[], tree: Record<string, unknown>, parent: string | null): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  const here = join(parent, head);
  const owners = models.filter((m) => attributeOf(m, head) !== null);
  if (owners.length === 0) throw invalid(head, here);
  const existing = tree[head];
  const node: Record<string, unknown> = isObject(existing) ? existing : {};
  tree[head] = rest.length === 0 && !isObject(existing) ? true : node;
  if (rest.length === 0) return;
  const nextModels: Model[] = [];
  for (const owner of owners) {
    const attribute = attributeOf(owner, head);
    if (attribute === null) continue;
    if (attribute !== 'localizations' && attribute.type === 'media') throw invalid(head, here);
    if (attribute !== 'localizations' && attribute.type === 'dynamiczone') {
      for (const uid of attribute.components) {
        const component = schema.components.get(uid);
        if (component) nextModels.push(component);
      }
    } else {
      const target = targetOf(schema, owner, attribute);
      if (target) nextModels.push(target);
    }
  }
  const children = isObject(node.populate) ? node.populate : {};
  node.populate = children;
  tree[head] = node;
  addPath(schema, nextModels, rest, children, here);
}

function normalizeObject(schema: Schema, model: Model, raw: Readonly<Record<string, unknown>>, parent: string | null): PopulateNode[] {
  const nodes: PopulateNode[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (FALSE_VALUES.has(value)) continue;
    const attribute = attributeOf(model, key);
    if (!attribute) throw invalid(key, parent);
    const here = join(parent, key);
    if (attribute !== 'localizations' && attribute.type === 'dynamiczone') {
      nodes.push(normalizeDynamicZone(schema, model, attribute, value, here));
      continue;
    }
    const target = targetOf(schema, model, attribute);
    if (!target) throw invalid(key, here);
    const base: TargetPopulateNode = { kind: kindOf(attribute), attribute: key, fields: null, sort: [], filters: null, count: false, populate: [] };
    if (TRUE_VALUES.has(value)) nodes.push(base);
    else if (value === '*') nodes.push({ ...base, populate: starOnTarget(schema, target, here) });
    else if (isObject(value)) nodes.push({ ...base, ...normalizeOptions(schema, target, value, here) });
    else throw new ValidationError(`Invalid populate value for ${here}: expected true, false, "*" or an object`, { key, path: here, source: 'query', param: PARAM });
  }
  return nodes;
}

/**
 * `populate[tags]=*`: Strapi expands the wildcard and then rejects it on the target's first
 * relation or media attribute (`Invalid key articles at tags.articles`); a target without any
 * behaves like `[populate]=*`.
 */
function starOnTarget(schema: Schema, target: Model, here: string): PopulateNode[] {
  const first = [...target.attributes.values()].find((a) => (a.type === 'relation' && !a.system) || a.type === 'media');
  if (first) throw new ValidationError(`Invalid key ${first.name} at ${here}.${first.name}`, { key: first.name, path: `${here}.${first.name}` });
  return starNodes(schema, target);
}

function normalizeOptions(schema: Schema, target: Model, options: Readonly<Record<string, unknown>>, here: string): Partial<TargetPopulateNode> {
  for (const key of Object.keys(options)) {
    if (key === 'on') {
      const fragments = options.on;
      const first = isObject(fragments) ? Object.keys(fragments)[0] : undefined;
      throw invalid(first ?? 'on', first ? `${here}.on.${first}` : here);
    }
    if (!OPTION_KEYS.has(key)) throw invalid(key, here);
  }
  const sort = normalizeSort(schema, target, options.sort, PARAM);
  return {
    fields: withSortedFields(normalizeFields(target, options.fields, PARAM), sort),
    sort,
    filters: normalizeFilters(schema, target, options.filters, PARAM),
    count: TRUE_VALUES.has(options.count),
    populate: nested(schema, target, options.populate, here),
  };
}

function nested(schema: Schema, target: Model, raw: unknown, here: string): PopulateNode[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (raw === '*') return starNodes(schema, target);
  if (isObject(raw)) return normalizeObject(schema, target, raw, here);
  const paths = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.map(String) : [];
  const tree: Record<string, unknown> = {};
  for (const path of paths.map((p) => p.trim()).filter((p) => p !== '')) {
    if (path === '*') throw invalid('*', `${here}.*`);
    addPath(schema, [target], path.split('.'), tree, here);
  }
  return normalizeObject(schema, target, tree, here);
}

/**
 * A dynamic zone accepts `true`, `{ on: { <uid>: true | { fields, populate } } }`,
 * `{ populate: … }` (applied to each component where it fits) and `{ count }`; anything else is
 * Strapi's "Invalid nested populate … Expected a fragment ("on") or "count"" error.
 */
function normalizeDynamicZone(
  schema: Schema,
  model: Model,
  attribute: Extract<Attribute, { type: 'dynamiczone' }>,
  value: unknown,
  here: string,
): PopulateNode {
  const dzError = () =>
    new ValidationError(
      `Invalid nested populate for ${model.singularName}.${attribute.name} (${model.uid}). Expected a fragment ("on") or "count" but found ${JSON.stringify(value)}`,
    );
  const all = (populate: unknown): Map<string, DynamicZoneFragment> => {
    const fragments = new Map<string, DynamicZoneFragment>();
    for (const uid of attribute.components) {
      const component = schema.components.get(uid);
      if (component) fragments.set(uid, { fields: null, populate: populateForComponent(schema, component, populate, here) });
    }
    return fragments;
  };
  if (TRUE_VALUES.has(value)) return { kind: 'dynamiczone', attribute: attribute.name, count: false, fragments: all(undefined) };
  if (!isObject(value)) throw dzError();
  const keys = Object.keys(value);
  if (keys.some((key) => key !== 'on' && key !== 'populate' && key !== 'count')) throw dzError();
  const count = TRUE_VALUES.has(value.count);
  if (value.on === undefined) return { kind: 'dynamiczone', attribute: attribute.name, count, fragments: all(value.populate) };
  if (!isObject(value.on)) throw dzError();
  const fragments = new Map<string, DynamicZoneFragment>();
  for (const [uid, spec] of Object.entries(value.on)) {
    const component = attribute.components.includes(uid) ? schema.components.get(uid) : undefined;
    if (!component) throw invalid(uid, `${here}.on.${uid}`);
    if (FALSE_VALUES.has(spec)) continue;
    if (TRUE_VALUES.has(spec)) {
      fragments.set(uid, { fields: null, populate: [] });
      continue;
    }
    if (!isObject(spec)) throw invalid(uid, `${here}.on.${uid}`);
    for (const key of Object.keys(spec)) if (key !== 'fields' && key !== 'populate') throw invalid(key, `${here}.on.${uid}`);
    fragments.set(uid, { fields: normalizeFields(component, spec.fields, PARAM), populate: nested(schema, component, spec.populate, `${here}.on.${uid}`) });
  }
  return { kind: 'dynamiczone', attribute: attribute.name, count, fragments };
}

/** A zone-wide `populate` applied to one component: only the attributes it has. */
function populateForComponent(schema: Schema, component: Model, raw: unknown, here: string): PopulateNode[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (raw === '*') return starNodes(schema, component);
  if (isObject(raw)) {
    const own = Object.fromEntries(Object.entries(raw).filter(([key]) => attributeOf(component, key) !== null));
    return normalizeObject(schema, component, own, here);
  }
  return [];
}
