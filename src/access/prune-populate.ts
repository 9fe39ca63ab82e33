import type { PopulateNode } from '../query/populate-types.js';
import { getModel, type Model, type Schema } from '../schema/types.js';

/**
 * Drops, at any depth, the populate nodes of relations whose target content type the caller may
 * not `find` — silently, as Strapi's output sanitizer does. Media, components and dynamic zones
 * are kept (their own relations are checked inside them), and so are `createdBy`/`updatedBy`,
 * which a type only exposes with `populateCreatorFields`.
 *
 *   populate=author,tags with only `api::tag.tag.find` allowed → populate=tags
 */
export function prunePopulate(
  schema: Schema,
  model: Model,
  nodes: readonly PopulateNode[],
  mayFind: (uid: string) => boolean,
): PopulateNode[] {
  const kept: PopulateNode[] = [];
  for (const node of nodes) {
    if (node.kind === 'dynamiczone') {
      const fragments = new Map(
        [...node.fragments].map(([uid, fragment]) => {
          const component = schema.components.get(uid);
          return [
            uid,
            component
              ? { ...fragment, populate: prunePopulate(schema, component, fragment.populate, mayFind) }
              : fragment,
          ] as const;
        }),
      );
      kept.push({ ...node, fragments });
      continue;
    }
    const target = populateTarget(schema, model, node.attribute);
    if (!target) continue;
    // Creator fields are populatable only with `populateCreatorFields`, and then always shown.
    const creator = node.kind === 'relation' && model.attributes.get(node.attribute)?.system === true;
    if ((node.kind === 'relation' || node.kind === 'localizations') && !creator && !mayFind(target.uid)) continue;
    kept.push({ ...node, populate: prunePopulate(schema, target, node.populate, mayFind) });
  }
  return kept;
}

/** The model a populate node of attribute `name` of `model` returns rows of (`localizations`: the model itself). */
export function populateTarget(schema: Schema, model: Model, name: string): Model | undefined {
  if (name === 'localizations') return model;
  const attribute = model.attributes.get(name);
  if (attribute?.type === 'relation') return attribute.target ? getModel(schema, attribute.target) : undefined;
  if (attribute?.type === 'component') return schema.components.get(attribute.component);
  if (attribute?.type === 'media') return schema.contentTypes.get('plugin::upload.file');
  return undefined;
}
