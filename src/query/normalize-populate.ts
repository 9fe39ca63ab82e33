import { isOneSidedInverse } from '../schema/one-sided-inverses.js';
import { ValidationError } from '../core/errors.js';
import { getModel, type Attribute, type Model, type Schema } from '../schema/types.js';
import { normalizeFields, withSortedFields } from './normalize-fields.js';
import { normalizeFilters } from './normalize-filters.js';
import { normalizeSort } from './normalize-sort.js';
import {
  attributeOf,
  invalidPopulateKey as invalid,
  kindOf,
  starNodes,
  starOnTarget,
  targetOf,
} from './populate-attributes.js';
import { MAX_POPULATE_DEPTH, pathsToTree, populateTooDeep } from './populate-paths.js';
import type { DynamicZoneFragment, PopulateNode, TargetPopulateNode } from './populate-types.js';
import { isRecord } from '../core/is-record.js';

const PARAM = 'populate';
const TRUE_VALUES = new Set<unknown>([true, 'true', '1', 't']);
const FALSE_VALUES = new Set<unknown>([false, 'false', '0', 'f']);
const OPTION_KEYS = new Set(['fields', 'sort', 'filters', 'populate', 'count', 'on']);
const FRAGMENT_KEYS = new Set(['fields', 'sort', 'filters', 'populate', 'count']);

const join = (parent: string | null, key: string) => (parent ? `${parent}.${key}` : key);

/**
 * `populate` in every Strapi form → PopulateNode[]:
 *
 *   '*'                                   → every relation, media, component, dynamic zone (and
 *                                           `localizations`), one level
 *   'author,tags' / ['author', 'tags']     → those attributes
 *   'author.articles' / 'blocks.author'   → nested, through relations, components and zones
 *   { author: true, tags: false }         → author only
 *   { author: { fields, sort, filters, populate, count } }
 *   { blocks: { on: { 'shared.quote': { fields, filters, populate } } } }
 *   { blocks: { populate: '*' } }         → every component of the zone, one level deeper
 *
 * Errors as Strapi 5.54 reports them: `Invalid key nope` (path = the dotted path in string form,
 * counted from the string even when nested; the parent in object form, where a dynamic-zone
 * fragment counts as its zone), `Invalid key *` for `*` inside a list, `Invalid key limit at
 * tags` for pagination inside a populate, `populate[tags]=*` rejected on the target's first
 * relation, `Using fragments is not permitted…` for `on` outside a dynamic zone. Nesting beyond
 * MAX_POPULATE_DEPTH is a 400.
 */
export function normalizePopulate(schema: Schema, model: Model, raw: unknown): PopulateNode[] {
  const nodes = normalizeRoot(schema, model, raw);
  const depth = depthOf(nodes);
  if (depth > MAX_POPULATE_DEPTH) throw populateTooDeep(depth);
  return nodes;
}

function normalizeRoot(schema: Schema, model: Model, raw: unknown): PopulateNode[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (raw === '*') return starNodes(model);
  if (typeof raw === 'string')
    return normalizeObject(schema, model, pathsToTree(schema, model, raw.split(','), null), null, true);
  if (Array.isArray(raw)) {
    if (raw.every((item) => typeof item === 'string')) {
      return normalizeObject(
        schema,
        model,
        pathsToTree(
          schema,
          model,
          raw.flatMap((item: string) => item.split(',')),
          null,
        ),
        null,
        true,
      );
    }
    return normalizeObject(schema, model, Object.assign({}, ...raw.filter(isRecord)), null, false);
  }
  if (isRecord(raw)) return normalizeObject(schema, model, raw, null, false);
  throw new ValidationError('Invalid populate parameter. Expected a string, an array of strings or an object');
}

