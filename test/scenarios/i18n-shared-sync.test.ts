import { expect } from 'vitest';
import { seedAuthors } from '../support/blog-relations.js';
import { namedFile } from '../support/components.js';
import { articleRows, sqlText } from '../support/i18n.js';
import { seedFile } from '../support/populate-fixture.js';
import { ref } from '../support/relations.js';
import { countRows, expectCounts, queryRows, saveCounts } from '../support/row-counts.js';
import { dbStep, scenario, type Step } from '../support/scenario.js';
import type { TestServer } from '../support/test-server.js';
import { ID, single } from '../support/shapes.js';

/*
 * Shared (non-localized) attributes stay shared: a write of one in any locale reaches the other
 * locales — every draft, and every published row when the write publishes (a `status=draft`
 * write leaves published rows alone) — for scalars, media, components and dynamic zones
 * (conformance 13 update-non-localized-from-fr, 20 fr-update-seo-non-localized). Localized
 * attributes and relations never travel. Each row keeps its own component rows.
 */

/** `locale/status views` of every row of `{{a}}`. */
async function viewsByRow(server: TestServer, documentId: unknown): Promise<string[]> {
  return (await articleRows(server, documentId)).map((row) => `${row.locale}/${row.status} ${row.views}`);
}
const expectViews = (name: string, expected: string[]): Step =>
  dbStep(name, async ({ server, vars }) => expect(await viewsByRow(server, vars.a)).toEqual(expected));

/** `locale/status: value` of one populated attribute read from every version of `{{a}}` (drafts and published rows, every locale). */
function expectEverywhere(
  name: string,
  query: string,
  pick: (data: Record<string, any>) => unknown,
  expected: Record<string, unknown>,
): Step {
  return {
    name,
    path: '/_health',
    status: 204,
    check: async (_r, { server, vars }) => {
      const seen: Record<string, unknown> = {};
      for (const status of ['draft', 'published']) {
        const response = await server.request(
          'GET',
          `/api/articles?locale=*&status=${status}&filters[documentId][$eq]=${String(vars.a)}&fields[0]=locale&${query}`,
        );
        expect(response.status, response.text).toBe(200);
        for (const data of response.json.data) seen[`${data.locale}/${status}`] = pick(data);
      }
      expect(seen).toEqual(expected);
    },
  };
}
const all = (draft: unknown, published: unknown = draft, locales = ['de', 'en', 'fr']) =>
  Object.fromEntries(
    locales.flatMap((locale) => [
      [`${locale}/draft`, draft],
      [`${locale}/published`, published],
    ]),
  );

/** The seo component rows linked from the article rows of `{{a}}`, one per row, all distinct. */
const ownSeoRows = (name: string, rows: number): Step =>
  dbStep(name, async ({ server, vars }) => {
    const links = await queryRows(
      server,
      `select c.cmp_id from articles_cmps c join articles a on a.id = c.entity_id where c.field = 'seo' and a.document_id = ${sqlText(vars.a)}`,
    );
    expect(links).toHaveLength(rows);
    expect(new Set(links.map((link) => Number(link.cmp_id))).size).toBe(rows);
    expect(await countRows(server, 'components_shared_seos')).toBe(rows);
  });

const SEO = 'populate[seo][populate][keywords][fields][0]=word';
const SEO_TITLE = `fields[0]=title&${SEO}`;
const seoWords = (data: Record<string, any>) =>
  data.seo ? [data.seo.metaTitle, ...data.seo.keywords.map((k: { word: string }) => k.word)] : null;

