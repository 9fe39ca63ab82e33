import { ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from '../schema/custom-fields.js';

/** `strapi.customFields`: the custom fields plugins and the project register, by uid. */
export interface CustomFieldsRegistry {
  /** `strapi.customFields.register(field | fields)`, checked as Strapi checks it. */
  register(fields: unknown): void;
  getAll(): Readonly<Record<string, unknown>>;
  get(uid: string): unknown;
  /** The type each registered field stores its values as, by uid. */
  types(): ReadonlyMap<string, CustomFieldType>;
}

const NAME = /^(?![0-9])[a-zA-Z0-9$_-]+$/;

/**
 * Strapi 5's custom-field registry: a field `{ name, plugin?, type, inputSize? }` is stored as
 * `plugin::<plugin>.<name>` when `plugin` names a loaded plugin, else `global::<name>`; its `type`
 * must be one of the types a custom field may store, its `name` an object key, and a uid may be
 * registered once. Each refusal is an error with Strapi's message.
 */
export function createCustomFieldsRegistry(pluginExists: (name: string) => boolean): CustomFieldsRegistry {
  const fields: Record<string, Record<string, unknown>> = {};
  return {
    register(given) {
      for (const field of Array.isArray(given) ? given : [given]) {
        if (!isRecord(field) || !('name' in field) || !('type' in field))
          throw new ValidationError(`Custom fields require a 'name' and 'type' key`);
        const { name, plugin, type } = field;
        if (!CUSTOM_FIELD_TYPES.includes(type as CustomFieldType))
          throw new ValidationError(
            `Custom field type: '${String(type)}' is not a valid Strapi type or it can't be used with a Custom Field`,
          );
        if (typeof name !== 'string' || !NAME.test(name))
          throw new ValidationError(`Custom field name: '${String(name)}' is not a valid object key`);
        const uid =
          typeof plugin === 'string' && pluginExists(plugin) ? `plugin::${plugin}.${name}` : `global::${name}`;
        if (fields[uid]) throw new ValidationError(`Custom field: '${uid}' has already been registered`);
        fields[uid] = field;
      }
    },
    getAll: () => fields,
    get(uid) {
      const field = fields[uid];
      if (!field) throw new ValidationError(`Could not find Custom Field: ${uid}`);
      return field;
    },
    types: () => new Map(Object.entries(fields).map(([uid, field]) => [uid, field.type as CustomFieldType])),
  };
}