/** How many levels a normalized tree nests (already bounded: qs limits the object form, pathsToTree the dotted one). */
function depthOf(nodes: readonly PopulateNode[]): number {
  let deepest = 0;
  for (const node of nodes) {
    const children =
      node.kind === 'dynamiczone'
        ? [...node.fragments.values()].flatMap((fragment) => fragment.populate)
        : node.populate;
    deepest = Math.max(deepest, 1 + depthOf(children));
  }
  return deepest;
}

/**
 * The object form under `parent`. `fromPath` marks a tree built from top-level dotted strings,
 * whose zones may carry a nested `populate` (`blocks.author`); in a client's object a zone takes
 * only `populate: '*'`.
 */
function normalizeObject(
  schema: Schema,
  model: Model,
  raw: Readonly<Record<string, unknown>>,
  parent: string | null,
  fromPath: boolean,
): PopulateNode[] {
  const nodes: PopulateNode[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (FALSE_VALUES.has(value)) continue;
    const attribute = attributeOf(model, key);
    // A relation without links (one-sided-inverses.ts): Strapi answers without it.
    if (!attribute && isOneSidedInverse(model.attributes.get(key))) continue;
    if (!attribute) throw invalid(key, parent);
    const here = join(parent, key);
    if (attribute !== 'localizations' && attribute.type === 'dynamiczone') {
      nodes.push(normalizeDynamicZone(schema, model, attribute, value, here, fromPath));
      continue;
    }
    const target = targetOf(schema, model, attribute);
    if (!target) throw invalid(key, here);
    const base: TargetPopulateNode = {
      kind: kindOf(attribute),
      attribute: key,
      fields: null,
      sort: [],
      filters: null,
      count: false,
      populate: [],
    };
    if (TRUE_VALUES.has(value)) nodes.push(base);
    else if (value === '*') nodes.push({ ...base, populate: starOnTarget(target, here) });
    else if (isRecord(value))
      nodes.push({ ...base, ...normalizeOptions(schema, model, target, key, value, here, fromPath) });
    else
      throw new ValidationError(`Invalid populate value for ${here}: expected true, false, "*" or an object`, {
        key,
        path: here,
        source: 'query',
        param: PARAM,
      });
  }
  return nodes;
}

function normalizeOptions(
  schema: Schema,
  model: Model,
  target: Model,
  key: string,
  options: Readonly<Record<string, unknown>>,
  here: string,
  fromPath: boolean,
): Partial<TargetPopulateNode> {
  for (const name of Object.keys(options)) if (!OPTION_KEYS.has(name)) throw invalid(name, here);
  if (options.on !== undefined && !isRecord(options.on)) throw invalid('on', `${here}.on`);
  if (options.count !== undefined && !TRUE_VALUES.has(options.count) && !FALSE_VALUES.has(options.count))
    throw invalid('count', here);
  const sort = normalizeSort(schema, target, options.sort, PARAM);
  const normalized = {
    fields: withSortedFields(normalizeFields(target, options.fields, PARAM), sort),
    sort,
    filters: normalizeFilters(schema, target, options.filters, PARAM),
    count: TRUE_VALUES.has(options.count),
    populate: nested(schema, target, options.populate, here, fromPath),
  };
  if (isRecord(options.on)) {
    // Strapi checks the fragments as it would a zone's, then refuses them outside a dynamic zone.
    for (const [uid, spec] of Object.entries(options.on)) normalizeFragment(schema, uid, spec, here);
    throw new ValidationError(`Using fragments is not permitted to populate "${key}" in "${model.uid}"`);
  }
  return normalized;
}

function nested(schema: Schema, target: Model, raw: unknown, here: string, fromPath: boolean): PopulateNode[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (raw === '*') return starNodes(target);
  if (isRecord(raw)) return normalizeObject(schema, target, raw, here, fromPath);
  const paths = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.map(String) : [];
  return normalizeObject(schema, target, pathsToTree(schema, target, paths, here), null, false);
}

