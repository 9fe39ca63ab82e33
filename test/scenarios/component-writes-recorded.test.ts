import { expect } from 'vitest';
import { insertFile } from '../support/files.js';
import {
  invalidBodyKey,
  mediaMissing,
  oneError,
  POP_ALL,
  refusedCreate,
  storedFile,
  typeError,
} from '../support/components.js';
import { notFoundDocument } from '../support/relations.js';
import { countRows, queryRows } from '../support/row-counts.js';
import { dbStep, scenario } from '../support/scenario.js';
import { authorEntry, DOC, ID, list, single, TS } from '../support/shapes.js';

// Component and dynamic-zone writes, step by step as recorded from Strapi 5.54
// (/tmp/dump/15-components-dz-write.txt; the upload step is replaced by insertFile), with the
// behaviour reference (§5, §7, §16).

/** Article a1 as answered: its title and the populated `fields`. */
const a1 = (fields: Record<string, unknown>, title = 'Components') =>
  single({ id: ID, documentId: '{{a1}}', title, ...fields });

scenario('component and dynamic-zone writes, as recorded from Strapi', [
  {
    name: 'seed-grace',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Grace Hopper' } },
    status: 201,
    equal: single({ id: ID, documentId: DOC, name: 'Grace Hopper' }),
    save: { grace: 'data.documentId' },
  },
  dbStep('seed a file (upload-img)', async ({ vars, server }) => {
    vars.imgId = await insertFile(server, 'kw.png');
  }),
  {
    name: 'create-with-components',
    method: 'POST',
    path: `/api/articles?fields[0]=title&${POP_ALL}`,
    body: {
      data: {
        title: 'Components',
        seo: {
          metaTitle: 'One',
          metaDescription: 'First',
          shareImage: '{{imgId}}',
          keywords: [{ word: 'a' }, { word: 'b' }],
        },
        blocks: [
          { __component: 'shared.quote', title: 'Q1', author: '{{grace}}' },
          { __component: 'shared.rich-text', body: 'R1' },
        ],
      },
    },
    status: 201,
    equal: {
      data: {
        id: ID,
        documentId: DOC,
        title: 'Components',
        seo: {
          id: ID,
          metaTitle: 'One',
          metaDescription: 'First',
          shareImage: storedFile('imgId', 'kw.png'),
          keywords: [
            { id: ID, word: 'a' },
            { id: ID, word: 'b' },
          ],
        },
        blocks: [
          {
            __component: 'shared.quote',
            id: ID,
            title: 'Q1',
            body: null,
            author: authorEntry('grace', 'Grace Hopper'),
          },
          { __component: 'shared.rich-text', id: ID, body: 'R1' },
        ],
      },
      meta: {},
    },
    save: {
      a1: 'data.documentId',
      seoId: 'data.seo.id',
      kwA: 'data.seo.keywords.0.id',
      kwB: 'data.seo.keywords.1.id',
      q1: 'data.blocks.0.id',
    },
  },
  {
    name: 'get-draft-components (the draft has its own component rows)',
    path: '/api/articles/{{a1}}?status=draft&fields[0]=title&populate[seo][populate][0]=keywords&populate[blocks]=true',
    status: 200,
    equal: a1({
      seo: {
        id: ID,
        metaTitle: 'One',
        metaDescription: 'First',
        keywords: [
          { id: ID, word: 'a' },
          { id: ID, word: 'b' },
        ],
      },
      blocks: [
        { __component: 'shared.quote', id: ID, title: 'Q1', body: null },
        { __component: 'shared.rich-text', id: ID, body: 'R1' },
      ],
    }),
    check: ({ json }, { vars }) => {
      expect(json.data.seo.id).not.toBe(vars.seoId);
      expect([json.data.seo.keywords[0].id, json.data.seo.keywords[1].id]).not.toContain(vars.kwA);
      expect(json.data.blocks[0].id).not.toBe(vars.q1);
    },
  },
  {
    name: 'update-component-without-id-replaces',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate]=*',
    body: { data: { seo: { metaTitle: 'Two' } } },
    status: 200,
    equal: a1({ seo: { id: ID, keywords: [], metaDescription: null, metaTitle: 'Two', shareImage: null } }),
  },
  {
    name: 'seed-again',
    method: 'PUT',
    path: '/api/articles/{{a1}}?status=draft&fields[0]=title&populate[seo][populate][0]=keywords',
    body: {
      data: {
        seo: { metaTitle: 'Three', metaDescription: 'Desc', keywords: [{ word: 'x' }, { word: 'y' }, { word: 'z' }] },
      },
    },
    status: 200,
    equal: a1({
      seo: {
        id: ID,
        metaTitle: 'Three',
        metaDescription: 'Desc',
        keywords: [
          { id: ID, word: 'x' },
          { id: ID, word: 'y' },
          { id: ID, word: 'z' },
        ],
      },
    }),
    save: {
      seo2: 'data.seo.id',
      kx: 'data.seo.keywords.0.id',
      ky: 'data.seo.keywords.1.id',
      kz: 'data.seo.keywords.2.id',
    },
  },
  {
    name: 'update-with-id-keeps-other-fields (ids kept, unlisted item deleted, new item created)',
    method: 'PUT',
    path: '/api/articles/{{a1}}?status=draft&fields[0]=title&populate[seo][populate][0]=keywords',
    body: {
      data: {
        seo: {
          id: '{{seo2}}',
          metaTitle: 'Three updated',
          keywords: [{ id: '{{kz}}', word: 'z' }, { id: '{{kx}}', word: 'x2' }, { word: 'new' }],
        },
      },
    },
    status: 200,
    equal: a1({
      seo: {
        id: '{{seo2}}',
        metaTitle: 'Three updated',
        metaDescription: 'Desc',
        keywords: [
          { id: '{{kz}}', word: 'z' },
          { id: '{{kx}}', word: 'x2' },
          { id: ID, word: 'new' },
        ],
      },
    }),
    check: ({ json }, { vars }) => expect([vars.kx, vars.ky, vars.kz]).not.toContain(json.data.seo.keywords[2].id),
  },
  dbStep('the unlisted keyword row is gone, the kept one was updated in place', async ({ vars, server }) => {
    expect(await countRows(server, 'components_shared_keywords', `id = ${Number(vars.ky)}`)).toBe(0);
    expect(
      await queryRows(server, `select word from components_shared_keywords where id = ${Number(vars.kx)}`),
    ).toEqual([{ word: 'x2' }]);
    expect(await countRows(server, 'components_shared_seos_cmps', `entity_id = ${Number(vars.seo2)}`)).toBe(3);
  }),
  {
    name: 'publish-components',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][0]=keywords',
    body: { data: {} },
    status: 200,
    equal: a1({
      seo: {
        id: ID,
        metaTitle: 'Three updated',
        metaDescription: 'Desc',
        keywords: [
          { id: ID, word: 'z' },
          { id: ID, word: 'x2' },
          { id: ID, word: 'new' },
        ],
      },
    }),
  },
  {
    name: 'repeatable-empty',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][0]=keywords',
    body: { data: { seo: { metaTitle: 'No keywords', keywords: [] } } },
    status: 200,
    equal: a1({ seo: { id: ID, metaTitle: 'No keywords', metaDescription: null, keywords: [] } }),
  },
  {
    name: 'component-null',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate=seo',
    body: { data: { seo: null } },
    status: 200,
    equal: a1({ seo: null }),
  },
  {
    name: 'dz-replace-and-reorder',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks][populate]=*',
    body: {
      data: {
        blocks: [
          { __component: 'shared.rich-text', body: 'R2' },
          { __component: 'shared.media-block', file: '{{imgId}}' },
          { __component: 'shared.quote', title: 'Q2', body: 'second' },
        ],
      },
    },
    status: 200,
    equal: a1({
      blocks: [
        { __component: 'shared.rich-text', id: ID, body: 'R2' },
        { __component: 'shared.media-block', id: ID, file: storedFile('imgId', 'kw.png') },
        { __component: 'shared.quote', id: ID, title: 'Q2', body: 'second', author: null },
      ],
    }),
  },
  {
    name: 'dz-absent-untouched',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks]=true',
    body: { data: { title: 'Components renamed' } },
    status: 200,
    equal: a1(
      {
        blocks: [
          { __component: 'shared.rich-text', id: ID, body: 'R2' },
          { __component: 'shared.media-block', id: ID },
          { __component: 'shared.quote', id: ID, title: 'Q2', body: 'second' },
        ],
      },
      'Components renamed',
    ),
  },
  {
    name: 'dz-empty',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks]=true',
    body: { data: { blocks: [] } },
    status: 200,
    equal: a1({ blocks: [] }, 'Components renamed'),
  },
  {
    name: 'global-component-create',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate]=*',
    body: {
      data: { siteName: 'S', defaultSeo: { metaTitle: 'G', keywords: [{ word: 'k1' }], shareImage: '{{imgId}}' } },
    },
    status: 200,
    equal: {
      data: {
        id: ID,
        documentId: DOC,
        siteName: 'S',
        createdAt: TS,
        updatedAt: TS,
        publishedAt: TS,
        defaultSeo: {
          id: ID,
          metaTitle: 'G',
          metaDescription: null,
          keywords: [{ id: ID, word: 'k1' }],
          shareImage: storedFile('imgId', 'kw.png'),
        },
      },
      meta: {},
    },
  },
  refusedCreate(
    'single-component-given-array-400',
    { title: 'bad', seo: [{ metaTitle: 'x' }] },
    typeError(['seo'], [{ metaTitle: 'x' }]),
  ),
  refusedCreate(
    'repeatable-given-object-400',
    { title: 'bad', seo: { metaTitle: 'x', keywords: { word: 'solo' } } },
    typeError(['seo', 'keywords'], { word: 'solo' }),
  ),
  refusedCreate(
    'dz-given-object-400',
    { title: 'bad', blocks: { __component: 'shared.quote', title: 'x' } },
    typeError(['blocks'], { __component: 'shared.quote', title: 'x' }),
  ),
  refusedCreate(
    'dz-item-unknown-field-400',
    { title: 'bad', blocks: [{ __component: 'shared.quote', title: 'x', nope: 1 }] },
    invalidBodyKey('nope', 'blocks'),
  ),
  refusedCreate(
    'dz-item-bad-relation-400',
    { title: 'bad', blocks: [{ __component: 'shared.quote', author: 'nosuchauthor000000000000' }] },
    notFoundDocument('nosuchauthor000000000000'),
  ),
  {
    name: 'component-bad-media-id',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'bad media', seo: { metaTitle: 'm', shareImage: 999999 } } },
    status: 400,
    match: mediaMissing,
  },
  refusedCreate(
    'nested-component-too-long',
    { title: 'nested', seo: { metaTitle: 'm', keywords: [{ word: 123 }] } },
    oneError(
      ['seo', 'keywords', '0', 'word'],
      'seo.keywords[0].word must be a `string` type, but the final value was: `123`.',
      123,
    ),
  ),
  {
    name: 'final-state',
    path: `/api/articles?status=draft&fields[0]=title&${POP_ALL}`,
    status: 200,
    equal: list([{ id: ID, documentId: '{{a1}}', title: 'Components renamed', seo: null, blocks: [] }]),
  },
]);
