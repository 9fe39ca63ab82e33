import { expect } from 'vitest';
import { seedAuthors } from '../support/blog-relations.js';
import { namedFile } from '../support/components.js';
import { articleFields, expectVersions, sqlText } from '../support/i18n.js';
import { seedFile } from '../support/populate-fixture.js';
import { ref } from '../support/relations.js';
import { expectCounts, queryRows, saveCounts } from '../support/row-counts.js';
import { dbStep, errorBody, scenario } from '../support/scenario.js';
import { DOC, ID, single, TS } from '../support/shapes.js';

/*
 * Creating a localization: `PUT /api/articles/:documentId?locale=fr` on a document that has no fr
 * version creates it (200, not 201) with the shared (non-localized) attributes of an existing
 * version — scalars, the password, media, the seo component and the blocks dynamic zone (with what
 * their components hold) — its localized attributes empty, and no relations (conformance 13
 * create-fr-localization, 20 create-fr-localization / fr-get-populated; reference §6). The new
 * rows own fresh copies of every component row.
 */

const CONTENT = [{ type: 'paragraph', children: [{ type: 'text', text: 'Shared blocks text' }] }];
/** Every shared scalar of the blog article, as written. */
const SHARED_INPUT = {
  content: CONTENT,
  views: 5,
  rating: 4.5,
  price: 19.99,
  bigcount: '9007199254740993',
  isFeatured: true,
  publishDate: '2024-05-17',
  publishTime: '08:30:00',
  eventAt: '2024-05-17T08:30:00.000Z',
  stamp: '2024-05-17T13:45:00.000Z',
  meta: { a: 1, list: [1, 2] },
  category: 'tech',
  contactEmail: 'shared@example.com',
};
/** The same values as answered. */
const SHARED_OUTPUT = { ...SHARED_INPUT, publishTime: '08:30:00.000', stamp: '1715953500000' };
/** The localized scalars of the en version. */
const EN_LOCALIZED = { title: 'Hello', slug: 'hello-en', summary: 'English summary', body: 'English **body**' };

/** Everything an article holds besides scalars, one level deep with names of files and authors. */
const POPULATE_ALL = [
  'populate[cover][fields][0]=name',
  'populate[gallery][fields][0]=name',
  'populate[author][fields][0]=name',
  'populate[editor][fields][0]=name',
  'populate[tags][fields][0]=name',
  'populate[seo][populate][shareImage][fields][0]=name',
  'populate[seo][populate][keywords]=true',
  'populate[blocks][on][shared.quote][populate][author][fields][0]=name',
  'populate[blocks][on][shared.rich-text]=true',
  'populate[blocks][on][shared.media-block][populate][file][fields][0]=name',
].join('&');

const SEO = {
  id: ID,
  metaTitle: 'Shared seo',
  metaDescription: 'About it',
  shareImage: namedFile('threeId', 'three.png'),
  keywords: [
    { id: ID, word: 'cms' },
    { id: ID, word: 'i18n' },
  ],
};
const BLOCKS = [
  {
    __component: 'shared.quote',
    id: ID,
    title: 'A quote',
    body: 'Quoted',
    author: ref('ada', { name: 'Ada Lovelace' }),
  },
  { __component: 'shared.rich-text', id: ID, body: 'Rich **text**' },
  { __component: 'shared.media-block', id: ID, file: namedFile('twoId', 'two.png') },
];
const SHARED_TREE = {
  cover: namedFile('oneId', 'one.png'),
  gallery: [namedFile('twoId', 'two.png'), namedFile('threeId', 'three.png')],
  seo: SEO,
  blocks: BLOCKS,
};
const EN_RELATIONS = {
  author: ref('ada', { name: 'Ada Lovelace' }),
  editor: ref('grace', { name: 'Grace Hopper' }),
  tags: [ref('t', { name: 'i18n' })],
};
const NO_RELATIONS = { author: null, editor: null, tags: [] };

/** The full answer for one version of `{{a}}`. */
const version = (
  locale: string,
  localized: Record<string, unknown>,
  relations: Record<string, unknown>,
  draft = false,
) => ({
  id: ID,
  documentId: '{{a}}',
  ...articleFields({ ...SHARED_OUTPUT, ...localized }),
  createdAt: TS,
  updatedAt: TS,
  publishedAt: draft ? null : TS,
  locale,
  ...SHARED_TREE,
  ...relations,
});
const EN = version('en', EN_LOCALIZED, EN_RELATIONS);
const FR = (draft = false) => version('fr', { title: 'Bonjour' }, NO_RELATIONS, draft);

