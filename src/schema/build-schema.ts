import { ProjectError } from '../core/errors.js';
import { customFieldTypes, type CustomFieldTypes } from './custom-fields.js';
import { identifier, snakeCase } from './naming.js';
import { detachOneSidedInverses } from './one-sided-inverses.js';
import { parseAttribute, type AttributeContext } from './parse-attribute.js';
import type { RawComponent, RawContentType, RawModelFile } from './raw-types.js';
import { addSystemAttributes } from './system-attributes.js';
import type { Attribute, Component, ContentType, ModelIndex, Schema } from './types.js';

/** Attribute names that collide with columns or keys Cairn (and Strapi) manage themselves. */
const RESERVED = new Set([
  'id',
  'document_id',
  'created_at',
  'updated_at',
  'published_at',
  'created_by_id',
  'updated_by_id',
  'created_by',
  'updated_by',
  'locale',
  'localizations',
  '__component',
]);

/**
 * Builds the immutable Schema from raw definitions. Every problem found is collected and reported
 * at once in a ProjectError whose message names the file, the attribute and the fix, e.g.
 * `src/api/article/content-types/article/schema.json: attribute "author": relation target
 * "api::writer.writer" does not exist; …`. `privateAttributes` (config `api.responses`) makes
 * those attribute names private on every content type. `customFields` (config `custom-fields`)
 * adds to, or overrides, the custom fields Cairn knows (custom-fields.ts).
 */
export function buildSchema(
  rawTypes: readonly RawContentType[],
  rawComponents: readonly RawComponent[],
  options: {
    privateAttributes?: readonly string[];
    customFields?: CustomFieldTypes;
    /** Receives what the model does that Strapi accepts but Cairn warns of (one-sided-inverses.ts). */
    onWarning?: (warning: string) => void;
  } = {},
): Schema {
  const globallyPrivate = new Set(options.privateAttributes ?? []);
  const customFields = customFieldTypes(options.customFields);
  const problems: string[] = [];
  const contentTypes = new Map<string, ContentType>();
  const components = new Map<string, Component>();

  for (const raw of rawComponents) {
    const component = buildComponent(raw, problems, customFields);
    if (component) components.set(component.uid, component);
  }
  for (const raw of rawTypes) {
    const contentType = buildContentType(raw, problems, globallyPrivate, customFields);
    if (contentType) contentTypes.set(contentType.uid, contentType);
  }

  for (const warning of detachOneSidedInverses(contentTypes)) options.onWarning?.(warning);
  const schema: Schema = { contentTypes, components };
  checkReferences(schema, problems);
  checkUniqueNames(schema, problems);
  if (problems.length > 0) {
    throw new ProjectError(`The project's content model is invalid:\n- ${problems.join('\n- ')}`);
  }
  return schema;
}

function reporter(file: string, problems: string[]) {
  return (attribute: string | null, problem: string) => {
    problems.push(attribute === null ? `${file}: ${problem}` : `${file}: attribute "${attribute}" ${problem}`);
  };
}

/**
 * The declared attributes, in order. `reserved` names are refused (a built-in definition, Strapi's
 * own, may declare one in place: the release action's `locale` column sits among its attributes).
 */
function readAttributes(
  def: RawModelFile,
  context: AttributeContext,
  report: ReturnType<typeof reporter>,
  reserved: ReadonlySet<string> = RESERVED,
): Map<string, Attribute> {
  const attributes = new Map<string, Attribute>();
  const raw = def.attributes;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    report(null, 'has no "attributes" object; add one (it may be empty)');
    return attributes;
  }
  for (const [name, rawAttribute] of Object.entries(raw)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
      report(name, 'has an invalid name; use letters, digits, "_" or "-", starting with a letter');
      continue;
    }
    if (reserved.has(snakeCase(name)) || (reserved.size > 0 && /^_*strapi/i.test(name))) {
      report(
        name,
        'uses a reserved name; rename it (id, documentId, createdAt, updatedAt, publishedAt, createdBy, updatedBy, locale, localizations and strapi* are managed by the server)',
      );
      continue;
    }
    const attribute = parseAttribute(name, rawAttribute, context, report);
    if (attribute) attributes.set(name, attribute);
  }
  return attributes;
}

