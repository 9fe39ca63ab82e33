import { expect } from 'vitest';
import { mediaMissing, namedFile, storedFile } from '../support/components.js';
import { insertFile } from '../support/files.js';
import { countAll, countRows, expectCounts } from '../support/row-counts.js';
import { dbStep, scenario, type Step } from '../support/scenario.js';
import { DOC, ID, single } from '../support/shapes.js';

// Media attributes: forms, order, clearing, unknown ids, media inside components, cleanup.
// Expectations follow the recorded Strapi 5.54 session /tmp/dump/16-media.txt (the upload steps
// replaced by insertFile) and the behaviour reference (§5, §7, §16).

const MEDIA_POP = 'fields[0]=title&populate[cover][fields][0]=name&populate[gallery][fields][0]=name';
const withMedia = (cover: unknown, gallery: unknown[]) =>
  single({ id: ID, documentId: '{{m}}', title: 'With media', cover, gallery });
const [g1, g2, g3] = [namedFile('g1', 'g1.png'), namedFile('g2', 'g2.png'), namedFile('g3', 'g3.png')];
/** PUT media `data` on article m: the answer carries exactly this cover and gallery. */
const putMedia = (name: string, data: Record<string, unknown>, cover: unknown, gallery: unknown[]): Step => ({
  name,
  method: 'PUT',
  path: `/api/articles/{{m}}?${MEDIA_POP}`,
  body: { data },
  status: 200,
  equal: withMedia(cover, gallery),
});

scenario('media attributes: ids in every form, order kept, clearing, unknown ids, cleanup on delete', [
  dbStep('seed three files', async ({ vars, server }) => {
    vars.g1 = await insertFile(server, 'g1.png');
    vars.g2 = await insertFile(server, 'g2.png');
    vars.g3 = await insertFile(server, 'g3.png');
    vars.base = await countAll(server);
  }),
  {
    name: 'create with a cover id and gallery ids (order kept)',
    method: 'POST',
    path: `/api/articles?${MEDIA_POP}`,
    body: { data: { title: 'With media', cover: '{{g1}}', gallery: ['{{g3}}', '{{g1}}', '{{g2}}'] } },
    status: 201,
    equal: single({ id: ID, documentId: DOC, title: 'With media', cover: g1, gallery: [g3, g1, g2] }),
    save: { m: 'data.documentId' },
  },
  {
    name: 'full populated file shape',
    path: '/api/articles/{{m}}?fields[0]=title&populate[0]=cover',
    status: 200,
    equal: single({ id: ID, documentId: '{{m}}', title: 'With media', cover: storedFile('g1', 'g1.png') }),
  },
  {
    name: 'the draft carries the same media',
    path: `/api/articles/{{m}}?status=draft&${MEDIA_POP}`,
    status: 200,
    equal: withMedia(g1, [g3, g1, g2]),
  },
  expectCounts('one link per file per version', 'base', { files_related_mph: 8 }),
  putMedia(
    'cover as [id], gallery as [{id}] (gallery-reorder)',
    { cover: ['{{g2}}'], gallery: [{ id: '{{g2}}' }, { id: '{{g3}}' }] },
    g2,
    [g2, g3],
  ),
  putMedia('cover as {id} (cover-replace)', { cover: { id: '{{g3}}' } }, g3, [g2, g3]),
  putMedia('gallery reordered by ids', { gallery: ['{{g3}}', '{{g1}}', '{{g2}}'] }, g3, [g3, g1, g2]),
  {
    name: 'an unknown cover id (media-unknown-id-400)',
    method: 'PUT',
    path: '/api/articles/{{m}}',
    body: { data: { cover: 999999 } },
    status: 400,
    match: mediaMissing,
  },
  {
    name: 'an unknown id among known gallery ids',
    method: 'PUT',
    path: '/api/articles/{{m}}',
    body: { data: { gallery: ['{{g1}}', 999999] } },
    status: 400,
    match: mediaMissing,
  },
  {
    name: 'an unknown file on create',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'bad media', gallery: [999998] } },
    status: 400,
    match: mediaMissing,
  },
  {
    name: 'the failed writes changed nothing',
    path: `/api/articles/{{m}}?${MEDIA_POP}`,
    status: 200,
    equal: withMedia(g3, [g3, g1, g2]),
  },
  putMedia('cover: null and gallery: [] clear', { cover: null, gallery: [] }, null, []),
  expectCounts('no media links are left for the article', 'base', {}),
  {
    name: 'media inside components (seo.shareImage, media-block.file)',
    method: 'PUT',
    path: '/api/articles/{{m}}?fields[0]=title&populate[seo][populate][shareImage][fields][0]=name&populate[blocks][on][shared.media-block][populate][file][fields][0]=name',
    body: {
      data: {
        cover: '{{g1}}',
        seo: { metaTitle: 'Media seo', shareImage: '{{g2}}' },
        blocks: [{ __component: 'shared.media-block', file: '{{g3}}' }, { __component: 'shared.media-block' }],
      },
    },
    status: 200,
    equal: {
      data: {
        id: ID,
        documentId: '{{m}}',
        title: 'With media',
        seo: { id: ID, metaTitle: 'Media seo', metaDescription: null, shareImage: g2 },
        blocks: [
          { __component: 'shared.media-block', id: ID, file: g3 },
          { __component: 'shared.media-block', id: ID, file: null },
        ],
      },
      meta: {},
    },
  },
  {
    name: 'media inside components on the draft too',
    path: '/api/articles/{{m}}?status=draft&fields[0]=title&populate[seo][populate]=*&populate[blocks][populate]=*',
    status: 200,
    equal: {
      data: {
        id: ID,
        documentId: '{{m}}',
        title: 'With media',
        seo: {
          id: ID,
          metaTitle: 'Media seo',
          metaDescription: null,
          keywords: [],
          shareImage: storedFile('g2', 'g2.png'),
        },
        blocks: [
          { __component: 'shared.media-block', id: ID, file: storedFile('g3', 'g3.png') },
          { __component: 'shared.media-block', id: ID, file: null },
        ],
      },
      meta: {},
    },
  },
  expectCounts('cover, shareImage and the media-block file are linked once per version', 'base', {
    files_related_mph: 6,
    components_shared_seos: 2,
    components_shared_media_blocks: 4,
    articles_cmps: 6,
  }),
  { name: 'delete the article', method: 'DELETE', path: '/api/articles/{{m}}', status: 204 },
  expectCounts('no media link, component row or component link is left; the files remain', 'base', {}),
  dbStep('the files themselves were not deleted', async ({ vars, server }) => {
    expect(await countRows(server, 'files', `id in (${Number(vars.g1)}, ${Number(vars.g2)}, ${Number(vars.g3)})`)).toBe(
      3,
    );
  }),
]);
