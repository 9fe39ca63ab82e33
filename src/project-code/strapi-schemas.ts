import type { Project } from '../project/load-project.js';

/** `strapi.contentTypes` and `strapi.components`: Strapi's schema objects by uid. */
export interface StrapiSchemas {
  readonly contentTypes: Readonly<Record<string, unknown>>;
  readonly components: Readonly<Record<string, unknown>>;
}

/**
 * The project's models as Strapi shows them to code: each definition as written
 * (`kind`, `info`, `options`, `attributes`, …) with `uid`, `modelType`, `modelName`, and for
 * content types `apiName`; components with `category`. Frozen: project code reads them.
 */
export function strapiSchemas(project: Project): StrapiSchemas {
  const contentTypes: Record<string, unknown> = {};
  for (const raw of project.modelFiles.contentTypes) {
    const definition = raw.definition as unknown as Record<string, unknown>;
    const info = (definition.info ?? {}) as { singularName?: string };
    contentTypes[raw.uid] = Object.freeze({
      ...definition,
      uid: raw.uid,
      modelType: 'contentType',
      modelName: info.singularName ?? raw.uid.slice(raw.uid.lastIndexOf('.') + 1),
      apiName: raw.uid.startsWith('api::') ? raw.uid.slice(5, raw.uid.indexOf('.')) : undefined,
    });
  }
  for (const type of project.schema.contentTypes.values()) {
    if (contentTypes[type.uid]) continue;
    contentTypes[type.uid] = Object.freeze({
      uid: type.uid,
      modelType: 'contentType',
      modelName: type.singularName,
      kind: type.kind,
      collectionName: type.table,
      info: { singularName: type.singularName, pluralName: type.pluralName, displayName: type.displayName },
      options: { draftAndPublish: type.draftAndPublish },
      attributes: Object.fromEntries([...type.attributes].map(([name, attribute]) => [name, { type: attribute.type }])),
    });
  }
  const components: Record<string, unknown> = {};
  for (const raw of project.modelFiles.components) {
    const definition = raw.definition as unknown as Record<string, unknown>;
    components[raw.uid] = Object.freeze({
      ...definition,
      uid: raw.uid,
      modelType: 'component',
      modelName: raw.uid.slice(raw.uid.indexOf('.') + 1),
      category: raw.category,
    });
  }
  return { contentTypes: Object.freeze(contentTypes), components: Object.freeze(components) };
}
