/*
 * Files added to a copy of examples/blog to make a project that uses custom fields: a `swatch`
 * collection type with the well-known plugins' fields (as Strapi's content-type builder writes them
 * into schema.json, `options` included), a repeatable `shared.palette` component with two more, and
 * a project-specific `global::stars` declared in config/custom-fields.js.
 */

const swatch = {
  kind: 'collectionType',
  collectionName: 'swatches',
  info: { singularName: 'swatch', pluralName: 'swatches', displayName: 'Swatch' },
  options: { draftAndPublish: true },
  pluginOptions: {},
  attributes: {
    name: { type: 'string', required: true },
    color: {
      type: 'customField',
      customField: 'plugin::color-picker.color',
      options: { format: 'hex' },
      regex: '^#[0-9A-Fa-f]{6}$',
    },
    body: { type: 'customField', customField: 'plugin::ckeditor.CKEditor', options: { preset: 'rich' } },
    notes: { type: 'customField', customField: 'plugin::ckeditor5.CKEditor', options: { preset: 'defaultHtml' } },
    moods: { type: 'customField', customField: 'plugin::multi-select.multi-select', options: ['calm', 'warm', 'bold'] },
    story: { type: 'customField', customField: 'plugin::tiptap-editor.RichText', options: { preset: 'full' } },
    place: { type: 'customField', customField: 'plugin::google-maps.location-picker' },
    icon: { type: 'customField', customField: 'plugin::strapi-plugin-iconhub.iconhub' },
    code: { type: 'customField', customField: 'plugin::strapi-advanced-uuid.uuid', options: { 'uuid-format': '' } },
    stars: { type: 'customField', customField: 'global::stars', max: 5 },
    palette: { type: 'component', repeatable: true, component: 'shared.palette' },
  },
};

const palette = {
  collectionName: 'components_shared_palettes',
  info: { displayName: 'Palette' },
  options: {},
  attributes: {
    label: { type: 'string' },
    primary: { type: 'customField', customField: 'plugin::color-picker.color', options: { format: 'hex' } },
    moods: { type: 'customField', customField: 'plugin::multi-select.multi-select', options: ['calm', 'warm', 'bold'] },
  },
};

/** The swatch schema file's path in the project. */
export const SWATCH_SCHEMA = 'src/api/swatch/content-types/swatch/schema.json';

/** Files (path → content) that turn a copy of examples/blog into the custom-fields project. */
export const CUSTOM_FIELDS_FILES: Readonly<Record<string, string>> = {
  [SWATCH_SCHEMA]: JSON.stringify(swatch, null, 2),
  'src/components/shared/palette.json': JSON.stringify(palette, null, 2),
  'config/custom-fields.js':
    "module.exports = ({ env }) => ({ 'global::stars': { type: env('STARS_TYPE', 'integer') } });\n",
};

/** The swatch schema with one more attribute (to add an unknown custom field, say). */
export function swatchSchemaWith(attributes: Record<string, unknown>): string {
  return JSON.stringify({ ...swatch, attributes: { ...swatch.attributes, ...attributes } }, null, 2);
}
