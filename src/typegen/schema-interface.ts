import type { StrapiModel } from '../admin/content-manager/cm-strapi-models.js';
import { attributeType } from './attribute-type.js';
import { type Doc, group, hardline, indent, join, line } from './doc.js';
import { literalType, objectType, sortedEntries } from './literal-types.js';

/** lodash's `words` on ASCII text: lower-case runs, capitalised words, upper-case runs, digits. */
const WORDS = /[A-Z]{2,}(?=[A-Z][a-z]+[0-9]*|\b)|[A-Z]?[a-z]+[0-9]*|[A-Z]|[0-9]+/g;

/**
 * The interface name Strapi's generator gives a model: its uid with the first `::` (or `:x`)
 * dropped, in PascalCase (`api::article.article` → `ApiArticleArticle`, `shared.seo` → `SharedSeo`).
 */
export function interfaceName(uid: string): string {
  const words = uid.replace(/:./, ' ').match(WORDS) ?? [];
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()).join('');
}

/** `Struct.CollectionTypeSchema`, `Struct.SingleTypeSchema` or `Struct.ComponentSchema`. */
function parentType(model: StrapiModel): string {
  const base = model.modelType === 'component' ? 'component' : (model.kind ?? 'collectionType');
  return `Struct.${base.charAt(0).toUpperCase()}${base.slice(1)}Schema`;
}

/** lodash's `isEmpty` for the schema fields Strapi writes: no value, '' or an object without keys. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return true;
}

/**
 * One model's interface as Strapi's generator writes it: `collectionName`, `info`, `options` and
 * `pluginOptions` as literal types (when not empty), then `attributes` sorted by name.
 */
export function schemaInterface(model: StrapiModel): Doc {
  const fields: Record<string, unknown> = {
    collectionName: model.collectionName,
    info: model.info,
    options: model.options,
    pluginOptions: model.pluginOptions,
  };
  const members: Doc[] = Object.entries(fields)
    .filter(([, value]) => !isEmpty(value))
    .map(([key, value]) => [key, ': ', literalType(value), ';']);
  const attributes: [string, Doc][] = [];
  for (const [name, attribute] of sortedEntries(model.attributes)) {
    const type = attributeType(attribute);
    if (type !== null) attributes.push([name, type]);
  }
  members.push(['attributes: ', objectType(attributes), ';']);
  return [
    'export interface ',
    group(indent([interfaceName(model.uid), line, `extends ${parentType(model)}`])),
    ' {',
    indent([hardline, join(hardline, members)]),
    hardline,
    '}',
  ];
}
