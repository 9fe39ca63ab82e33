import { GraphQLEnumType, type GraphQLEnumValueConfigMap } from 'graphql';
import { ProjectError } from '../core/errors.js';
import type { Model, ScalarAttribute } from '../schema/types.js';
import { enumTypeName, enumValueName } from './graphql-naming.js';

/** What GraphQL accepts as an enum value's name. */
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const RESERVED_VALUE_NAMES: ReadonlySet<string> = new Set(['true', 'false', 'null']);

/**
 * `ENUM_ARTICLE_CATEGORY` for an enumeration attribute: one value per entry, named by
 * `enumValueName` (`in progress` → `in_progress`), whose internal value is the entry itself, so
 * resolvers read and write what the REST API does. Entries whose names collide keep the last one,
 * as the plugin's member map does. An entry that gives no valid name (`1st`, `true`) is a
 * ProjectError naming the model's file: Strapi's Content-Type Builder refuses such values.
 */
export function buildEnumType(model: Model, attribute: ScalarAttribute): GraphQLEnumType {
  const values: GraphQLEnumValueConfigMap = {};
  for (const value of attribute.enum ?? []) {
    const name = enumValueName(value);
    if (!GRAPHQL_NAME.test(name) || RESERVED_VALUE_NAMES.has(name)) {
      throw new ProjectError(
        `${model.file}: attribute "${attribute.name}": the enumeration value ${JSON.stringify(value)} has no GraphQL name ` +
          `(it becomes ${JSON.stringify(name)}); GraphQL needs a letter or "_" first, then letters, digits or "_" — rename the value`,
      );
    }
    values[name] = { value };
  }
  return new GraphQLEnumType({ name: enumTypeName(model, attribute.name), values });
}
