import slugify from '@sindresorhus/slugify';
import { snakeCase } from '../schema/naming.js';
import type { Component, ContentType, Model, Schema } from '../schema/types.js';
import { exposedModels } from './graphql-exposure.js';
import type { RootOperation } from './graphql-resolvers.js';

/**
 * The names @strapi/plugin-graphql 5.54 gives types and root fields (its `utils/naming`), built
 * from lodash's `upperFirst(camelCase(…))`:
 *
 * | what                        | example                                                  |
 * | --------------------------- | -------------------------------------------------------- |
 * | content type                | `Article`, `UploadFile`, `UsersPermissionsUser`, `I18NLocale`, `ReviewWorkflowsWorkflowStage` |
 * | component                   | `ComponentSharedSeo` (`component_<category>.<name>`)     |
 * | enumeration                 | `ENUM_ARTICLE_CATEGORY`, values slugified: `in progress` → `in_progress` |
 * | dynamic zone, its input     | `ArticleBlocksDynamicZone`, `ArticleBlocksDynamicZoneInput` |
 * | filters, input              | `ArticleFiltersInput`, `ArticleInput`, `StringFilterInput` |
 * | collections                 | `ArticleEntityResponseCollection`, `ArticleRelationResponseCollection` |
 * | root fields                 | `articles`, `articles_connection`, `article`, `createArticle`, `i18NLocales` |
 */

/**
 * lodash's `upperFirst(camelCase(text))` for identifiers: words split at separators, case changes
 * and digits, each capitalized. `users-permissions` → `UsersPermissions`, `i18n` → `I18N`,
 * `component_shared.rich-text` → `ComponentSharedRichText`.
 */
export function pascalCase(text: string): string {
  return snakeCase(text)
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** The plugin a content type comes from (`plugin::users-permissions.user` → `users-permissions`), or ''. */
function pluginOf(type: ContentType): string {
  return /^plugin::([^.]+)\./.exec(type.uid)?.[1] ?? '';
}

/** `Article`, `UsersPermissionsUser`: the plugin's name, then the singular (or plural) name. */
export function contentTypeName(type: ContentType, plurality: 'singular' | 'plural' = 'singular'): string {
  return pascalCase(pluginOf(type)) + pascalCase(plurality === 'singular' ? type.singularName : type.pluralName);
}

/** `shared.seo` → `ComponentSharedSeo` (Strapi's component `globalId`). */
export function componentTypeName(component: Component): string {
  return pascalCase(`component_${component.uid}`);
}

/** The object type name of a content type or component. */
export function modelTypeName(model: Model): string {
  return model.modelType === 'component' ? componentTypeName(model) : contentTypeName(model);
}

/** `ENUM_ARTICLE_CATEGORY`, `ENUM_COMPONENTSHAREDSEO_KIND`. */
export function enumTypeName(model: Model, attribute: string): string {
  return `ENUM_${modelTypeName(model).toUpperCase()}_${attribute.toUpperCase()}`;
}

/**
 * The GraphQL name of an enumeration value (`@strapi/utils` `toRegressedEnumValue`): slugified
 * with `_`, case kept. `in progress` → `in_progress`, `A&B` → `A_and_B`, `über` → `ueber`.
 */
export function enumValueName(value: string): string {
  return slugify(value, { decamelize: false, lowercase: false, separator: '_' });
}

/** `ArticleBlocksDynamicZone`. */
export function dynamicZoneTypeName(owner: Model, attribute: string): string {
  return `${modelTypeName(owner)}${pascalCase(attribute)}DynamicZone`;
}

/** `ArticleBlocksDynamicZoneInput`: the scalar a dynamic zone's entries are written with. */
export function dynamicZoneInputName(owner: Model, attribute: string): string {
  return `${dynamicZoneTypeName(owner, attribute)}Input`;
}

/** `ArticleFiltersInput`, `ComponentSharedSeoFiltersInput`. */
export function filtersInputName(model: Model): string {
  return `${modelTypeName(model)}FiltersInput`;
}

/** `ArticleInput`, `ComponentSharedSeoInput`. */
export function inputTypeName(model: Model): string {
  return `${modelTypeName(model)}Input`;
}

/** `StringFilterInput`: the operators on one scalar. */
export function scalarFilterInputName(scalar: string): string {
  return `${scalar}FilterInput`;
}

/** `ArticleEntityResponseCollection`: what `articles_connection` returns (nodes and pageInfo). */
export function entityResponseCollectionName(type: ContentType): string {
  return `${contentTypeName(type)}EntityResponseCollection`;
}

/** `ArticleRelationResponseCollection`: what a to-many relation's `_connection` field returns. */
export function relationResponseCollectionName(type: ContentType): string {
  return `${contentTypeName(type)}RelationResponseCollection`;
}

/**
 * The name of a root field: `articles`, `articles_connection`, `article`, `global`,
 * `createArticle`, `updateGlobal`, `deleteArticle`; a plugin's field is named by its kind (`me`).
 */
export function rootFieldName(operation: RootOperation): string {
  if (!('type' in operation)) return operation.kind;
  const { type } = operation;
  switch (operation.kind) {
    case 'findMany':
      return lowerFirst(contentTypeName(type, 'plural'));
    case 'connection':
      return `${lowerFirst(contentTypeName(type, 'plural'))}_connection`;
    case 'findOne':
    case 'findSingle':
      return lowerFirst(contentTypeName(type));
    case 'create':
    case 'update':
    case 'delete':
      return `${operation.kind}${contentTypeName(type)}`;
  }
}

/**
 * Every object type made from a model, by name, for the schema generated from `schema`:
 * `Article` → api::article.article, `ComponentSharedQuote` → shared.quote. Resolvers use it to
 * plan fragments (`... on ComponentSharedQuote`) and to read `__typename`.
 */
export function graphqlTypeModels(schema: Schema): ReadonlyMap<string, Model> {
  return new Map(exposedModels(schema).map((model) => [modelTypeName(model), model]));
}
