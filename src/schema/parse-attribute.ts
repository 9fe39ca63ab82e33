import { CUSTOM_FIELD_TYPES, type CustomFieldTypes } from './custom-fields.js';
import { identifier, snakeCase } from './naming.js';
import type { RawAttribute } from './raw-types.js';
import { SCALAR_TYPES, type Attribute, type RelationKind, type ScalarAttribute, type ScalarType } from './types.js';

const RELATION_KINDS: readonly RelationKind[] = [
  'oneToOne',
  'oneToMany',
  'manyToOne',
  'manyToMany',
  'morphOne',
  'morphMany',
  'morphToOne',
  'morphToMany',
];

/** Collects the problems found while reading one model; each names the attribute and the fix. */
export interface ProblemSink {
  (attribute: string | null, problem: string): void;
}

/** What parsing an attribute needs to know beyond the attribute itself. */
export interface AttributeContext {
  /** The owner is a localized (i18n) content type. */
  readonly localized: boolean;
  /** Custom-field uid → the type its values are stored as. */
  readonly customFields: CustomFieldTypes;
}

/**
 * Turns one raw attribute into the typed model, or reports why it cannot. Cross-model checks
 * (targets, inverse sides, components) happen later in build-schema.ts, once every model is known.
 * A custom field (`"type": "customField", "customField": "plugin::color-picker.color"`) becomes
 * an attribute of the type its plugin registers (`string` there), as Strapi converts it at start.
 */
export function parseAttribute(
  name: string,
  raw: RawAttribute,
  owner: AttributeContext,
  report: ProblemSink,
): Attribute | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    report(name, 'must be an object with a "type"');
    return null;
  }
  const type = raw.type === 'customField' ? customFieldType(name, raw, owner.customFields, report) : raw.type;
  if (type === null) return null;
  const common = {
    name,
    required: raw.required === true,
    private: raw.private === true,
    writable: raw.writable !== false,
    system: false,
    localized: owner.localized && isLocalized(raw, type),
  };

  if (type === 'relation') {
    const relation = raw.relation;
    if (typeof relation !== 'string' || !RELATION_KINDS.includes(relation as RelationKind)) {
      report(name, `has an unknown relation "${String(relation)}"; use one of ${RELATION_KINDS.join(', ')}`);
      return null;
    }
    const kind = relation as RelationKind;
    const needsTarget = kind !== 'morphToOne' && kind !== 'morphToMany';
    if (needsTarget && typeof raw.target !== 'string') {
      report(name, 'is a relation without a "target"; set it to the uid of the related content type');
      return null;
    }
    return {
      ...common,
      type: 'relation',
      relation: kind,
      ...(typeof raw.target === 'string' ? { target: raw.target } : {}),
      ...(typeof raw.inversedBy === 'string' ? { inversedBy: raw.inversedBy } : {}),
      ...(typeof raw.mappedBy === 'string' ? { mappedBy: raw.mappedBy } : {}),
      useJoinTable: raw.useJoinTable !== false,
    };
  }
  if (type === 'media') {
    return {
      ...common,
      type: 'media',
      multiple: raw.multiple === true,
      ...(Array.isArray(raw.allowedTypes) ? { allowedTypes: raw.allowedTypes.map(String) } : {}),
    };
  }
  if (type === 'component') {
    if (typeof raw.component !== 'string') {
      report(name, 'is a component attribute without "component"; set it to "<category>.<name>"');
      return null;
    }
    return {
      ...common,
      type: 'component',
      component: raw.component,
      repeatable: raw.repeatable === true,
      ...numberOption(raw, 'min', name, report),
      ...numberOption(raw, 'max', name, report),
    };
  }
  if (type === 'dynamiczone') {
    const components = raw.components;
    if (!Array.isArray(components) || components.length === 0 || !components.every((c) => typeof c === 'string')) {
      report(name, 'is a dynamic zone without "components"; list the component uids it accepts');
      return null;
    }
    return {
      ...common,
      type: 'dynamiczone',
      components: components as string[],
      ...numberOption(raw, 'min', name, report),
      ...numberOption(raw, 'max', name, report),
    };
  }
  if (typeof type === 'string' && SCALAR_TYPES.includes(type as ScalarType)) {
    return parseScalar(name, raw, type as ScalarType, common, report);
  }
  report(
    name,
    `has an unknown type "${String(type)}"; use one of ${[...SCALAR_TYPES, 'relation', 'media', 'component', 'dynamiczone', 'customField'].join(', ')}`,
  );
  return null;
}

