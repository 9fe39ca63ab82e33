import type { Attribute, Model, RelationAttribute, RelationKind } from '../schema/types.js';

/**
 * Which attributes become fields of which generated type, as @strapi/plugin-graphql 5.54 picks
 * them:
 *
 * - object types and filters leave private attributes out (a password that is not private stays,
 *   as a `String`);
 * - inputs take what the document service lets a client write: every declared attribute that is
 *   writable, private or not, plus `publishedAt` and, on a type that is not localized, `locale`
 *   (i18n disables `locale` and `localizations` in a localized type's input).
 *
 * `createdBy`/`updatedBy` (relations to admin users, whose types are not generated) never appear.
 */

/** i18n's virtual relation from a localized document to its other locales. */
function localizationsOf(model: Model): RelationAttribute {
  return {
    name: 'localizations',
    type: 'relation',
    relation: 'oneToMany',
    target: model.uid,
    useJoinTable: false,
    required: false,
    private: false,
    writable: false,
    localized: false,
    system: true,
  };
}

/** A model's attributes as the plugin sees them: its own, plus `localizations` on a localized content type. */
export function graphqlAttributes(model: Model): readonly Attribute[] {
  const attributes = [...model.attributes.values()];
  return model.modelType === 'contentType' && model.localized ? [...attributes, localizationsOf(model)] : attributes;
}

/** Whether the attribute is a field of the object type and of the filters (it is not private). */
export function isReadableAttribute(attribute: Attribute): boolean {
  return !attribute.private;
}

/** Whether the attribute is a field of the model's input type. */
export function isWritableAttribute(model: Model, attribute: Attribute): boolean {
  if (!attribute.system) return attribute.writable;
  if (attribute.name === 'publishedAt') return true;
  return attribute.name === 'locale' && !(model.modelType === 'contentType' && model.localized);
}

/** `oneToMany`, `manyToMany`, `morphMany`, `morphToMany`: the relation holds a list. */
export function isToMany(relation: RelationKind): boolean {
  return relation.endsWith('Many');
}

/** `morphOne`, `morphMany`, `morphToOne`, `morphToMany`: polymorphic relations. */
export function isMorph(relation: RelationKind): boolean {
  return relation.startsWith('morph');
}
