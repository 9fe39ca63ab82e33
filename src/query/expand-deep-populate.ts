import { ValidationError } from '../core/errors.js';
import type { Attribute, Model, Schema } from '../schema/types.js';
import { attributeOf, kindOf, targetOf } from './populate-attributes.js';
import type { DynamicZoneFragment, PopulateNode, TargetPopulateNode } from './populate-types.js';

/**
 * The most statements (populate nodes, a dynamic zone counting one per component) one deep
 * populate may expand to, as GraphQL bounds an operation at 1,000 fields: on a large model a
 * depth of 5 could otherwise reach tens of thousands of reads.
 */
export const MAX_DEEP_POPULATE_NODES = 1000;

/**
 * The populate tree `populate=deep,<depth>` / `pLevel=<depth>` stands for, as the deep-populate
 * plugins build it (strapi-v5-plugin-populate-deep and strapi-plugin-populate-deep). The
 * document is level 1, so depth 1 populates nothing and depth 2 what `populate=*` does; every
 * relation, component and dynamic zone (its components) is one more level:
 *
 *   article, depth 3 → cover, gallery, author { avatar }, tags, editor { avatar },
 *                      seo { shareImage, keywords }, blocks { quote { author }, media-block { file },
 *                      rich-text }, localizations
 *
 * - media, `localizations` and the creator fields (`createdBy`/`updatedBy`, populatable only with
 *   `populateCreatorFields`) are populated but never expanded further;
 * - private attributes are left out (`populate=*`'s own rule);
 * - a relation leading back to a content type already on its path (article → author → articles)
 *   is left out, as strapi-v5-plugin-populate-deep skips types it is already inside: this is what
 *   keeps cycles from multiplying the tree, and depth bounds the rest.
 *
 * Every node selects all fields and carries no filters or sort, so the read costs one statement
 * per node. What the caller may not `find` is pruned later by the access layer. A tree above
 * MAX_DEEP_POPULATE_NODES is a 400 naming the depth.
 */
export function expandDeepPopulate(schema: Schema, model: Model, depth: number): PopulateNode[] {
  const budget = { left: MAX_DEEP_POPULATE_NODES };
  return expand(schema, model, depth, new Set([model.uid]), budget, depth);
}

interface Budget {
  left: number;
}

function expand(
  schema: Schema,
  model: Model,
  depth: number,
  ancestors: ReadonlySet<string>,
  budget: Budget,
  requested: number,
): PopulateNode[] {
  if (depth <= 1) return [];
  const nodes: PopulateNode[] = [];
  const names = [...model.attributes.keys()];
  if (attributeOf(model, 'localizations') === 'localizations') names.push('localizations');
  for (const name of names) {
    const attribute = attributeOf(model, name);
    if (attribute === null) continue;
    if (attribute !== 'localizations' && attribute.type === 'dynamiczone') {
      const fragments = new Map<string, DynamicZoneFragment>();
      for (const uid of attribute.components) {
        const component = schema.components.get(uid);
        if (!component) continue;
        spend(budget, requested);
        fragments.set(uid, {
          fields: null,
          filters: null,
          populate: expand(schema, component, depth - 1, ancestors, budget, requested),
        });
      }
      nodes.push({ kind: 'dynamiczone', attribute: name, fragments });
      continue;
    }
    const target = targetOf(schema, model, attribute);
    if (!target) continue;
    const leaf = isLeaf(attribute);
    if (!leaf && target.modelType === 'contentType' && ancestors.has(target.uid)) continue;
    spend(budget, requested);
    const inside = target.modelType === 'contentType' ? new Set([...ancestors, target.uid]) : ancestors;
    nodes.push({
      ...plainNode(attribute, name),
      populate: leaf ? [] : expand(schema, target, depth - 1, inside, budget, requested),
    });
  }
  return nodes;
}

/** Media, `localizations` and creator fields: populated, never expanded. */
function isLeaf(attribute: Attribute | 'localizations'): boolean {
  if (attribute === 'localizations') return true;
  return attribute.type === 'media' || (attribute.type === 'relation' && attribute.system === true);
}

function plainNode(attribute: Attribute | 'localizations', name: string): TargetPopulateNode {
  return {
    kind: kindOf(attribute),
    attribute: name,
    fields: null,
    sort: [],
    filters: null,
    count: false,
    populate: [],
  };
}

function spend(budget: Budget, requested: number): void {
  budget.left -= 1;
  if (budget.left < 0)
    throw new ValidationError(
      `Invalid populate: a deep populate of depth ${requested} reads more than ${MAX_DEEP_POPULATE_NODES} relations, components and media; ask for a smaller depth`,
      { source: 'query', param: 'populate' },
    );
}
