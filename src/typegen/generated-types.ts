import type { StrapiModel } from '../admin/content-manager/cm-strapi-models.js';
import { attributeType } from './attribute-type.js';
import { type Doc, hardline, indent, join, printDoc } from './doc.js';
import { stringLiteral } from './literal-types.js';
import { interfaceName, schemaInterface } from './schema-interface.js';

/** The two files `strapi ts:generate-types` writes under `types/generated/`, by file name. */
export interface GeneratedTypes {
  readonly 'contentTypes.d.ts': string;
  readonly 'components.d.ts': string;
}

/**
 * Strapi's generated type files for the registered models (content types, Strapi's built-in ones
 * included, and components): an import of `Schema` and `Struct` from `@strapi/strapi`, one
 * interface per model sorted by uid, and the `Public` registry that maps each uid to its interface.
 */
export function generateTypes(models: Iterable<StrapiModel>): GeneratedTypes {
  const all = [...models];
  const contentTypes = all.filter((model) => model.modelType === 'contentType');
  const components = all.filter((model) => model.modelType === 'component');
  // Strapi's generator keeps the imports it has seen in one list for the whole run, so the
  // components file imports what the content types needed too.
  const imports = new Set<string>();
  const contentTypesFile = definitionsFile(contentTypes, 'ContentTypeSchemas', imports, 'content-types');
  const componentsFile = definitionsFile(components, 'ComponentSchemas', imports, 'components');
  return { 'contentTypes.d.ts': contentTypesFile, 'components.d.ts': componentsFile };
}

function definitionsFile(models: readonly StrapiModel[], registry: string, imports: Set<string>, noun: string): string {
  if (models.length === 0) return `/*\n * The app doesn't have any ${noun} yet.\n */\n`;
  const sorted = [...models].sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
  imports.add('Struct');
  // `Schema` once an attribute of a kind Strapi knows is written.
  if (sorted.some((model) => Object.values(model.attributes).some((a) => attributeType(a) !== null))) {
    imports.add('Schema');
  }
  const entries = sorted.map((model) => [stringLiteral(model.uid), ': ', interfaceName(model.uid), ';']);
  const doc: Doc = [
    `import type { ${[...imports].sort().join(', ')} } from '@strapi/strapi';`,
    hardline,
    hardline,
    join([hardline, hardline], sorted.map(schemaInterface)),
    hardline,
    hardline,
    "declare module '@strapi/strapi' {",
    indent([
      hardline,
      'export namespace Public {',
      indent([hardline, `export interface ${registry} {`, indent([hardline, join(hardline, entries)]), hardline, '}']),
      hardline,
      '}',
    ]),
    hardline,
    '}',
    hardline,
  ];
  return printDoc(doc);
}
