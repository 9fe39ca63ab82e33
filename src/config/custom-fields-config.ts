import { ProjectError } from '../core/errors.js';
import { CUSTOM_FIELD_TYPES, type CustomFieldType, type CustomFieldTypes } from '../schema/custom-fields.js';
import { isRecord } from '../core/is-record.js';

/** Strapi's custom-field uids: `plugin::<plugin>.<name>` or `global::<name>` (names as its registry checks them). */
const UID = /^(?:plugin::[^\s.:]+\.|global::)(?![0-9])[A-Za-z0-9$_-]+$/;

/**
 * `config/custom-fields` → uid → stored type, checked. The file declares the custom fields of
 * plugins Cairn does not run (a plugin whose server part runs registers its own in `register`):
 *
 *     module.exports = {
 *       'plugin::my-plugin.rating': { type: 'integer' },
 *       'global::seo-title': { type: 'string' },
 *     };
 *
 * `type` is what the plugin passes to `strapi.customFields.register`. A function export receives
 * `{ env }` like every config file.
 */
export function normalizeCustomFields(raw: unknown): CustomFieldTypes {
  const fields = new Map<string, CustomFieldType>();
  if (raw === undefined) return fields;
  if (!isRecord(raw)) {
    throw new ProjectError(`config/custom-fields: must export an object { '<custom field uid>': { type: '<type>' } }`);
  }
  for (const [uid, entry] of Object.entries(raw)) {
    if (!UID.test(uid)) {
      throw new ProjectError(
        `config/custom-fields: "${uid}" is not a custom field uid; use "plugin::<plugin>.<name>" or "global::<name>", as the schema's "customField" says`,
      );
    }
    const type = isRecord(entry) ? entry.type : undefined;
    if (!CUSTOM_FIELD_TYPES.includes(type as CustomFieldType)) {
      throw new ProjectError(
        `config/custom-fields: "${uid}" must be { type: '<type>' } with one of ${CUSTOM_FIELD_TYPES.join(', ')}; got ${JSON.stringify(entry)}`,
      );
    }
    fields.set(uid, type as CustomFieldType);
  }
  return fields;
}