/** Row counts a localization adds per row (draft or published): one seo with two keywords and a share image, three blocks, cover and two gallery files. */
const PER_ROW = {
  components_shared_seos: 1,
  components_shared_keywords: 2,
  components_shared_seos_cmps: 2,
  components_shared_quotes: 1,
  components_shared_quotes_author_lnk: 1,
  components_shared_rich_texts: 1,
  components_shared_media_blocks: 1,
  articles_cmps: 4,
  files_related_mph: 5,
} as const;
const times = (n: number) => Object.fromEntries(Object.entries(PER_ROW).map(([table, count]) => [table, count * n]));

scenario('i18n: PUT ?locale=fr creates a localization with the shared attributes', [
  ...seedAuthors,
  {
    name: 'seed tag',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    body: { data: { name: 'i18n' } },
    status: 201,
    save: { t: 'data.documentId' },
  },
  seedFile('one', 'one.png'),
  seedFile('two', 'two.png'),
  seedFile('three', 'three.png'),
  {
    name: 'create the en article with every shared attribute, relations, media and components',
    method: 'POST',
    path: `/api/articles?${POPULATE_ALL}`,
    body: {
      data: {
        ...EN_LOCALIZED,
        ...SHARED_INPUT,
        secretCode: 'shared-secret-1',
        cover: '{{oneId}}',
        gallery: ['{{twoId}}', '{{threeId}}'],
        author: '{{ada}}',
        editor: '{{grace}}',
        tags: ['{{t}}'],
        seo: {
          metaTitle: 'Shared seo',
          metaDescription: 'About it',
          shareImage: '{{threeId}}',
          keywords: [{ word: 'cms' }, { word: 'i18n' }],
        },
        blocks: [
          { __component: 'shared.quote', title: 'A quote', body: 'Quoted', author: '{{ada}}' },
          { __component: 'shared.rich-text', body: 'Rich **text**' },
          { __component: 'shared.media-block', file: '{{twoId}}' },
        ],
      },
    },
    status: 201,
    save: { a: 'data.documentId' },
    equal: single({ ...EN, documentId: DOC }),
  },
  saveCounts('count component, link and media rows', 'base'),
  {
    name: 'PUT ?locale=fr: 200, the shared scalars, media, seo and blocks copied; localized attributes empty; no relations',
    method: 'PUT',
    path: `/api/articles/{{a}}?locale=fr&${POPULATE_ALL}`,
    body: { data: { title: 'Bonjour' } },
    status: 200,
    equal: single(FR()),
  },
  expectVersions('the fr localization has a draft and a published row', 'a', [
    'en/draft',
    'en/published',
    'fr/draft',
    'fr/published',
  ]),
  expectCounts('each new row owns copies of every component row and media link', 'base', times(2)),
  {
    name: 'the fr draft holds the same',
    path: `/api/articles/{{a}}?locale=fr&status=draft&${POPULATE_ALL}`,
    status: 200,
    equal: single(FR(true)),
  },
  {
    name: 'the en version is unchanged, relations included',
    path: `/api/articles/{{a}}?${POPULATE_ALL}`,
    status: 200,
    equal: single(EN),
  },
  {
    name: 'the component rows of fr are not those of en',
    path: '/api/articles/{{a}}?fields[0]=title&populate[seo][populate]=*&populate[blocks]=true&populate[localizations][populate][seo][populate]=*&populate[localizations][populate][blocks]=true',
    status: 200,
    check: ({ json }) => {
      const [fr] = json.data.localizations;
      expect(fr.seo.id).not.toBe(json.data.seo.id);
      expect(fr.seo.keywords.map((k: { id: number }) => k.id)).not.toEqual(
        json.data.seo.keywords.map((k: { id: number }) => k.id),
      );
      expect(fr.blocks.map((b: { __component: string }) => b.__component)).toEqual(
        json.data.blocks.map((b: { __component: string }) => b.__component),
      );
    },
  },
  dbStep('the password hash was copied to the fr rows', async ({ server, vars }) => {
    const rows = await queryRows(
      server,
      `select locale, secret_code from articles where document_id = ${sqlText(vars.a)} order by id`,
    );
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((row) => row.secret_code)).size).toBe(1);
    expect(String(rows[0]!.secret_code)).toMatch(/^\$2[aby]\$10\$/);
  }),
  dbStep('no relation link was created for fr', async ({ server, vars }) => {
    for (const table of ['articles_author_lnk', 'articles_editor_lnk', 'articles_tags_lnk']) {
      const rows = await queryRows(
        server,
        `select a.locale from ${table} l join articles a on a.id = l.article_id where a.document_id = ${sqlText(vars.a)}`,
      );
      expect(
        rows.map((row) => row.locale),
        table,
      ).toEqual(['en', 'en']);
    }
  }),
  {
    name: 'PUT ?locale=fr again updates the localization (no second one)',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title&fields[1]=locale',
    body: { data: { title: 'Bonjour v2' } },
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Bonjour v2', locale: 'fr' }),
  },
  expectVersions('still two rows per locale', 'a', ['en/draft', 'en/published', 'fr/draft', 'fr/published']),
  {
    name: 'a third locale copies from the stored versions as well',
    method: 'PUT',
    path: `/api/articles/{{a}}?locale=de&${POPULATE_ALL}`,
    body: { data: { title: 'Hallo', summary: 'Deutsch' } },
    status: 200,
    equal: single({ ...version('de', { title: 'Hallo', summary: 'Deutsch' }, NO_RELATIONS) }),
  },
  expectCounts('and gets its own component rows', 'base', times(4)),
]);