/**
 * A dynamic zone accepts `true`, `{ on: { <uid>: true | { fields, filters, populate } } }` and
 * `{ populate: '*' }` (every component, one level deeper); `count` is read and ignored, as Strapi
 * ignores it on a zone (a query string never carries the boolean it wants). A fragment naming a
 * component the zone does not allow is checked and returns nothing; an unknown uid is `Invalid
 * key <uid> at blocks.on.<uid>`. Other keys are Strapi's "Invalid nested populate … Expected a
 * fragment ("on") or "count"" error; a `populate` other than `*` is `Invalid key populate at blocks`.
 */
function normalizeDynamicZone(
  schema: Schema,
  model: Model,
  attribute: Extract<Attribute, { type: 'dynamiczone' }>,
  value: unknown,
  here: string,
  fromPath: boolean,
): PopulateNode {
  const zone = (select: (component: Model) => DynamicZoneFragment | undefined): PopulateNode => {
    const fragments = new Map<string, DynamicZoneFragment>();
    for (const uid of attribute.components) {
      const component = schema.components.get(uid);
      const fragment = component ? select(component) : undefined;
      if (fragment) fragments.set(uid, fragment);
    }
    return { kind: 'dynamiczone', attribute: attribute.name, fragments };
  };
  const plain = (populate: PopulateNode[]): DynamicZoneFragment => ({ fields: null, filters: null, populate });
  if (TRUE_VALUES.has(value)) return zone(() => plain([]));
  if (!isRecord(value) || Object.keys(value).some((key) => key !== 'on' && key !== 'populate' && key !== 'count')) {
    throw new ValidationError(
      `Invalid nested populate for ${model.singularName}.${attribute.name} (${model.uid}). Expected a fragment ("on") or "count" but found ${JSON.stringify(value)}`,
    );
  }
  const { on, populate } = value;
  if (fromPath && isRecord(populate)) {
    // `blocks.author`: each component takes the part of the path it has.
    return zone((component) => plain(normalizeObject(schema, component, ownKeys(component, populate), here, true)));
  }
  if (populate !== undefined && populate !== '*') throw invalid('populate', here);
  if (on === undefined) return zone((component) => plain(populate === '*' ? starNodes(component) : []));
  if (on === '') return zone(() => undefined);
  if (!isRecord(on)) throw invalid('on', `${here}.on`);
  const requested = new Map(
    Object.entries(on).map(([uid, spec]) => [uid, normalizeFragment(schema, uid, spec, here)] as const),
  );
  return zone((component) => requested.get(component.uid));
}

function ownKeys(component: Model, populate: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(populate).filter(([key]) => attributeOf(component, key) !== null));
}

/**
 * One `on[<uid>]` fragment, checked against the model `uid` names; its errors report the zone's
 * path (`Invalid key nope at blocks`), as Strapi's. `true` or `false` select the component (Strapi
 * returns it either way); `*` behaves as on a relation; `sort` and `count` are checked and ignored
 * (items keep the zone's order).
 */
function normalizeFragment(schema: Schema, uid: string, spec: unknown, here: string): DynamicZoneFragment {
  const component = getModel(schema, uid);
  if (!component) throw invalid(uid, `${here}.on.${uid}`);
  if (TRUE_VALUES.has(spec) || FALSE_VALUES.has(spec)) return { fields: null, filters: null, populate: [] };
  if (spec === '*') return { fields: null, filters: null, populate: starOnTarget(component, here) };
  if (typeof spec === 'string') throw invalid(spec, attributeOf(component, spec) ? `${here}.${spec}` : here);
  if (!isRecord(spec)) throw invalid(uid, `${here}.on.${uid}`);
  for (const key of Object.keys(spec)) if (!FRAGMENT_KEYS.has(key)) throw invalid(key, here);
  normalizeSort(schema, component, spec.sort, PARAM);
  return {
    fields: normalizeFields(component, spec.fields, PARAM),
    filters: normalizeFilters(schema, component, spec.filters, PARAM),
    populate: nested(schema, component, spec.populate, here, false),
  };
}
