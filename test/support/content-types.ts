import type { Step } from './scenario.js';

/*
 * Content types added to a scenario's project copy, as the Content-Type Builder would write them,
 * and steps for working with them. The Public role has no permission on added types, so their
 * steps use the full-access token.
 */

/** What a new collection type needs: its names, draft & publish, and its attributes. */
export interface TypeSpec {
  readonly singularName: string;
  readonly pluralName: string;
  readonly displayName: string;
  readonly draftAndPublish: boolean;
  readonly attributes: Record<string, unknown>;
}

/** A new content type's schema.json, like the Content-Type Builder writes it, at src/api/<singularName>/ (for the `files` option). */
export function schemaFile(spec: TypeSpec): Record<string, string> {
  const schema = {
    kind: 'collectionType',
    collectionName: spec.pluralName,
    info: {
      singularName: spec.singularName,
      pluralName: spec.pluralName,
      displayName: spec.displayName,
      description: '',
    },
    options: { draftAndPublish: spec.draftAndPublish },
    pluginOptions: {},
    attributes: spec.attributes,
  };
  return {
    [`src/api/${spec.singularName}/content-types/${spec.singularName}/schema.json`]: JSON.stringify(schema, null, 2),
  };
}

/** A relation attribute of `kind` (oneToOne, manyToMany, …) to `target`, owning (`inversedBy`) or mapped (`mappedBy`) when bidirectional. */
export const relation = (kind: string, target: string, side: { inversedBy?: string; mappedBy?: string } = {}) => ({
  type: 'relation',
  relation: kind,
  target,
  ...side,
});

/** POST steps (full access) creating one document per entry, `field` set to the value; saves each documentId under its variable name. */
export function createAll(pluralName: string, field: string, docs: Record<string, string>, query = ''): Step[] {
  return Object.entries(docs).map(([variable, value]) => ({
    name: `create ${pluralName} ${value}`,
    method: 'POST',
    path: `/api/${pluralName}?fields[0]=${field}${query}`,
    auth: 'full' as const,
    body: { data: { [field]: value } },
    status: 201,
    save: { [variable]: 'data.documentId' },
  }));
}

/** The steps, each sent with the full-access token. */
export const withFullAccess = (steps: Step[]): Step[] => steps.map((step) => ({ ...step, auth: 'full' as const }));