scenario('i18n: localizations created as drafts, with shared values, or from a non-default locale', [
  {
    name: 'create en',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'Hello', views: 5, category: 'tech', seo: { metaTitle: 'EN seo' } } },
    status: 201,
    save: { a: 'data.documentId' },
  },
  saveCounts('count component rows', 'base'),
  {
    name: 'PUT ?locale=fr&status=draft creates only a fr draft',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&status=draft&fields[0]=title&fields[1]=views&fields[2]=publishedAt&fields[3]=locale&populate[seo]=true',
    body: { data: { title: 'Brouillon' } },
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Brouillon',
      views: 5,
      publishedAt: null,
      locale: 'fr',
      seo: { id: ID, metaTitle: 'EN seo', metaDescription: null },
    }),
  },
  expectVersions('a fr draft, no fr published row', 'a', ['en/draft', 'en/published', 'fr/draft']),
  expectCounts('one seo copy', 'base', { components_shared_seos: 1, articles_cmps: 1 }),
  { name: 'the published fr version does not exist', path: '/api/articles/{{a}}?locale=fr', status: 404 },
  {
    name: 'the en localizations list it only in the draft view',
    path: '/api/articles/{{a}}?fields[0]=title&populate[localizations][fields][0]=title',
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Hello', localizations: [] }),
  },
  {
    name: 'draft view',
    path: '/api/articles/{{a}}?status=draft&fields[0]=title&populate[localizations][fields][0]=title',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Hello',
      localizations: [{ id: ID, documentId: '{{a}}', title: 'Brouillon' }],
    }),
  },
  {
    name: 'PUT ?locale=fr publishes it',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title&fields[1]=publishedAt',
    body: { data: {} },
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Brouillon', publishedAt: TS }),
  },
  expectVersions('now published', 'a', ['en/draft', 'en/published', 'fr/draft', 'fr/published']),

  // a publishing localization write checks the required title, which starts empty
  {
    name: 'PUT ?locale=de without a title: the publish fails on the required title (400)',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=de',
    body: { data: { summary: 'Ohne Titel' } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'title must be a `string` type, but the final value was: `null`.', {
      errors: [
        {
          path: ['title'],
          message: 'title must be a `string` type, but the final value was: `null`.',
          name: 'ValidationError',
          value: null,
        },
      ],
    }),
  },
  expectVersions('and nothing was created', 'a', ['en/draft', 'en/published', 'fr/draft', 'fr/published']),
  {
    name: 'as a draft it is accepted',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=de&status=draft&fields[0]=title&fields[1]=summary&fields[2]=views',
    body: { data: { summary: 'Ohne Titel' } },
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: null, summary: 'Ohne Titel', views: 5 }),
  },

  // shared values sent with the creating write win over the copied ones, and reach the other locales
  {
    name: 'PUT ?locale=it with shared values: they win over the copied ones',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=it&fields[0]=title&fields[1]=views&fields[2]=category&populate[seo]=true',
    body: { data: { title: 'Ciao', views: 9, seo: { metaTitle: 'IT seo' } } },
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Ciao',
      views: 9,
      category: 'tech',
      seo: { id: ID, metaTitle: 'IT seo', metaDescription: null },
    }),
  },
  {
    name: 'and reach the published en version',
    path: '/api/articles/{{a}}?fields[0]=title&fields[1]=views&populate[seo]=true',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Hello',
      views: 9,
      seo: { id: ID, metaTitle: 'IT seo', metaDescription: null },
    }),
  },
  {
    name: 'every draft of every locale',
    path: '/api/articles?locale=*&status=draft&fields[0]=locale&fields[1]=views&sort=locale&populate[seo][fields][0]=metaTitle',
    status: 200,
    check: ({ json }) =>
      expect(
        json.data.map(
          (d: { locale: string; views: number; seo: { metaTitle: string } }) =>
            `${d.locale} ${d.views} ${d.seo.metaTitle}`,
        ),
      ).toEqual(['de 9 IT seo', 'en 9 IT seo', 'fr 9 IT seo', 'it 9 IT seo']),
  },

  // a document created in fr gets its en (default locale) version by a PUT without locale
  {
    name: 'POST ?locale=fr: a French-only document',
    method: 'POST',
    path: '/api/articles?locale=fr&fields[0]=title',
    body: { data: { title: 'Seulement FR', views: 7, isFeatured: true } },
    status: 201,
    save: { f: 'data.documentId' },
  },
  {
    name: 'PUT without locale creates its en version (200) with the shared values',
    method: 'PUT',
    path: '/api/articles/{{f}}?fields[0]=title&fields[1]=views&fields[2]=isFeatured&fields[3]=locale',
    body: { data: { title: 'English too' } },
    status: 200,
    equal: single({ id: ID, documentId: '{{f}}', title: 'English too', views: 7, isFeatured: true, locale: 'en' }),
  },
  expectVersions('both locales now', 'f', ['en/draft', 'en/published', 'fr/draft', 'fr/published']),
  {
    name: 'PUT ?locale=fr on an unknown documentId: 404, nothing created',
    method: 'PUT',
    path: '/api/articles/nosuchdocument0000000000?locale=fr',
    body: { data: { title: 'x' } },
    status: 404,
  },
  dbStep('no row for it', async ({ server }) =>
    expect(await queryRows(server, "select id from articles where document_id = 'nosuchdocument0000000000'")).toEqual(
      [],
    ),
  ),
  {
    name: 'localizations in the body of a creating PUT: 400 Invalid key localizations',
    method: 'PUT',
    path: '/api/articles/{{f}}?locale=es',
    body: { data: { title: 'Hola', localizations: [{ documentId: '{{f}}', locale: 'fr' }] } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key localizations', {
      key: 'localizations',
      path: 'localizations',
      source: 'body',
    }),
  },
  expectVersions('and no es version', 'f', ['en/draft', 'en/published', 'fr/draft', 'fr/published']),
]);

