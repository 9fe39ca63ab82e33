import { expect } from 'vitest';
import { decodeValue } from '../../src/shape/decode-value.js';
import { CUSTOM_FIELDS_FILES } from '../support/custom-fields-project.js';
import { dbStep, errorBody, scenario } from '../support/scenario.js';

const fieldError = (path: string[], message: string, value?: unknown) =>
  errorBody(400, 'ValidationError', message, {
    errors: [{ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }],
  });

const values = {
  name: 'Sunset',
  color: '#FF7F50',
  body: '<p>CKEditor <strong>HTML</strong></p>',
  notes: '<h2>Community CKEditor</h2>',
  moods: ['warm', 'bold'],
  story: '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Tiptap"}]}]}',
  place: { lat: 48.8566, lng: 2.3522, address: 'Paris' },
  icon: { iconName: 'mdi:palette', iconData: '<svg/>', width: 24 },
  code: 'sunset-0001',
  stars: 4,
};
const palette = [
  { label: 'warm', primary: '#FFAA00', moods: ['warm'] },
  { label: 'none', primary: null, moods: [] },
];

scenario(
  'custom fields are stored, validated and returned like the type their plugin registers',
  [
    {
      name: 'create with every well-known custom field and a component holding two more',
      method: 'POST',
      path: '/api/swatches?populate=palette',
      auth: 'full',
      body: { data: { ...values, palette } },
      status: 201,
      match: { data: { ...values, palette } },
      save: { s1: 'data.documentId' },
    },
    {
      name: 'read back identically: multi-select arrays and location objects round-trip as JSON',
      path: '/api/swatches/{{s1}}?populate=palette',
      auth: 'full',
      status: 200,
      match: { data: { ...values, palette } },
      check: ({ json }) => {
        expect(json.data.moods).toEqual(['warm', 'bold']);
        expect(json.data.palette[1].moods).toEqual([]);
        expect(typeof json.data.story).toBe('string');
      },
    },
    {
      name: 'filters apply to the stored value (string custom field)',
      path: '/api/swatches?filters[color][$eqi]=%23ff7f50&fields[0]=name',
      auth: 'full',
      status: 200,
      match: { data: [{ name: 'Sunset' }], meta: { pagination: { total: 1 } } },
    },
    {
      name: 'update replaces the JSON value and clears a text one',
      method: 'PUT',
      path: '/api/swatches/{{s1}}',
      auth: 'full',
      body: { data: { moods: ['calm'], story: null, stars: '5' } },
      status: 200,
      match: { data: { moods: ['calm'], story: null, stars: 5, color: '#FF7F50' } },
    },
    {
      name: 'an integer custom field is validated as an integer',
      method: 'POST',
      path: '/api/swatches',
      auth: 'full',
      body: { data: { name: 'Bad', stars: 2.5 } },
      status: 400,
      equal: fieldError(['stars'], 'stars must be an integer', 2.5),
    },
    {
      name: 'its max applies',
      method: 'POST',
      path: '/api/swatches',
      auth: 'full',
      body: { data: { name: 'Bad', stars: 6 } },
      status: 400,
      equal: fieldError(['stars'], 'stars must be less than or equal to 5', 6),
    },
    {
      name: 'a string custom field keeps its regex',
      method: 'POST',
      path: '/api/swatches',
      auth: 'full',
      body: { data: { name: 'Bad', color: 'orange' } },
      status: 400,
      equal: fieldError(['color'], 'color must match the following: "/^#[0-9A-Fa-f]{6}$/"', 'orange'),
    },
    {
      name: 'a uid custom field is checked as a uid',
      method: 'POST',
      path: '/api/swatches',
      auth: 'full',
      body: { data: { name: 'Bad', code: 'has spaces!' } },
      status: 400,
      equal: fieldError(['code'], 'code must match the following: "/^[A-Za-z0-9-_.~]*$/"', 'has spaces!'),
    },
    dbStep('the columns hold the underlying types: an integer, JSON text', async ({ server }) => {
      const rows = await server.app.db.all({ sql: 'select stars, moods from swatches', params: [] });
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.stars).toBe(5);
        expect(decodeValue('json', row.moods)).toEqual(['calm']);
      }
    }),
  ],
  { files: CUSTOM_FIELDS_FILES },
);