/** The stored type of a custom field, or null once the problem is reported. */
function customFieldType(
  name: string,
  raw: RawAttribute,
  known: CustomFieldTypes,
  report: ProblemSink,
): ScalarType | null {
  const uid = raw.customField;
  if (typeof uid !== 'string' || uid === '') {
    report(
      name,
      'has type "customField" without a "customField" uid; set it to the uid its plugin registers (e.g. "plugin::color-picker.color")',
    );
    return null;
  }
  const type = known.get(uid);
  if (type === undefined) {
    report(
      name,
      `uses the custom field "${uid}", whose storage type Cairn does not know (no plugin it runs registered it); ` +
        `declare it in config/custom-fields.js as { '${uid}': { type: '<type>' } } with the type the plugin registers ` +
        `(strapi.customFields.register; one of ${CUSTOM_FIELD_TYPES.join(', ')})`,
    );
    return null;
  }
  return type;
}

function parseScalar(
  name: string,
  raw: RawAttribute,
  type: ScalarType,
  common: Omit<ScalarAttribute, 'type' | 'column' | 'unique' | 'searchable'>,
  report: ProblemSink,
): ScalarAttribute | null {
  const attribute: ScalarAttribute = {
    ...common,
    type,
    column: identifier(snakeCase(name)),
    unique: raw.unique === true,
    searchable: raw.searchable !== false,
    ...(raw.default !== undefined ? { default: raw.default } : {}),
    ...numberOption(raw, 'minLength', name, report),
    ...numberOption(raw, 'maxLength', name, report),
    ...boundOption(raw, 'min', name, report),
    ...boundOption(raw, 'max', name, report),
    ...(typeof raw.targetField === 'string' ? { targetField: raw.targetField } : {}),
  };
  if (raw.regex !== undefined) {
    if (typeof raw.regex !== 'string' || !isValidRegex(raw.regex)) {
      report(name, `has an invalid "regex" ${JSON.stringify(raw.regex)}; use a JavaScript regular expression source`);
      return null;
    }
    return withEnum({ ...attribute, regex: raw.regex }, raw, name, report);
  }
  return withEnum(attribute, raw, name, report);
}

function withEnum(
  attribute: ScalarAttribute,
  raw: RawAttribute,
  name: string,
  report: ProblemSink,
): ScalarAttribute | null {
  if (attribute.type !== 'enumeration') return attribute;
  const values = raw.enum;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
    report(name, 'is an enumeration without an "enum" array of strings; list the allowed values');
    return null;
  }
  return { ...attribute, enum: values as string[] };
}

function isLocalized(raw: RawAttribute, type: unknown): boolean {
  const pluginOptions = raw.pluginOptions as { i18n?: { localized?: unknown } } | undefined;
  if (pluginOptions?.i18n?.localized === true) return true;
  // Strapi treats relations and uids as localized whatever their options say.
  return type === 'relation' || type === 'uid';
}

function numberOption(raw: RawAttribute, key: string, name: string, report: ProblemSink): Record<string, number> {
  const value = raw[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    report(name, `has a non-numeric "${key}" ${JSON.stringify(value)}; use a number`);
    return {};
  }
  return { [key]: value };
}

/** min/max: numbers, or integer strings for bigintegers. */
function boundOption(
  raw: RawAttribute,
  key: 'min' | 'max',
  name: string,
  report: ProblemSink,
): Record<string, number | string> {
  const value = raw[key];
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return { [key]: value };
  return numberOption(raw, key, name, report);
}

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
