import { namedFile, storedFile } from '../support/components.js';
import { insertFile } from '../support/files.js';
import { countAll, expectCounts } from '../support/row-counts.js';
import { dbStep, scenario } from '../support/scenario.js';
import { authorEntry, DOC, ID, list, single } from '../support/shapes.js';

// Publishing copies components; a draft edit leaves the published ones alone; DELETE removes
// every component row of both versions (behaviour reference §5, §7, §16, and the publish steps of
// the recorded Strapi 5.54 session /tmp/dump/15-components-dz-write.txt).

const PUB_POP =
  'fields[0]=title&populate[seo][populate]=*&populate[blocks][populate]=*&populate[cover][fields][0]=name';
const PUBLISHED_V1 = single({
  id: ID,
  documentId: '{{p}}',
  title: 'Versioned',
  cover: namedFile('img', 'pub.png'),
  seo: {
    id: ID,
    metaTitle: 'Pub',
    metaDescription: null,
    shareImage: storedFile('img', 'pub.png'),
    keywords: [{ id: ID, word: 'p1' }],
  },
  blocks: [
    { __component: 'shared.quote', id: ID, title: 'PQ', body: null, author: authorEntry('grace', 'Grace Hopper') },
    { __component: 'shared.media-block', id: ID, file: storedFile('img', 'pub.png') },
  ],
});
const DRAFT_V2 = single({
  id: ID,
  documentId: '{{p}}',
  title: 'Versioned',
  cover: namedFile('img', 'pub.png'),
  seo: {
    id: ID,
    metaTitle: 'Draft',
    metaDescription: null,
    shareImage: null,
    keywords: [
      { id: ID, word: 'd1' },
      { id: ID, word: 'd2' },
    ],
  },
  blocks: [{ __component: 'shared.rich-text', id: ID, body: 'DR' }],
});

scenario('publishing copies components; a draft edit leaves the published components alone; DELETE removes all', [
  {
    name: 'seed an author',
    method: 'POST',
    path: '/api/authors',
    body: { data: { name: 'Grace Hopper' } },
    status: 201,
    save: { grace: 'data.documentId' },
  },
  dbStep('seed a file and count rows', async ({ vars, server }) => {
    vars.img = await insertFile(server, 'pub.png');
    vars.base = await countAll(server);
  }),
  {
    name: 'create and publish',
    method: 'POST',
    path: `/api/articles?${PUB_POP}`,
    body: {
      data: {
        title: 'Versioned',
        cover: '{{img}}',
        seo: { metaTitle: 'Pub', keywords: [{ word: 'p1' }], shareImage: '{{img}}' },
        blocks: [
          { __component: 'shared.quote', title: 'PQ', author: '{{grace}}' },
          { __component: 'shared.media-block', file: '{{img}}' },
        ],
      },
    },
    status: 201,
    equal: { ...PUBLISHED_V1, data: { ...PUBLISHED_V1.data, documentId: DOC } },
    save: { p: 'data.documentId' },
  },
  {
    name: 'edit the draft only',
    method: 'PUT',
    path: `/api/articles/{{p}}?status=draft&${PUB_POP}`,
    body: {
      data: {
        seo: { metaTitle: 'Draft', keywords: [{ word: 'd1' }, { word: 'd2' }] },
        blocks: [{ __component: 'shared.rich-text', body: 'DR' }],
      },
    },
    status: 200,
    equal: DRAFT_V2,
  },
  {
    name: 'the published version keeps the old component values',
    path: `/api/articles/{{p}}?${PUB_POP}`,
    status: 200,
    equal: PUBLISHED_V1,
  },
  {
    name: 'the draft has the new ones',
    path: `/api/articles/{{p}}?status=draft&${PUB_POP}`,
    status: 200,
    equal: DRAFT_V2,
  },
  {
    name: "lists show each version's component",
    path: '/api/articles?fields[0]=title&populate[seo][fields][0]=metaTitle',
    status: 200,
    equal: list([{ id: ID, documentId: '{{p}}', title: 'Versioned', seo: { id: ID, metaTitle: 'Pub' } }]),
  },
  expectCounts('both versions hold their own rows', 'base', {
    components_shared_seos: 2,
    components_shared_keywords: 3,
    components_shared_quotes: 1,
    components_shared_media_blocks: 1,
    components_shared_rich_texts: 1,
    articles_cmps: 5,
    components_shared_seos_cmps: 3,
    components_shared_quotes_author_lnk: 1,
    files_related_mph: 4,
  }),
  {
    name: 'publish the draft',
    method: 'PUT',
    path: `/api/articles/{{p}}?${PUB_POP}`,
    body: { data: {} },
    status: 200,
    equal: DRAFT_V2,
  },
  {
    name: 'the published version now has the new values',
    path: `/api/articles/{{p}}?${PUB_POP}`,
    status: 200,
    equal: DRAFT_V2,
  },
  expectCounts('the old published components are gone, the new ones copied', 'base', {
    components_shared_seos: 2,
    components_shared_keywords: 4,
    components_shared_rich_texts: 2,
    articles_cmps: 4,
    components_shared_seos_cmps: 4,
    files_related_mph: 2,
  }),
  { name: 'delete the document', method: 'DELETE', path: '/api/articles/{{p}}', status: 204 },
  expectCounts('every component row, link and media link of both versions is gone', 'base', {}),
  { name: 'the published version is gone', path: '/api/articles/{{p}}', status: 404 },
  { name: 'the draft is gone', path: '/api/articles/{{p}}?status=draft', status: 404 },
]);
