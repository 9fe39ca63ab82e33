import { expect } from 'vitest';
import { notRelated, storedFile } from '../support/components.js';
import { insertFile } from '../support/files.js';
import { countAll, countRows, expectCounts } from '../support/row-counts.js';
import { dbStep, scenario } from '../support/scenario.js';
import { DOC, ID, single, TS } from '../support/shapes.js';

// The single type `global` (no draft & publish): defaultSeo created, updated, ids stable.
// Expectations follow the recorded Strapi 5.54 sessions /tmp/dump/02-single-type.txt and
// 15-components-dz-write.txt (global-component-create) and the behaviour reference (§5, §7, §16).

const GLOBAL = (siteName: string, defaultSeo: unknown) =>
  single({ id: ID, documentId: '{{g}}', siteName, createdAt: TS, updatedAt: TS, publishedAt: TS, defaultSeo });

scenario('single type without draft & publish: defaultSeo created and updated, component ids stable', [
  dbStep('seed a file and count rows', async ({ vars, server }) => {
    vars.img = await insertFile(server, 'site.png');
    vars.base = await countAll(server);
  }),
  {
    name: 'PUT creates the single type with its component (global-component-create)',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate]=*',
    body: {
      data: { siteName: 'S', defaultSeo: { metaTitle: 'G', keywords: [{ word: 'k1' }], shareImage: '{{img}}' } },
    },
    status: 200,
    equal: single({
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
        shareImage: storedFile('img', 'site.png'),
      },
    }),
    save: { g: 'data.documentId', seoId: 'data.defaultSeo.id', k1: 'data.defaultSeo.keywords.0.id' },
  },
  {
    name: 'GET returns the same ids',
    path: '/api/global?populate[defaultSeo][populate]=*',
    status: 200,
    equal: GLOBAL('S', {
      id: '{{seoId}}',
      metaTitle: 'G',
      metaDescription: null,
      keywords: [{ id: '{{k1}}', word: 'k1' }],
      shareImage: storedFile('img', 'site.png'),
    }),
  },
  expectCounts('one row of each (no draft copy)', 'base', {
    components_shared_seos: 1,
    components_shared_keywords: 1,
    globals_cmps: 1,
    components_shared_seos_cmps: 1,
    files_related_mph: 1,
  }),
  {
    name: 'component sent back with its id: id kept, keyword id kept, new keyword created, shareImage untouched',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate]=*',
    body: {
      data: {
        defaultSeo: {
          id: '{{seoId}}',
          metaTitle: 'G2',
          metaDescription: 'Site wide',
          keywords: [{ id: '{{k1}}', word: 'k1b' }, { word: 'k2' }],
        },
      },
    },
    status: 200,
    equal: GLOBAL('S', {
      id: '{{seoId}}',
      metaTitle: 'G2',
      metaDescription: 'Site wide',
      keywords: [
        { id: '{{k1}}', word: 'k1b' },
        { id: ID, word: 'k2' },
      ],
      shareImage: storedFile('img', 'site.png'),
    }),
    save: { k2: 'data.defaultSeo.keywords.1.id' },
  },
  {
    name: 'component with id and no keywords key keeps its keywords (put-update-component-with-id)',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate][0]=keywords',
    body: { data: { defaultSeo: { id: '{{seoId}}', metaTitle: 'Updated default' } } },
    status: 200,
    equal: GLOBAL('S', {
      id: '{{seoId}}',
      metaTitle: 'Updated default',
      metaDescription: 'Site wide',
      keywords: [
        { id: '{{k1}}', word: 'k1b' },
        { id: '{{k2}}', word: 'k2' },
      ],
    }),
  },
  {
    name: 'another attribute alone keeps the component (put-siteName-keeps-component)',
    method: 'PUT',
    path: '/api/global?populate[0]=defaultSeo',
    body: { data: { siteName: 'Renamed site' } },
    status: 200,
    equal: GLOBAL('Renamed site', { id: '{{seoId}}', metaTitle: 'Updated default', metaDescription: 'Site wide' }),
  },
  {
    name: "an article's component id is refused",
    method: 'POST',
    path: '/api/articles?populate=seo',
    body: { data: { title: 'Owner', seo: { metaTitle: 'Article seo' } } },
    status: 201,
    save: { foreignSeo: 'data.seo.id' },
  },
  {
    name: 'sending it as defaultSeo',
    method: 'PUT',
    path: '/api/global',
    body: { data: { defaultSeo: { id: '{{foreignSeo}}', metaTitle: 'stolen' } } },
    status: 400,
    match: notRelated('defaultSeo'),
  },
  {
    name: 'global unchanged',
    path: '/api/global?populate[defaultSeo][fields][0]=metaTitle',
    status: 200,
    equal: GLOBAL('Renamed site', { id: '{{seoId}}', metaTitle: 'Updated default' }),
  },
  {
    name: 'component without id replaces it',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate]=*',
    body: { data: { defaultSeo: { metaTitle: 'Fresh' } } },
    status: 200,
    equal: GLOBAL('Renamed site', {
      id: ID,
      metaTitle: 'Fresh',
      metaDescription: null,
      keywords: [],
      shareImage: null,
    }),
    check: ({ json }, { vars }) => expect(json.data.defaultSeo.id).not.toBe(vars.seoId),
  },
  dbStep('the replaced component, its keywords and its media link are gone', async ({ vars, server }) => {
    expect(await countRows(server, 'components_shared_seos', `id = ${Number(vars.seoId)}`)).toBe(0);
    expect(
      await countRows(server, 'components_shared_keywords', `id in (${Number(vars.k1)}, ${Number(vars.k2)})`),
    ).toBe(0);
    expect(
      await countRows(
        server,
        'files_related_mph',
        `related_type = 'shared.seo' and related_id = ${Number(vars.seoId)}`,
      ),
    ).toBe(0);
    expect(await countRows(server, 'globals_cmps')).toBe(1);
  }),
  {
    name: 'defaultSeo: null clears',
    method: 'PUT',
    path: '/api/global?populate=defaultSeo',
    body: { data: { defaultSeo: null } },
    status: 200,
    equal: GLOBAL('Renamed site', null),
  },
  { name: 'delete the single type', method: 'DELETE', path: '/api/global', status: 204 },
  dbStep('no global component rows remain', async ({ server }) => {
    expect(await countRows(server, 'globals_cmps')).toBe(0);
  }),
]);
