import type { StrapiAttribute } from '../admin/content-manager/cm-strapi-models.js';
import { type Doc, group, indent, join, line, softline, ifBreak } from './doc.js';
import { literalType, stringLiteral, tupleType } from './literal-types.js';

/** Strapi's `Schema.Attribute.*` type of each attribute kind without type arguments. */
const BASE_TYPES: Readonly<Record<string, string>> = {
  string: 'String',
  text: 'Text',
  richtext: 'RichText',
  password: 'Password',
  email: 'Email',
  date: 'Date',
  time: 'Time',
  datetime: 'DateTime',
  timestamp: 'Timestamp',
  integer: 'Integer',
  biginteger: 'BigInteger',
  float: 'Float',
  decimal: 'Decimal',
  uid: 'UID',
  enumeration: 'Enumeration',
  boolean: 'Boolean',
  json: 'JSON',
  blocks: 'Blocks',
  media: 'Media',
  relation: 'Relation',
  component: 'Component',
  dynamiczone: 'DynamicZone',
};

/** A type argument, and whether Prettier keeps a lone one hugged (`<{`, `<undefined>`). */
interface TypeArgument {
  readonly doc: Doc;
  readonly hug: boolean;
}

const plain = (doc: Doc): TypeArgument => ({ doc, hug: false });
const object = (value: unknown): TypeArgument => ({ doc: literalType(value), hug: true });
/** A keyword (`undefined`) or a string, number or boolean literal: kept hugged when alone. */
const keyword = (name: string): TypeArgument => ({ doc: name, hug: true });

/** `Schema.Attribute.<name><args>`, the arguments broken one a line when they do not fit. */
function typeReference(name: string, args: readonly TypeArgument[] = []): Doc {
  const reference = `Schema.Attribute.${name}`;
  if (args.length === 0) return reference;
  if (args.length === 1 && args[0]!.hug) return [reference, '<', args[0]!.doc, '>'];
  const docs = args.map((arg) => arg.doc);
  return group([reference, '<', indent([softline, join([',', line], docs)]), softline, '>']);
}

/** A union of string literal types (`'images' | 'files'`), broken one a line when it does not fit. */
function unionType(values: readonly string[]): Doc {
  const literals = values.map(stringLiteral);
  if (literals.length === 1) return literals[0]!;
  return group([ifBreak('| '), join([line, '| '], literals)]);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The type arguments of an attribute's base type, by kind (none for scalar kinds). */
function baseArguments(attribute: StrapiAttribute): TypeArgument[] {
  switch (attribute.type) {
    case 'uid': {
      const { targetField, options } = attribute;
      if (targetField === undefined && options === undefined) return [];
      const target = keyword(typeof targetField === 'string' ? stringLiteral(targetField) : 'undefined');
      return isObject(options) ? [target, object(options)] : [target];
    }
    case 'enumeration':
      return [plain(literalType(attribute.enum))];
    case 'media': {
      const { allowedTypes, multiple } = attribute;
      const types = Array.isArray(allowedTypes) ? plain(unionType(allowedTypes.map(String))) : keyword('undefined');
      return [...(allowedTypes || multiple ? [types] : []), ...(multiple ? [plain('true')] : [])];
    }
    case 'relation': {
      const relation = String(attribute.relation);
      const kind = keyword(stringLiteral(relation));
      return relation.toLowerCase().includes('morph')
        ? [kind]
        : [kind, keyword(stringLiteral(String(attribute.target)))];
    }
    case 'component':
      return [plain(stringLiteral(String(attribute.component))), plain(attribute.repeatable ? 'true' : 'false')];
    case 'dynamiczone': {
      const components = Array.isArray(attribute.components) ? attribute.components.map(String) : [];
      return [plain(tupleType(components.map(stringLiteral)))];
    }
    default:
      return [];
  }
}

const isNil = (value: unknown): boolean => value === undefined || value === null;

/** The modifiers Strapi intersects with the base type, in its order. */
function modifiers(attribute: StrapiAttribute): Doc[] {
  const out: Doc[] = [];
  if (attribute.required) out.push(typeReference('Required'));
  if (attribute.private) out.push(typeReference('Private'));
  if (attribute.unique) out.push(typeReference('Unique'));
  if (attribute.configurable) out.push(typeReference('Configurable'));
  if (attribute.customField) {
    const args = [plain(stringLiteral(String(attribute.customField)))];
    if (attribute.options) args.push(plain(literalType(attribute.options)));
    out.push(typeReference('CustomField', args));
  }
  if (isObject(attribute.pluginOptions) && Object.keys(attribute.pluginOptions).length > 0) {
    out.push(typeReference('SetPluginOptions', [object(attribute.pluginOptions)]));
  }
  if (!isNil(attribute.min) || !isNil(attribute.max)) {
    const bounds = pick(attribute, ['min', 'max']);
    const kinds = [typeof attribute.min, typeof attribute.max];
    const kind = kinds.includes('string') ? 'string' : kinds.includes('number') ? 'number' : null;
    if (kind === null) throw new TypeError('min and max must be strings or numbers');
    out.push(typeReference('SetMinMax', [plain(literalType(bounds)), plain(kind)]));
  }
  if (!isNil(attribute.minLength) || !isNil(attribute.maxLength)) {
    out.push(typeReference('SetMinMaxLength', [object(pick(attribute, ['minLength', 'maxLength']))]));
  }
  if (!isNil(attribute.default) && typeof attribute.default !== 'function') {
    const value = attribute.default;
    out.push(typeReference('DefaultTo', [Array.isArray(value) ? plain(literalType(value)) : object(value)]));
  }
  return out;
}

/** The keys of `attribute` among `keys` that it has (lodash's `pick`: present, even when undefined). */
function pick(attribute: StrapiAttribute, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => key in attribute).map((key) => [key, attribute[key]]));
}

/**
 * An attribute's type as Strapi's generator writes it: the kind's `Schema.Attribute.*` type
 * intersected with its modifiers (`Required`, `Private`, `Unique`, `SetPluginOptions`, `SetMinMax`,
 * `SetMinMaxLength`, `DefaultTo`…). Null for a type Strapi does not know (it skips the attribute).
 */
export function attributeType(attribute: StrapiAttribute): Doc | null {
  const base = BASE_TYPES[attribute.type];
  if (base === undefined) return null;
  const types = [typeReference(base, baseArguments(attribute)), ...modifiers(attribute)];
  return group([types[0]!, ...types.slice(1).map((type) => indent([' &', line, type]))]);
}