function buildContentType(
  raw: RawContentType,
  problems: string[],
  globallyPrivate: ReadonlySet<string>,
  customFields: CustomFieldTypes,
): ContentType | null {
  const report = reporter(raw.file, problems);
  const def = raw.definition;
  const kind = def.kind;
  if (kind !== 'collectionType' && kind !== 'singleType') {
    report(null, `has "kind" ${JSON.stringify(kind)}; use "collectionType" or "singleType"`);
    return null;
  }
  const singularName = def.info?.singularName;
  const pluralName = def.info?.pluralName;
  if (typeof singularName !== 'string' || typeof pluralName !== 'string' || !singularName || !pluralName) {
    report(null, 'needs "info.singularName" and "info.pluralName" (kebab-case strings)');
    return null;
  }
  if (singularName === pluralName) {
    report(null, `has the same singularName and pluralName "${singularName}"; they must differ`);
    return null;
  }
  const collectionName = typeof def.collectionName === 'string' && def.collectionName ? def.collectionName : null;
  if (!collectionName) {
    report(null, 'needs a "collectionName" (the table name)');
    return null;
  }
  const options = def.options ?? {};
  const i18n = (def.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n;
  const localized = i18n?.localized === true;
  const populateCreatorFields = options.populateCreatorFields === true;
  const privateNames = [
    ...globallyPrivate,
    ...(Array.isArray(options.privateAttributes) ? options.privateAttributes.map(String) : []),
  ];
  const declared = readAttributes(
    def,
    { localized, customFields },
    report,
    raw.origin === 'builtin' ? new Set() : RESERVED,
  );
  for (const name of privateNames) {
    const attribute = declared.get(name);
    if (attribute) declared.set(name, { ...attribute, private: true });
  }
  const attributes = addSystemAttributes(declared, { localized, populateCreatorFields });
  return {
    modelType: 'contentType',
    uid: raw.uid,
    kind,
    origin: raw.origin,
    file: raw.file,
    table: identifier(collectionName),
    singularName,
    pluralName,
    displayName: typeof def.info?.displayName === 'string' ? def.info.displayName : singularName,
    draftAndPublish: options.draftAndPublish === true,
    localized,
    populateCreatorFields,
    attributes,
    indexes: readIndexes(def.indexes, attributes, report),
  };
}

/**
 * A definition's `indexes`: `[{ name, columns: [column names], type?: 'unique' | null }]`, on
 * columns of the type's own scalar attributes (or `id`, `document_id`).
 */
function readIndexes(
  raw: unknown,
  attributes: ReadonlyMap<string, Attribute>,
  report: ReturnType<typeof reporter>,
): ModelIndex[] {
  if (raw === undefined) return [];
  const known = new Set([
    'id',
    'document_id',
    ...[...attributes.values()].flatMap((attribute) => ('column' in attribute ? [attribute.column] : [])),
  ]);
  const indexes: ModelIndex[] = [];
  for (const entry of Array.isArray(raw) ? raw : [raw]) {
    const { name, columns, type } = (entry ?? {}) as { name?: unknown; columns?: unknown; type?: unknown };
    if (
      typeof name !== 'string' ||
      !Array.isArray(columns) ||
      !columns.every((c) => typeof c === 'string' && known.has(c)) ||
      (type !== undefined && type !== null && type !== 'unique')
    ) {
      report(
        null,
        `has an invalid "indexes" entry ${JSON.stringify(entry)}; use [{ "name": "…", "columns": ["<column of an attribute>"], "type": "unique" }] or remove it`,
      );
      continue;
    }
    indexes.push({ name, columns, ...(type !== undefined ? { type } : {}) });
  }
  return indexes;
}

function buildComponent(raw: RawComponent, problems: string[], customFields: CustomFieldTypes): Component | null {
  const report = reporter(raw.file, problems);
  const def = raw.definition;
  const collectionName = typeof def.collectionName === 'string' && def.collectionName ? def.collectionName : null;
  if (!collectionName) {
    report(null, 'needs a "collectionName" (the table name, e.g. "components_shared_seos")');
    return null;
  }
  const modelName = raw.uid.slice(raw.uid.indexOf('.') + 1);
  return {
    modelType: 'component',
    uid: raw.uid,
    category: raw.category,
    file: raw.file,
    table: identifier(collectionName),
    singularName: modelName,
    displayName: typeof def.info?.displayName === 'string' ? def.info.displayName : modelName,
    attributes: readAttributes(def, { localized: false, customFields }, report),
  };
}

/** Relation targets, inverse sides, components and dynamic zones must point at real models. */
function checkReferences(schema: Schema, problems: string[]): void {
  const models = [...schema.contentTypes.values(), ...schema.components.values()];
  for (const model of models) {
    const report = reporter(model.file, problems);
    for (const attribute of model.attributes.values()) {
      if (attribute.system) continue;
      if (attribute.type === 'component' && !schema.components.has(attribute.component)) {
        report(
          attribute.name,
          `uses the component "${attribute.component}", which does not exist; create src/components/${attribute.component.replace('.', '/')}.json or fix the uid`,
        );
      }
      if (attribute.type === 'dynamiczone') {
        for (const uid of attribute.components) {
          if (!schema.components.has(uid)) {
            report(
              attribute.name,
              `lists the component "${uid}", which does not exist; create it or remove it from "components"`,
            );
          }
        }
      }
      if (attribute.type === 'relation' && attribute.target !== undefined) {
        const target = schema.contentTypes.get(attribute.target);
        if (!target) {
          report(
            attribute.name,
            `targets "${attribute.target}", which is not a content type; fix "target" (e.g. "api::author.author")`,
          );
          continue;
        }
        checkInverse(model.uid, attribute, target, report);
      }
    }
  }
}

function checkInverse(
  ownerUid: string,
  attribute: Extract<Attribute, { type: 'relation' }>,
  target: ContentType,
  report: (attribute: string | null, problem: string) => void,
): void {
  const otherName = attribute.inversedBy ?? attribute.mappedBy;
  if (otherName === undefined) return;
  const other = target.attributes.get(otherName);
  const mirror = attribute.inversedBy !== undefined ? 'mappedBy' : 'inversedBy';
  if (!other || other.type !== 'relation' || other.target !== ownerUid || other[mirror] !== attribute.name) {
    report(
      attribute.name,
      `declares ${attribute.inversedBy !== undefined ? 'inversedBy' : 'mappedBy'} "${otherName}", but ${target.uid} has no relation "${otherName}" back to ${ownerUid} with ${mirror}: "${attribute.name}"; add it or remove the option`,
    );
    return;
  }
  if (attribute.relation === 'oneToMany' && attribute.inversedBy !== undefined) {
    report(
      attribute.name,
      'is a bidirectional oneToMany that uses inversedBy; the "one" side must use mappedBy (the manyToOne side owns the relation)',
    );
  }
  if (attribute.relation === 'manyToOne' && attribute.mappedBy !== undefined) {
    report(
      attribute.name,
      'is a bidirectional manyToOne that uses mappedBy; the "many" side must own the relation with inversedBy',
    );
  }
}

function checkUniqueNames(schema: Schema, problems: string[]): void {
  const tables = new Map<string, string>();
  const routes = new Map<string, string>();
  for (const model of [...schema.contentTypes.values(), ...schema.components.values()]) {
    const previous = tables.get(model.table);
    if (previous)
      problems.push(
        `${model.file}: collectionName "${model.table}" is already used by ${previous}; choose another table name`,
      );
    else tables.set(model.table, model.file);
  }
  for (const type of schema.contentTypes.values()) {
    if (type.origin !== 'api') continue;
    for (const name of [type.singularName, type.pluralName]) {
      const previous = routes.get(name);
      if (previous)
        problems.push(
          `${type.file}: API name "${name}" is already used by ${previous}; rename info.singularName/pluralName`,
        );
      else routes.set(name, type.file);
    }
  }
}
