import type { Model, Schema } from '../schema/types.js';
import type { AccessControl, Principal } from './principal.js';

/**
 * `POST /api/upload` with `ref`/`refId`/`field` links the new files to an entry, which changes
 * that entry. Strapi asks only for the upload permission; Cairn (a deliberate deviation) also asks
 * for the `update` action of the content type the files are linked to — for a component `ref`, of
 * every content type that may hold that component — and refuses with Strapi's 403 `Forbidden`
 * otherwise. A full-access API token passes.
 */
export function authorizeUploadTarget(access: AccessControl, principal: Principal, schema: Schema, uid: string): void {
  const contentTypes = schema.contentTypes.has(uid)
    ? [uid]
    : [...schema.contentTypes.values()].filter((model) => holdsComponent(schema, model, uid)).map((m) => m.uid);
  for (const contentType of contentTypes) access.authorize(principal, `${contentType}.update`);
}

/** Whether `model` holds component `uid`, directly or inside its components and dynamic zones. */
function holdsComponent(schema: Schema, model: Model, uid: string, seen = new Set<string>()): boolean {
  for (const attribute of model.attributes.values()) {
    const members =
      attribute.type === 'component'
        ? [attribute.component]
        : attribute.type === 'dynamiczone'
          ? attribute.components
          : [];
    for (const member of members) {
      if (member === uid) return true;
      if (seen.has(member)) continue;
      seen.add(member);
      const component = schema.components.get(member);
      if (component && holdsComponent(schema, component, uid, seen)) return true;
    }
  }
  return false;
}