const LOCALIZATION = (locale: string, title: string, extra: Record<string, unknown> = {}) => ({
  id: ID,
  documentId: '{{a}}',
  title,
  locale,
  ...extra,
});
const invalidLocalizations = (param: string, path: string | null) =>
  errorBody(400, 'ValidationError', 'Invalid key localizations', {
    key: 'localizations',
    path,
    source: 'query',
    param,
  });
const bodyLocalizations = errorBody(400, 'ValidationError', 'Invalid key localizations', {
  key: 'localizations',
  path: 'localizations',
  source: 'body',
});

scenario('i18n: localizations are populatable, filterable and never writable', [
  {
    name: 'create en',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'Hello', views: 4, seo: { metaTitle: 'Seo' } } },
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
  {
    name: 'populate=localizations: the other locales with default fields',
    path: '/api/articles/{{a}}?fields[0]=title&populate=localizations',
    status: 200,
    check: ({ json }) => {
      expect(json.data.title).toBe('Hello');
      const byLocale = [...json.data.localizations].sort((x: { locale: string }, y: { locale: string }) =>
        x.locale.localeCompare(y.locale),
      );
      expect(byLocale).toEqual([
        {
          id: ID,
          documentId: json.data.documentId,
          ...articleFields({ title: 'Hallo', views: 4 }),
          createdAt: TS,
          updatedAt: TS,
          publishedAt: TS,
          locale: 'de',
        },
        {
          id: ID,
          documentId: json.data.documentId,
          ...articleFields({ title: 'Bonjour', views: 4 }),
          createdAt: TS,
          updatedAt: TS,
          publishedAt: TS,
          locale: 'fr',
        },
      ]);
    },
  },
  {
    name: 'populate=* includes localizations',
    path: '/api/articles/{{a}}?fields[0]=title&populate=*',
    status: 200,
    check: ({ json }) =>
      expect(json.data.localizations.map((l: { locale: string }) => l.locale).sort()).toEqual(['de', 'fr']),
  },
  {
    name: 'populate[localizations] with fields and sort',
    path: '/api/articles/{{a}}?fields[0]=title&populate[localizations][fields][0]=title&populate[localizations][fields][1]=locale&populate[localizations][sort]=locale:desc',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Hello',
      localizations: [LOCALIZATION('fr', 'Bonjour'), LOCALIZATION('de', 'Hallo')],
    }),
  },
  {
    name: 'populate[localizations] with filters',
    path: '/api/articles/{{a}}?fields[0]=title&populate[localizations][fields][0]=title&populate[localizations][fields][1]=locale&populate[localizations][filters][locale][$eq]=de',
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Hello', localizations: [LOCALIZATION('de', 'Hallo')] }),
  },
  {
    name: 'populate[localizations][count]',
    path: '/api/articles/{{a}}?fields[0]=title&populate[localizations][count]=true',
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Hello', localizations: { count: 2 } }),
  },
  {
    name: 'populate inside localizations: each its own seo',
    path: '/api/articles/{{a}}?fields[0]=title&populate[seo]=true&populate[localizations][fields][0]=title&populate[localizations][fields][1]=locale&populate[localizations][sort]=locale&populate[localizations][populate][seo]=true',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Hello',
      seo: { id: ID, metaTitle: 'Seo', metaDescription: null },
      localizations: [
        LOCALIZATION('de', 'Hallo', { seo: { id: ID, metaTitle: 'Seo', metaDescription: null } }),
        LOCALIZATION('fr', 'Bonjour', { seo: { id: ID, metaTitle: 'Seo', metaDescription: null } }),
      ],
    }),
    check: ({ json }) =>
      expect(
        new Set([json.data.seo.id, ...json.data.localizations.map((l: { seo: { id: number } }) => l.seo.id)]).size,
      ).toBe(3),
  },
  {
    name: 'a list with locale=*: each version lists the others',
    path: '/api/articles?locale=*&fields[0]=locale&sort=locale&populate[localizations][fields][0]=locale&populate[localizations][sort]=locale',
    status: 200,
    check: ({ json }) =>
      expect(
        json.data.map(
          (d: { locale: string; localizations: { locale: string }[] }) =>
            `${d.locale}: ${d.localizations.map((l) => l.locale).join(',')}`,
        ),
      ).toEqual(['de: en,fr', 'en: de,fr', 'fr: de,en']),
  },
  {
    name: 'filters on localizations',
    path: '/api/articles?fields[0]=title&filters[localizations][title][$eq]=Hallo',
    status: 200,
    equal: {
      data: [{ id: ID, documentId: '{{a}}', title: 'Hello' }],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },
    },
  },
  // Strapi joins localizations on document_id alone: the document's own row matches too (i18n-localizations-filters.test.ts).
  {
    name: "filters on localizations also test the document's own row",
    path: '/api/articles?fields[0]=title&filters[localizations][title][$eq]=Hello',
    status: 200,
    equal: {
      data: [{ id: ID, documentId: '{{a}}', title: 'Hello' }],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },
    },
  },
  {
    name: 'filters on localizations: no match',
    path: '/api/articles?fields[0]=title&filters[localizations][title][$eq]=Nope',
    status: 200,
    equal: { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } },
  },
  {
    name: 'localizations is no field',
    path: '/api/articles?fields[0]=localizations',
    status: 400,
    equal: invalidLocalizations('fields', null),
  },
  {
    name: 'populate=localizations on a type that is not localized',
    path: '/api/tags?populate=localizations',
    status: 400,
    equal: invalidLocalizations('populate', 'localizations'),
  },
  {
    name: 'filters[localizations] on a type that is not localized',
    path: '/api/tags?filters[localizations][name][$eq]=x',
    status: 400,
    equal: invalidLocalizations('filters', null),
  },
  {
    name: 'POST with localizations: 400',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', localizations: [] } },
    status: 400,
    equal: bodyLocalizations,
  },
  {
    name: 'POST with localizations as connect: 400',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', localizations: { connect: ['{{a}}'] } } },
    status: 400,
    equal: bodyLocalizations,
  },
  {
    name: 'PUT with localizations null: 400',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr',
    body: { data: { title: 'x', localizations: null } },
    status: 400,
    equal: bodyLocalizations,
  },
  {
    name: 'PUT ?status=draft with localizations: 400',
    method: 'PUT',
    path: '/api/articles/{{a}}?status=draft',
    body: { data: { localizations: [{ documentId: '{{a}}', locale: 'fr' }] } },
    status: 400,
    equal: bodyLocalizations,
  },
  {
    name: 'the refused writes changed nothing',
    path: '/api/articles/{{a}}?locale=fr&status=draft&fields[0]=title',
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Bonjour' }),
  },
]);