scenario('i18n: writes of shared attributes reach the other locales', [
  ...seedAuthors,
  seedFile('one', 'one.png'),
  seedFile('two', 'two.png'),
  seedFile('three', 'three.png'),
  {
    name: 'create en with scalars, media, seo and blocks',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: {
      data: {
        title: 'Hello',
        views: 1,
        rating: 2.5,
        meta: { v: 1 },
        cover: '{{oneId}}',
        seo: { metaTitle: 'EN seo', keywords: [{ word: 'en' }] },
        blocks: [{ __component: 'shared.rich-text', body: 'EN block' }],
      },
    },
    status: 201,
    save: { a: 'data.documentId' },
  },
  {
    name: 'create fr',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title',
    body: { data: { title: 'Bonjour' } },
    status: 200,
  },
  {
    name: 'create de',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=de&fields[0]=title',
    body: { data: { title: 'Hallo' } },
    status: 200,
  },
  ownSeoRows('six rows, six seo components', 6),

  // ── scalars ───────────────────────────────────────────────────────────────────────────────────
  {
    name: 'PUT fr views=42 (publishing)',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title&fields[1]=views',
    body: { data: { views: 42 } },
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Bonjour', views: 42 }),
  },
  expectViews('every draft and published row holds 42', [
    'de/draft 42',
    'de/published 42',
    'en/draft 42',
    'en/published 42',
    'fr/draft 42',
    'fr/published 42',
  ]),
  {
    name: 'en reads 42 (conformance 13 non-localized-propagated-to-en)',
    path: '/api/articles/{{a}}?fields[0]=title&fields[1]=views',
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Hello', views: 42 }),
  },
  {
    name: 'PUT fr ?status=draft views=50',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&status=draft&fields[0]=views',
    body: { data: { views: 50 } },
    status: 200,
  },
  expectViews('drafts hold 50, published rows keep 42', [
    'de/draft 50',
    'de/published 42',
    'en/draft 50',
    'en/published 42',
    'fr/draft 50',
    'fr/published 42',
  ]),
  {
    name: 'PUT en with rating, meta and a null (publishing)',
    method: 'PUT',
    path: '/api/articles/{{a}}?fields[0]=rating',
    body: { data: { rating: null, meta: { v: 2, list: ['x'] }, isFeatured: true } },
    status: 200,
  },
  expectEverywhere(
    'rating, meta and isFeatured everywhere',
    'fields[1]=rating&fields[2]=meta&fields[3]=isFeatured',
    (d) => [d.rating, d.meta, d.isFeatured],
    all([null, { v: 2, list: ['x'] }, true]),
  ),
  {
    name: 'localized attributes never travel: fr keeps its title',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title',
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Bonjour' }),
  },
  {
    name: 'PUT de with a password',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=de&fields[0]=title',
    body: { data: { secretCode: 'shared-secret-2' } },
    status: 200,
    check: async (_r, { server, vars }) => {
      const rows = await queryRows(server, `select secret_code from articles where document_id = ${sqlText(vars.a)}`);
      expect(rows).toHaveLength(6);
      expect(new Set(rows.map((row) => row.secret_code)).size).toBe(1);
      expect(String(rows[0]!.secret_code)).toMatch(/^\$2[aby]\$10\$/);
    },
  },

  // ── components ────────────────────────────────────────────────────────────────────────────────
  saveCounts('count component rows', 'beforeSeo'),
  {
    name: 'PUT fr seo (conformance 20 fr-update-seo-non-localized)',
    method: 'PUT',
    path: `/api/articles/{{a}}?locale=fr&${SEO_TITLE}`,
    body: { data: { seo: { metaTitle: 'Shared seo', keywords: [{ word: 'one' }, { word: 'two' }] } } },
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Bonjour',
      seo: {
        id: ID,
        metaTitle: 'Shared seo',
        metaDescription: null,
        keywords: [
          { id: ID, word: 'one' },
          { word: 'two', id: ID },
        ],
      },
    }),
  },
  expectEverywhere('every version shows the new seo', SEO, seoWords, all(['Shared seo', 'one', 'two'])),
  expectCounts('each of the six rows has its own seo and two keywords (one keyword each before)', 'beforeSeo', {
    components_shared_keywords: 6,
    components_shared_seos_cmps: 6,
  }),
  ownSeoRows('still one seo row per article row', 6),
  {
    name: 'PUT en ?status=draft seo',
    method: 'PUT',
    path: `/api/articles/{{a}}?status=draft&${SEO_TITLE}`,
    body: { data: { seo: { metaTitle: 'Draft seo', keywords: [] } } },
    status: 200,
  },
  expectEverywhere(
    'drafts show it, published rows keep theirs',
    SEO,
    seoWords,
    all(['Draft seo'], ['Shared seo', 'one', 'two']),
  ),
  ownSeoRows('six seo rows', 6),
  {
    name: 'PUT de seo=null',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=de&fields[0]=title',
    body: { data: { seo: null } },
    status: 200,
  },
  expectEverywhere('no seo anywhere', SEO, seoWords, all(null)),
  dbStep('and no seo rows left', async ({ server }) =>
    expect(await countRows(server, 'components_shared_seos')).toBe(0),
  ),

  // ── dynamic zone ──────────────────────────────────────────────────────────────────────────────
  {
    name: 'PUT fr blocks',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title&populate[blocks]=true',
    body: {
      data: {
        blocks: [
          { __component: 'shared.quote', title: 'Q', author: '{{ada}}' },
          { __component: 'shared.rich-text', body: 'FR block' },
        ],
      },
    },
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Bonjour',
      blocks: [
        { __component: 'shared.quote', id: ID, title: 'Q', body: null },
        { __component: 'shared.rich-text', id: ID, body: 'FR block' },
      ],
    }),
  },
  expectEverywhere(
    'every version shows the blocks, the quote with its author',
    'populate[blocks][on][shared.quote][populate][author][fields][0]=name&populate[blocks][on][shared.rich-text]=true',
    (d) =>
      d.blocks.map((b: Record<string, any>) =>
        b.__component === 'shared.quote' ? `quote ${b.title} by ${b.author?.name}` : `text ${b.body}`,
      ),
    all(['quote Q by Ada Lovelace', 'text FR block']),
  ),
  dbStep('six quotes, six rich texts, six author links: no EN block left', async ({ server }) => {
    expect(await countRows(server, 'components_shared_quotes')).toBe(6);
    expect(await countRows(server, 'components_shared_rich_texts')).toBe(6);
    expect(await countRows(server, 'components_shared_quotes_author_lnk')).toBe(6);
  }),

  // ── media ─────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'PUT en cover and gallery',
    method: 'PUT',
    path: '/api/articles/{{a}}?fields[0]=title&populate[cover][fields][0]=name&populate[gallery][fields][0]=name',
    body: { data: { cover: '{{twoId}}', gallery: ['{{threeId}}', '{{oneId}}'] } },
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Hello',
      cover: namedFile('twoId', 'two.png'),
      gallery: [namedFile('threeId', 'three.png'), namedFile('oneId', 'one.png')],
    }),
  },
  expectEverywhere(
    'every version shows them, gallery order kept',
    'populate[cover][fields][0]=name&populate[gallery][fields][0]=name',
    (d) => [d.cover?.name, ...d.gallery.map((f: { name: string }) => f.name)],
    all(['two.png', 'three.png', 'one.png']),
  ),
  {
    name: 'PUT fr cover=null',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title',
    body: { data: { cover: null } },
    status: 200,
  },
  expectEverywhere(
    'no cover anywhere, the gallery untouched',
    'populate[cover][fields][0]=name&populate[gallery][fields][0]=name',
    (d) => [d.cover?.name ?? null, ...d.gallery.map((f: { name: string }) => f.name)],
    all([null, 'three.png', 'one.png']),
  ),
  dbStep('twelve gallery links and no cover link', async ({ server }) => {
    expect(
      await countRows(server, 'files_related_mph', "related_type = 'api::article.article' and field = 'gallery'"),
    ).toBe(12);
    expect(
      await countRows(server, 'files_related_mph', "related_type = 'api::article.article' and field = 'cover'"),
    ).toBe(0);
  }),

  // ── relations stay per locale ─────────────────────────────────────────────────────────────────
  {
    name: 'PUT fr author',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title&populate[author][fields][0]=name',
    body: { data: { author: '{{grace}}' } },
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Bonjour', author: ref('grace', { name: 'Grace Hopper' }) }),
  },
  expectEverywhere('only fr links Grace', 'populate[author][fields][0]=name', (d) => d.author?.name ?? null, {
    ...all(null),
    'fr/draft': 'Grace Hopper',
    'fr/published': 'Grace Hopper',
  }),
]);

