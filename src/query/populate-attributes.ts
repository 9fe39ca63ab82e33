import { ValidationError } from '../core/errors.js';
import { getModel, type Attribute, type Model, type Schema } from '../schema/types.js';
import { invalidQueryKey } from './invalid-key.js';
import type { PopulateNode, TargetPopulateNode } from './populate-types.js';

/** What `populate` can name on a model: its populatable attributes, their targets and `*`. */

const PARAM = 'populate';
const MEDIA_UID = 'plugin::upload.file';

/** `Invalid key <key>` (at `path`) in the populate parameter. */
export const invalidPopulateKey = (key: string, path: string | null) => invalidQueryKey(PARAM, key, path);

/** A populatable attribute of `model` (or `localizations` on a localized type), or null. */
export function attributeOf(model: Model, name: string): Attribute | 'localizations' | null {
  if (name === 'localizations' && model.modelType === 'contentType' && model.localized) return 'localizations';
  const attribute = model.attributes.get(name);
  return attribute && isPopulatable(attribute) ? attribute : null;
}

function isPopulatable(attribute: Attribute): boolean {
  if (attribute.private) return false;
  if (attribute.type === 'relation') return attribute.target !== undefined;
  return attribute.type === 'media' || attribute.type === 'component' || attribute.type === 'dynamiczone';
}

/** The model a populatable attribute leads to (relation target, component, files, same type); null for a dynamic zone. */
export function targetOf(schema: Schema, model: Model, attribute: Attribute | 'localizations'): Model | null {
  if (attribute === 'localizations') return model;
  if (attribute.type === 'relation') return attribute.target ? (getModel(schema, attribute.target) ?? null) : null;
  if (attribute.type === 'component') return schema.components.get(attribute.component) ?? null;
  if (attribute.type === 'media') return schema.contentTypes.get(MEDIA_UID) ?? null;
  return null;
}

/** The kind of populate node an attribute (or `localizations`) makes. */
export function kindOf(attribute: Attribute | 'localizations'): TargetPopulateNode['kind'] {
  if (attribute === 'localizations') return 'localizations';
  return attribute.type === 'component' ? 'component' : attribute.type === 'media' ? 'media' : 'relation';
}

/** Every attribute `populate=*` (or `[populate]=*`) selects, one level, in schema order. */
export function starNodes(model: Model): PopulateNode[] {
  const attributes: (Attribute | 'localizations')[] = [...model.attributes.values()].filter(isPopulatable);
  if (model.modelType === 'contentType' && model.localized) attributes.push('localizations');
  return attributes.map(defaultNode);
}

function defaultNode(attribute: Attribute | 'localizations'): PopulateNode {
  if (attribute !== 'localizations' && attribute.type === 'dynamiczone') {
    return {
      kind: 'dynamiczone',
      attribute: attribute.name,
      fragments: new Map(attribute.components.map((uid) => [uid, { fields: null, filters: null, populate: [] }])),
    };
  }
  return {
    kind: kindOf(attribute),
    attribute: attribute === 'localizations' ? attribute : attribute.name,
    fields: null,
    sort: [],
    filters: null,
    count: false,
    populate: [],
  };
}

/**
 * `populate[tags]=*`: Strapi expands the wildcard and then rejects it on the target's first
 * relation or media attribute (`Invalid key articles at tags.articles`); a target without any
 * behaves like `[populate]=*`.
 */
export function starOnTarget(target: Model, here: string): PopulateNode[] {
  const first = [...target.attributes.values()].find((a) => (a.type === 'relation' && !a.system) || a.type === 'media');
  if (first)
    throw new ValidationError(`Invalid key ${first.name} at ${here}.${first.name}`, {
      key: first.name,
      path: `${here}.${first.name}`,
    });
  return starNodes(target);
}
