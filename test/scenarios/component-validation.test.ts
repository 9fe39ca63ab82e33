import { expect } from 'vitest';
import { invalidBodyKey, missingMetaTitle, oneError, refusedCreate, typeError } from '../support/components.js';
import { notFoundDocument } from '../support/relations.js';
import { expectCounts, saveCounts } from '../support/row-counts.js';
import { scenario } from '../support/scenario.js';
import { DOC, ID, single } from '../support/shapes.js';

// Validation of component and dynamic-zone payloads, with exact envelopes where recorded from
// Strapi 5.54 (/tmp/dump/15-components-dz-write.txt, 04-validation.txt) and the behaviour
// reference (§5, §7, §16).

scenario('component and dynamic-zone validation answers 400 with Strapi details', [
  {
    name: 'seed an article',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'Valid article', seo: { metaTitle: 'Valid', keywords: [{ word: 'ok' }] } } },
    status: 201,
    save: { a: 'data.documentId' },
  },
  saveCounts('count rows', 'before'),
  refusedCreate(
    'required component field missing (component-missing-required)',
    { title: 'bad component', seo: { metaDescription: 'no metaTitle' } },
    missingMetaTitle,
  ),
  refusedCreate(
    'required component field null',
    { title: 'bad component', seo: { metaTitle: null } },
    missingMetaTitle,
  ),
  refusedCreate(
    'unknown key in a component (component-unknown-key)',
    { title: 'bad key', seo: { metaTitle: 'ok', nope: true } },
    invalidBodyKey('nope', 'seo'),
  ),
  refusedCreate(
    'unknown key in a repeatable item (repeatable-component-item-invalid)',
    { title: 'bad keyword', seo: { metaTitle: 'ok', keywords: [{ word: 'fine' }, { word: 42, extra: 1 }] } },
    invalidBodyKey('extra', 'seo.keywords'),
  ),
  refusedCreate(
    'unknown key in a dynamic-zone item',
    {
      title: 'bad block',
      blocks: [
        { __component: 'shared.rich-text', body: 'x' },
        { __component: 'shared.quote', nope: 1 },
      ],
    },
    invalidBodyKey('nope', 'blocks'),
  ),
  refusedCreate(
    'nested type error in a repeatable item',
    { title: 'nested', seo: { metaTitle: 'm', keywords: [{ word: 123 }] } },
    oneError(
      ['seo', 'keywords', '0', 'word'],
      'seo.keywords[0].word must be a `string` type, but the final value was: `123`.',
      123,
    ),
  ),
  {
    name: 'nested type error on update',
    method: 'PUT',
    path: '/api/articles/{{a}}',
    body: { data: { seo: { metaTitle: 'm', keywords: [{ word: 'ok' }, { word: 123 }] } } },
    status: 400,
    equal: oneError(
      ['seo', 'keywords', '1', 'word'],
      'seo.keywords[1].word must be a `string` type, but the final value was: `123`.',
      123,
    ),
  },
  refusedCreate(
    'type error in a component field',
    { title: 'typed', seo: { metaTitle: 12345 } },
    oneError(['seo', 'metaTitle'], 'seo.metaTitle must be a `string` type, but the final value was: `12345`.', 12345),
  ),
  refusedCreate(
    'type error in a dynamic-zone item',
    { title: 'typed', blocks: [{ __component: 'shared.quote', title: 77 }] },
    oneError(['blocks', '0', 'title'], 'blocks[0].title must be a `string` type, but the final value was: `77`.', 77),
  ),
  refusedCreate(
    'single component given an array',
    { title: 'bad', seo: [{ metaTitle: 'x' }] },
    typeError(['seo'], [{ metaTitle: 'x' }]),
  ),
  refusedCreate(
    'repeatable component given an object',
    { title: 'bad', seo: { metaTitle: 'x', keywords: { word: 'solo' } } },
    typeError(['seo', 'keywords'], { word: 'solo' }),
  ),
  refusedCreate(
    'dynamic zone given an object',
    { title: 'bad', blocks: { __component: 'shared.quote', title: 'x' } },
    typeError(['blocks'], { __component: 'shared.quote', title: 'x' }),
  ),
  {
    name: 'dynamic-zone item without __component (dz-missing-component-key)',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'bad dz 2', blocks: [{ title: 'no type' }] } },
    status: 400,
    match: {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        details: {
          errors: expect.arrayContaining([
            {
              path: ['blocks', '0', '__component'],
              message: 'blocks[0].__component is a required field',
              name: 'ValidationError',
            },
          ]),
        },
      },
    },
  },
  {
    name: 'dynamic-zone item with an unknown __component (dz-unknown-component)',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'bad dz', blocks: [{ __component: 'shared.nope', x: 1 }] } },
    status: 400,
    match: {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        details: {
          errors: expect.arrayContaining([
            {
              path: ['blocks', '0', '__component'],
              value: 'shared.nope',
              name: 'ValidationError',
              message: expect.stringMatching(/^blocks\[0\]\.__component must be one of the following values: /),
            },
          ]),
        },
      },
    },
  },
  {
    name: 'several problems at once are all reported',
    method: 'POST',
    path: '/api/articles',
    body: {
      data: { title: 12345, seo: { metaTitle: 'ok', keywords: [{ word: 123 }, { word: 'fine' }, { word: 456 }] } },
    },
    status: 400,
    check: ({ json }) => {
      expect(json.error).toMatchObject({ status: 400, name: 'ValidationError', message: '3 errors occurred' });
      expect(json.error.details.errors).toHaveLength(3);
      expect(json.error.details.errors).toEqual(
        expect.arrayContaining([
          {
            path: ['title'],
            name: 'ValidationError',
            value: 12345,
            message: 'title must be a `string` type, but the final value was: `12345`.',
          },
          {
            path: ['seo', 'keywords', '0', 'word'],
            name: 'ValidationError',
            value: 123,
            message: 'seo.keywords[0].word must be a `string` type, but the final value was: `123`.',
          },
          {
            path: ['seo', 'keywords', '2', 'word'],
            name: 'ValidationError',
            value: 456,
            message: 'seo.keywords[2].word must be a `string` type, but the final value was: `456`.',
          },
        ]),
      );
    },
  },
  refusedCreate(
    'an unknown author in a dynamic-zone quote',
    { title: 'bad', blocks: [{ __component: 'shared.quote', author: 'nosuchauthor000000000000' }] },
    notFoundDocument('nosuchauthor000000000000'),
  ),
  expectCounts('failed writes left no component rows behind', 'before', {}),
  {
    name: 'the seeded article is unchanged',
    path: '/api/articles/{{a}}?fields[0]=title&populate[seo][populate][0]=keywords',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Valid article',
      seo: { id: ID, metaTitle: 'Valid', metaDescription: null, keywords: [{ id: ID, word: 'ok' }] },
    }),
  },
  {
    name: 'a draft may miss a required component field',
    method: 'POST',
    path: '/api/articles?status=draft&fields[0]=title&populate=seo',
    body: { data: { title: 'Draft seo', seo: { metaDescription: 'no title yet' } } },
    status: 201,
    equal: single({
      id: ID,
      documentId: DOC,
      title: 'Draft seo',
      seo: { id: ID, metaTitle: null, metaDescription: 'no title yet' },
    }),
    save: { d: 'data.documentId' },
  },
  {
    name: 'publishing that draft fails with the same error',
    method: 'PUT',
    path: '/api/articles/{{d}}',
    body: { data: {} },
    status: 400,
    equal: missingMetaTitle,
  },
  { name: 'the draft was not published', path: '/api/articles/{{d}}', status: 404 },
  {
    name: 'fixing the field publishes it',
    method: 'PUT',
    path: '/api/articles/{{d}}?fields[0]=title&populate=seo',
    body: { data: { seo: { metaTitle: 'Now titled' } } },
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{d}}',
      title: 'Draft seo',
      seo: { id: ID, metaTitle: 'Now titled', metaDescription: null },
    }),
  },
  {
    name: 'no partial document was left behind',
    path: '/api/articles?status=draft&fields[0]=title&sort=title',
    status: 200,
    check: ({ json }) =>
      expect(json.data.map((a: { title: string }) => a.title)).toEqual(['Draft seo', 'Valid article']),
  },
]);