scenario("i18n: a publish brings the other locales' published rows the shared values it publishes", [
  {
    name: 'create en',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'Hello', views: 1, seo: { metaTitle: 'Published seo' } } },
    status: 201,
    save: { a: 'data.documentId' },
  },
  {
    name: 'create fr',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title',
    body: { data: { title: 'Bonjour' } },
    status: 200,
  },
  {
    name: 'PUT en ?status=draft views=7 and seo: the drafts only',
    method: 'PUT',
    path: '/api/articles/{{a}}?status=draft&fields[0]=title',
    body: { data: { views: 7, seo: { metaTitle: 'Pending seo' } } },
    status: 200,
  },
  expectViews('drafts 7, published rows 1', ['en/draft 7', 'en/published 1', 'fr/draft 7', 'fr/published 1']),
  {
    name: 'publish fr with a localized change only',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title&fields[1]=views&populate[seo]=true',
    body: { data: { title: 'Bonjour v2' } },
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Bonjour v2',
      views: 7,
      seo: { id: ID, metaTitle: 'Pending seo', metaDescription: null },
    }),
  },
  expectViews('the published en row takes the shared values fr published: no locale shows another views', [
    'en/draft 7',
    'en/published 7',
    'fr/draft 7',
    'fr/published 7',
  ]),
  {
    name: 'en published shows the seo fr published',
    path: '/api/articles/{{a}}?fields[0]=title&populate[seo]=true',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Hello',
      seo: { id: ID, metaTitle: 'Pending seo', metaDescription: null },
    }),
  },
  {
    name: 'PUT fr ?status=draft views=9',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&status=draft&fields[0]=title',
    body: { data: { views: 9 } },
    status: 200,
  },
  {
    name: 'publish en as is (empty data)',
    method: 'PUT',
    path: '/api/articles/{{a}}?fields[0]=title&fields[1]=views',
    body: { data: {} },
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Hello', views: 9 }),
  },
  expectViews('fr published follows', ['en/draft 9', 'en/published 9', 'fr/draft 9', 'fr/published 9']),
  ownSeoRows('each row its own seo', 4),
]);
