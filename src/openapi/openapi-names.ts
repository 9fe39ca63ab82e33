import type { Model } from '../schema/types.js';
import type { Reference } from './openapi-types.js';

/**
 * `rich-text` → `RichText`, `users-permissions` → `UsersPermissions`, `metaTitle` → `MetaTitle`:
 * words split on anything but letters and digits, each capitalised.
 */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('');
}

/**
 * The base schema name of each model the document describes, by uid:
 *
 *   api::article.article            → Article
 *   plugin::upload.file             → UploadFile
 *   plugin::users-permissions.user  → UsersPermissionsUser
 *   admin::user                     → AdminUser
 *   shared.seo (a component)        → SharedSeoComponent
 *
 * Plugins and components are named first; a project type whose name is taken gets a number
 * (`UploadFile2`), so two models never share a schema. The map lists the models in the order given.
 */
export function schemaNames(models: readonly Model[]): ReadonlyMap<string, string> {
  const chosen = new Map<string, string>();
  const taken = new Set<string>();
  for (const model of [...models.filter((m) => !isProjectType(m)), ...models.filter(isProjectType)]) {
    const base = baseName(model);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    chosen.set(model.uid, name);
  }
  // Listed in the order given, so the document follows it.
  return new Map(models.map((model) => [model.uid, chosen.get(model.uid) ?? baseName(model)]));
}

function isProjectType(model: Model): boolean {
  return model.modelType === 'contentType' && model.origin === 'api';
}

function baseName(model: Model): string {
  if (model.modelType === 'component') return `${pascalCase(model.uid)}Component`;
  if (model.origin === 'api') return pascalCase(model.singularName);
  // `plugin::upload.file` → `upload` + `file`; `admin::user` → `admin` + `user`.
  const [namespace = '', rest = ''] = model.uid.split('::');
  const owner = namespace === 'plugin' ? (rest.split('.')[0] ?? '') : namespace;
  return pascalCase(`${owner}-${model.singularName}`);
}

/** `#/components/schemas/<name>`. */
export function schemaRef(name: string): Reference {
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * A route path as an OpenAPI path below the API prefix (the prefix is the server's URL):
 * `/api/articles/:documentId` → `/articles/{documentId}`, `/api/connect/*` → `/connect/{provider}`.
 */
export function openApiPath(path: string, prefix: string): string {
  const below = prefix !== '' && path.startsWith(prefix) ? path.slice(prefix.length) : path;
  return (below === '' ? '/' : below).replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{provider}');
}
