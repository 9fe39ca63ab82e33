import type { Attribute, RelationAttribute, ScalarAttribute } from './types.js';

/** Names of the attributes the server adds to every content type. */
export const SYSTEM_ATTRIBUTE_NAMES = [
  'createdAt',
  'updatedAt',
  'publishedAt',
  'createdBy',
  'updatedBy',
  'locale',
] as const;

function systemScalar(name: string, type: 'datetime' | 'string', column: string, isPrivate = false): ScalarAttribute {
  return {
    name,
    type,
    column,
    required: false,
    private: isPrivate,
    writable: false,
    system: true,
    localized: false,
    unique: false,
    searchable: type === 'string',
  };
}

function creator(name: 'createdBy' | 'updatedBy', isPrivate: boolean): RelationAttribute {
  return {
    name,
    type: 'relation',
    relation: 'oneToOne',
    target: 'admin::user',
    useJoinTable: false,
    required: false,
    private: isPrivate,
    writable: false,
    system: true,
    localized: false,
  };
}

/**
 * Appends the attributes Strapi adds to every content type, after the declared ones and in
 * Strapi's output order: `createdAt`, `updatedAt`, `publishedAt` (datetimes), `createdBy` and
 * `updatedBy` (join columns to admin users, private unless `populateCreatorFields`), and `locale`
 * (a column on every table; private when the type is not localized).
 */
export function addSystemAttributes(
  declared: ReadonlyMap<string, Attribute>,
  options: { localized: boolean; populateCreatorFields: boolean },
): ReadonlyMap<string, Attribute> {
  const attributes = new Map(declared);
  attributes.set('createdAt', systemScalar('createdAt', 'datetime', 'created_at'));
  attributes.set('updatedAt', systemScalar('updatedAt', 'datetime', 'updated_at'));
  attributes.set('publishedAt', systemScalar('publishedAt', 'datetime', 'published_at'));
  attributes.set('createdBy', creator('createdBy', !options.populateCreatorFields));
  attributes.set('updatedBy', creator('updatedBy', !options.populateCreatorFields));
  attributes.set('locale', systemScalar('locale', 'string', 'locale', !options.localized));
  return attributes;
}
