import type { ScalarType } from './types.js';

/**
 * The types a custom field may store its values as: the ones Strapi's custom-field registry
 * accepts in `strapi.customFields.register({ name, plugin, type })`.
 */
export const CUSTOM_FIELD_TYPES = [
  'biginteger',
  'boolean',
  'date',
  'datetime',
  'decimal',
  'email',
  'enumeration',
  'float',
  'integer',
  'json',
  'password',
  'richtext',
  'string',
  'text',
  'time',
  'uid',
] as const satisfies readonly ScalarType[];

/** A type a custom field may store its values as. */
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** Custom-field uid (`plugin::color-picker.color`, `global::rating`) → the type its values are stored as. */
export type CustomFieldTypes = ReadonlyMap<string, CustomFieldType>;

/**
 * Custom fields of widely installed plugins, with the type each plugin's server registers. Strapi
 * builds the uid from the plugin's `strapi.name` and the field's `name`; every row was read in the
 * plugin's own source (the file named in `source`, a `register` call).
 */
const KNOWN_CUSTOM_FIELDS: readonly {
  readonly uid: string;
  readonly type: CustomFieldType;
  readonly source: string;
}[] = [
  {
    uid: 'plugin::color-picker.color',
    type: 'string',
    source: '@strapi/plugin-color-picker (strapi/strapi packages/plugins/color-picker server register)',
  },
  {
    uid: 'plugin::ckeditor.CKEditor',
    type: 'richtext',
    source: '@ckeditor/strapi-plugin-ckeditor, the official CKEditor 5 plugin (server/register.js)',
  },
  {
    uid: 'plugin::ckeditor5.CKEditor',
    type: 'richtext',
    source:
      '@_sh/strapi-plugin-ckeditor, the community CKEditor 5 plugin (nshenderov/strapi-plugin-ckeditor server/src/register.ts)',
  },
  {
    uid: 'plugin::multi-select.multi-select',
    type: 'json',
    source: 'strapi-plugin-multi-select (Zaydme/strapi-plugin-multi-select server/src/register.ts)',
  },
  {
    uid: 'plugin::tiptap-editor.RichText',
    type: 'text',
    source: '@notum-cz/strapi-plugin-tiptap-editor (server/src/fields/richTextField.ts)',
  },
  { uid: 'plugin::tinymce.tinymce', type: 'string', source: '@sklinet/strapi-plugin-tinymce (server/src/register.ts)' },
  {
    uid: 'plugin::google-maps.location-picker',
    type: 'json',
    source: '@amicaldo/strapi-google-maps (server/src/register.ts)',
  },
  {
    uid: 'plugin::location-field.location',
    type: 'json',
    source: 'strapi-location-field-plugin (raykeating, server/register.js)',
  },
  {
    uid: 'plugin::strapi-plugin-iconhub.iconhub',
    type: 'json',
    source: 'strapi-plugin-iconhub (Arshiash80, server/src/register.ts)',
  },
  {
    uid: 'plugin::strapi-advanced-uuid.uuid',
    type: 'uid',
    source: 'strapi-advanced-uuid (Dulajdeshan, server/src/register.ts)',
  },
];

/** The known custom fields overlaid by the project's own declarations (`config/custom-fields`), which win. */
export function customFieldTypes(declared: CustomFieldTypes = new Map()): CustomFieldTypes {
  return new Map([...KNOWN_CUSTOM_FIELDS.map((field) => [field.uid, field.type] as const), ...declared]);
}
