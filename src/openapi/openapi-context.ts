import {
  getModel,
  isScalar,
  type Attribute,
  type Model,
  type RelationAttribute,
  type Schema,
} from '../schema/types.js';
import { schemaNames } from './openapi-names.js';

/** The media library's file type: what a media attribute holds. */
export const FILE_UID = 'plugin::upload.file';
/** The users & permissions plugin's user type (its routes take plain user bodies). */
export const USER_UID = 'plugin::users-permissions.user';

/** What every part of the generator reads: the content model, schema names and the attributes never output. */
export interface OpenApiContext {
  readonly schema: Schema;
  /** Model uid → base schema name (openapi-names.ts). */
  readonly names: ReadonlyMap<string, string>;
  /** `api.responses.privateAttributes`: names never output on any type. */
  readonly privateAttributes: ReadonlySet<string>;
}

/**
 * The context for a document describing `roots` (uids) and every model they reach through
 * relations, media, components and dynamic zones.
 */
export function createOpenApiContext(
  schema: Schema,
  roots: readonly string[],
  privateAttributes: readonly string[],
): OpenApiContext {
  const hidden = new Set(privateAttributes);
  const seen = new Map<string, Model>();
  const visit = (uid: string) => {
    const model = getModel(schema, uid);
    if (!model || seen.has(uid)) return;
    seen.set(uid, model);
    for (const attribute of model.attributes.values()) {
      if (!isOutput(hidden, attribute) && !(isInput(attribute) && hasInputSchema(model))) continue;
      for (const target of referencedUids(schema, attribute)) visit(target);
    }
  };
  for (const uid of roots) visit(uid);
  return { schema, names: schemaNames([...seen.values()]), privateAttributes: hidden };
}

/** The schema name of a model the context reaches; throws for one it does not (a generator bug). */
export function nameOf(ctx: OpenApiContext, uid: string): string {
  const name = ctx.names.get(uid);
  if (name === undefined) throw new Error(`openapi: no schema name for ${uid}`);
  return name;
}

/** The models the context describes, in the order it reached them (the roots first, as given). */
export function describedModels(ctx: OpenApiContext): Model[] {
  return [...ctx.names.keys()].flatMap((uid) => getModel(ctx.schema, uid) ?? []);
}

/** Attributes an answer may carry: not private, not a password, and (relations) with a known target. */
export function outputAttributes(ctx: OpenApiContext, model: Model): Attribute[] {
  return [...model.attributes.values()].filter(
    (attribute) => isOutput(ctx.privateAttributes, attribute) && hasKnownTarget(ctx.schema, attribute),
  );
}

/** Attributes a request body may set: declared, writable ones (private ones included, as Strapi). */
export function inputAttributes(ctx: OpenApiContext, model: Model): Attribute[] {
  return [...model.attributes.values()].filter(
    (attribute) => isInput(attribute) && hasKnownTarget(ctx.schema, attribute),
  );
}

/** Whether the document describes request bodies of a model: project types, components and users. */
export function hasInputSchema(model: Model): boolean {
  return (
    model.modelType === 'component' ||
    (model.modelType === 'contentType' && (model.origin === 'api' || model.uid === USER_UID))
  );
}

/** Whether a relation reads as a list (`oneToMany`, `manyToMany`, morph-many). */
export function isToMany(attribute: RelationAttribute): boolean {
  return (
    attribute.relation === 'oneToMany' ||
    attribute.relation === 'manyToMany' ||
    attribute.relation === 'morphMany' ||
    attribute.relation === 'morphToMany'
  );
}

/** The model uids an attribute's value holds: a relation's target, the file type, components. */
export function referencedUids(schema: Schema, attribute: Attribute): string[] {
  switch (attribute.type) {
    case 'relation':
      return attribute.target && getModel(schema, attribute.target) ? [attribute.target] : [];
    case 'media':
      return getModel(schema, FILE_UID) ? [FILE_UID] : [];
    case 'component':
      return [attribute.component];
    case 'dynamiczone':
      return [...attribute.components];
    default:
      return [];
  }
}

function isOutput(hidden: ReadonlySet<string>, attribute: Attribute): boolean {
  return !attribute.private && !hidden.has(attribute.name) && !(isScalar(attribute) && attribute.type === 'password');
}

function isInput(attribute: Attribute): boolean {
  return attribute.writable && !attribute.system;
}

function hasKnownTarget(schema: Schema, attribute: Attribute): boolean {
  return attribute.type !== 'relation' || referencedUids(schema, attribute).length > 0;
}
