import type { Attribute, ContentType, RelationAttribute } from './types.js';

/**
 * Whether a relation is the inverse side of a pair whose owner does not name it back: a `mappedBy`
 * kept without its target (see `detachOneSidedInverses`). It holds no links, as in Strapi.
 */
export function isOneSidedInverse(attribute: Attribute | undefined): boolean {
  return attribute?.type === 'relation' && attribute.target === undefined && attribute.mappedBy !== undefined;
}

/**
 * Strapi 5 accepts a relation with `mappedBy` whose other side has no `inversedBy` (a one-way
 * relation that another type points back at): the owner keeps its own join table and the
 * `mappedBy` side gets none, so it reads as nothing and writes to it are ignored. Each such
 * attribute is replaced in `contentTypes` by a copy without its target (every reader then skips
 * it, as a relation that leads nowhere), and a warning naming both sides is returned for it.
 */
export function detachOneSidedInverses(contentTypes: Map<string, ContentType>): string[] {
  const warnings: string[] = [];
  for (const [uid, model] of contentTypes) {
    const detached = new Map<string, Attribute>();
    for (const attribute of model.attributes.values()) {
      if (attribute.type !== 'relation' || attribute.mappedBy === undefined || attribute.target === undefined) continue;
      const owner = contentTypes.get(attribute.target)?.attributes.get(attribute.mappedBy);
      if (!isOneWayBack(owner, uid)) continue;
      const { target, ...linkless } = attribute;
      detached.set(attribute.name, linkless);
      warnings.push(
        `${model.file}: attribute "${attribute.name}" declares mappedBy "${attribute.mappedBy}", but ${target}'s "${attribute.mappedBy}" has no inversedBy: "${attribute.name}"; as in Strapi, ${uid}.${attribute.name} holds no links (populating it shows nothing, writing it is ignored) while ${target}.${attribute.mappedBy} works on its own. Add inversedBy: "${attribute.name}" to it to link both sides`,
      );
    }
    if (detached.size > 0)
      contentTypes.set(uid, {
        ...model,
        attributes: new Map([...model.attributes].map(([name, a]) => [name, detached.get(name) ?? a])),
      });
  }
  return warnings;
}

/** A relation back to `uid` that names neither side of a pair (no `inversedBy`, no `mappedBy`). */
function isOneWayBack(owner: Attribute | undefined, uid: string): owner is RelationAttribute {
  return (
    owner?.type === 'relation' && owner.target === uid && owner.inversedBy === undefined && owner.mappedBy === undefined
  );
}
