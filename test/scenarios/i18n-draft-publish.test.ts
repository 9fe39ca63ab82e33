import { expect } from 'vitest';
import { seedAuthors } from '../support/blog-relations.js';
import { articleRows, expectVersions, saveRowIds } from '../support/i18n.js';
import { noOrphanLinks } from '../support/link-rows.js';
import { ref } from '../support/relations.js';
import { COMPONENT_TABLES, countAll, expectCounts, saveCounts } from '../support/row-counts.js';
import { dbStep, errorBody, scenario, type Step } from '../support/scenario.js';
import { ID, list, single, TS } from '../support/shapes.js';

/*
 * Draft & publish × locale (reference §5, §6; conformance 13 fr-draft-localization and 20
 * fr-draft-only-change, localizations-with-status-draft): every locale has its own draft and
 * published rows; a status=draft write touches only that locale's draft; publishing one locale
 * replaces only its own published row; DELETE of one locale removes its rows, components and links
 * and leaves the other locales as they were.
 */

const notFound = errorBody(404, 'NotFoundError', 'Not Found', {});
/** `{{a}}` read with `fields[0]=title` (and what `extra` adds). */
const titled = (value: string, extra: Record<string, unknown> = {}) => ({
  id: ID,
  documentId: '{{a}}',
  title: value,
  ...extra,
});

/**
 * The row ids of `{{a}}` now are those saved as `vars[saved]`, except the versions listed in
 * `changed`, which got new ids, and those in `removed`, which are gone.
 */
function expectRowIds(name: string, saved: string, changed: string[], removed: string[] = []): Step {
  return dbStep(name, async ({ server, vars }) => {
    const before = Object.fromEntries(
      Object.entries(vars[saved] as Record<string, number>).filter(([key]) => !removed.includes(key)),
    );
    const now = Object.fromEntries(
      (await articleRows(server, vars.a)).map((row) => [`${row.locale}/${row.status}`, row.id]),
    );
    expect(Object.keys(now).sort()).toEqual(Object.keys(before).sort());
    for (const key of Object.keys(before)) {
      if (changed.includes(key)) expect(now[key], key).not.toBe(before[key]);
      else expect(now[key], key).toBe(before[key]);
    }
  });
}

/** `locale/status title` of every row of `{{a}}`. */
const expectTitles = (name: string, expected: string[]): Step =>
  dbStep(name, async ({ server, vars }) =>
    expect((await articleRows(server, vars.a)).map((row) => `${row.locale}/${row.status} ${row.title}`)).toEqual(
      expected,
    ),
  );

scenario('i18n × draft & publish: each locale has its own draft and published rows', [
  ...seedAuthors,
  {
    name: 'create en (published), author Ada',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'Hello', author: '{{ada}}', seo: { metaTitle: 'Seo' } } },
    status: 201,
    save: { a: 'data.documentId' },
  },
  {
    name: 'create fr (published), author Grace',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title',
    body: { data: { title: 'Bonjour', author: '{{grace}}' } },
    status: 200,
  },
  saveRowIds('remember the row ids', 'a', 'ids1'),
  expectTitles('two rows per locale', [
    'en/draft Hello',
    'en/published Hello',
    'fr/draft Bonjour',
    'fr/published Bonjour',
  ]),

  // a draft write in fr
  {
    name: 'PUT fr ?status=draft: the fr draft (publishedAt null)',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&status=draft&fields[0]=title&fields[1]=publishedAt',
    body: { data: { title: 'Bonjour (brouillon)' } },
    status: 200,
    equal: single(titled('Bonjour (brouillon)', { publishedAt: null })),
  },
  expectTitles('only the fr draft changed', [
    'en/draft Hello',
    'en/published Hello',
    'fr/draft Bonjour (brouillon)',
    'fr/published Bonjour',
  ]),
  expectRowIds('no row was replaced', 'ids1', []),
  {
    name: 'fr published still reads the old title (conformance 13 fr-published-unchanged)',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title',
    status: 200,
    equal: single(titled('Bonjour')),
  },
  {
    name: 'publicationFilter=modified is per locale: fr is modified',
    path: '/api/articles?locale=*&status=draft&publicationFilter=modified&fields[0]=title&fields[1]=locale',
    status: 200,
    equal: list([{ id: ID, documentId: '{{a}}', title: 'Bonjour (brouillon)', locale: 'fr' }]),
  },
  {
    name: 'publicationFilter=unmodified in en',
    path: '/api/articles?status=draft&publicationFilter=unmodified&fields[0]=title',
    status: 200,
    equal: list([titled('Hello')]),
  },
  {
    name: 'the published en sees the published fr among its localizations',
    path: '/api/articles/{{a}}?fields[0]=title&populate[localizations][fields][0]=title&populate[localizations][fields][1]=publishedAt',
    status: 200,
    equal: single(
      titled('Hello', { localizations: [{ id: ID, documentId: '{{a}}', title: 'Bonjour', publishedAt: TS }] }),
    ),
  },
  {
    name: 'the en draft sees the fr draft',
    path: '/api/articles/{{a}}?status=draft&fields[0]=title&populate[localizations][fields][0]=title&populate[localizations][fields][1]=publishedAt',
    status: 200,
    equal: single(
      titled('Hello', {
        localizations: [{ id: ID, documentId: '{{a}}', title: 'Bonjour (brouillon)', publishedAt: null }],
      }),
    ),
  },

  // publishing fr
  {
    name: 'PUT fr with empty data publishes the fr draft',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title&fields[1]=publishedAt',
    body: { data: {} },
    status: 200,
    equal: single(titled('Bonjour (brouillon)', { publishedAt: TS })),
  },
  expectRowIds('only the fr published row was replaced', 'ids1', ['fr/published']),
  expectTitles('en untouched', [
    'en/draft Hello',
    'en/published Hello',
    'fr/draft Bonjour (brouillon)',
    'fr/published Bonjour (brouillon)',
  ]),
  {
    name: 'the published fr keeps its own author',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title&populate[author][fields][0]=name',
    status: 200,
    equal: single(titled('Bonjour (brouillon)', { author: ref('grace', { name: 'Grace Hopper' }) })),
  },
  {
    name: 'and en its own',
    path: '/api/articles/{{a}}?fields[0]=title&populate[author][fields][0]=name',
    status: 200,
    equal: single(titled('Hello', { author: ref('ada', { name: 'Ada Lovelace' }) })),
  },
  saveRowIds('remember the row ids again', 'a', 'ids2'),

  // a draft write in en, then publishing en
  {
    name: 'PUT en ?status=draft',
    method: 'PUT',
    path: '/api/articles/{{a}}?status=draft&fields[0]=title&populate[author][fields][0]=name',
    body: { data: { title: 'Hello (draft)', author: '{{grace}}' } },
    status: 200,
    equal: single(titled('Hello (draft)', { author: ref('grace', { name: 'Grace Hopper' }) })),
  },
  expectRowIds('no row replaced', 'ids2', []),
  {
    name: 'the published en keeps title and author',
    path: '/api/articles/{{a}}?fields[0]=title&populate[author][fields][0]=name',
    status: 200,
    equal: single(titled('Hello', { author: ref('ada', { name: 'Ada Lovelace' }) })),
  },
  {
    name: 'PUT en publishes',
    method: 'PUT',
    path: '/api/articles/{{a}}?fields[0]=title&populate[author][fields][0]=name',
    body: { data: {} },
    status: 200,
    equal: single(titled('Hello (draft)', { author: ref('grace', { name: 'Grace Hopper' }) })),
  },
  expectRowIds('only the en published row was replaced', 'ids2', ['en/published']),

  // a locale that only has a draft
  {
    name: 'PUT de ?status=draft: a draft-only locale',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=de&status=draft&fields[0]=title',
    body: { data: { title: 'Hallo' } },
    status: 200,
    equal: single(titled('Hallo')),
  },
  {
    name: 'GET ?locale=de: 404 (no published de)',
    path: '/api/articles/{{a}}?locale=de',
    status: 404,
    equal: notFound,
  },
  {
    name: 'list ?locale=* leaves de out',
    path: '/api/articles?locale=*&fields[0]=locale&sort=locale',
    status: 200,
    check: ({ json }) => expect(json.data.map((d: { locale: string }) => d.locale)).toEqual(['en', 'fr']),
  },
  {
    name: 'list ?locale=*&status=draft has it',
    path: '/api/articles?locale=*&status=draft&fields[0]=locale&sort=locale',
    status: 200,
    check: ({ json }) => expect(json.data.map((d: { locale: string }) => d.locale)).toEqual(['de', 'en', 'fr']),
  },
  {
    name: 'publicationFilter=never-published finds the de draft',
    path: '/api/articles?locale=*&status=draft&publicationFilter=never-published&fields[0]=title',
    status: 200,
    equal: list([titled('Hallo')]),
  },
  {
    name: 'never-published-document does not (the document has published versions)',
    path: '/api/articles?locale=*&status=draft&publicationFilter=never-published-document&fields[0]=title',
    status: 200,
    equal: list([], { pageCount: 0 }),
  },
  {
    name: 'localizations of the published en: fr only',
    path: '/api/articles/{{a}}?fields[0]=title&populate[localizations][fields][0]=locale',
    status: 200,
    equal: single(titled('Hello (draft)', { localizations: [{ id: ID, documentId: '{{a}}', locale: 'fr' }] })),
  },
  {
    name: 'localizations of the en draft: de and fr',
    path: '/api/articles/{{a}}?status=draft&fields[0]=title&populate[localizations][fields][0]=locale&populate[localizations][sort]=locale',
    status: 200,
    equal: single(
      titled('Hello (draft)', {
        localizations: [
          { id: ID, documentId: '{{a}}', locale: 'de' },
          { id: ID, documentId: '{{a}}', locale: 'fr' },
        ],
      }),
    ),
  },
  {
    name: 'PUT de publishes it',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=de&fields[0]=title&fields[1]=locale',
    body: { data: {} },
    status: 200,
    equal: single(titled('Hallo', { locale: 'de' })),
  },
  expectVersions('three locales, two rows each', 'a', [
    'de/draft',
    'de/published',
    'en/draft',
    'en/published',
    'fr/draft',
    'fr/published',
  ]),
]);

scenario('i18n × delete: one locale, then every locale', [
  ...seedAuthors,
  {
    name: 'seed tag',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    body: { data: { name: 'i18n' } },
    status: 201,
    save: { t: 'data.documentId' },
  },
  saveCounts('count rows before any article', 'empty'),
  {
    name: 'create en with an author, a tag, seo and blocks',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: {
      data: {
        title: 'Hello',
        author: '{{ada}}',
        tags: ['{{t}}'],
        seo: { metaTitle: 'Seo', keywords: [{ word: 'k' }] },
        blocks: [{ __component: 'shared.quote', title: 'Q', author: '{{grace}}' }],
      },
    },
    status: 201,
    save: { a: 'data.documentId' },
  },
  {
    name: 'create fr with its own author and tag',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title',
    body: { data: { title: 'Bonjour', author: '{{grace}}', tags: ['{{t}}'] } },
    status: 200,
  },
  {
    name: 'create de as a draft',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=de&status=draft&fields[0]=title',
    body: { data: { title: 'Hallo' } },
    status: 200,
  },
  saveCounts('count rows with three locales', 'three'),
  saveRowIds('remember the row ids', 'a', 'ids'),
  { name: 'DELETE ?locale=fr', method: 'DELETE', path: '/api/articles/{{a}}?locale=fr', status: 204 },
  expectVersions('the fr rows are gone, the others stay', 'a', ['de/draft', 'en/draft', 'en/published']),
  expectRowIds('the remaining rows are the same rows', 'ids', [], ['fr/draft', 'fr/published']),
  expectCounts('the fr rows took their seo, keyword, quote and author link with them', 'three', {
    components_shared_seos: -2,
    components_shared_keywords: -2,
    components_shared_seos_cmps: -2,
    components_shared_quotes: -2,
    components_shared_quotes_author_lnk: -2,
    articles_cmps: -4,
  }),
  noOrphanLinks('no link row points at a deleted row'),
  { name: 'fr: 404', path: '/api/articles/{{a}}?locale=fr', status: 404, equal: notFound },
  { name: 'fr draft: 404', path: '/api/articles/{{a}}?locale=fr&status=draft', status: 404, equal: notFound },
  {
    name: 'en keeps its relations, seo and blocks',
    path: '/api/articles/{{a}}?fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name&populate[seo][populate][keywords][fields][0]=word&populate[blocks][on][shared.quote][populate][author][fields][0]=name',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Hello',
      author: ref('ada', { name: 'Ada Lovelace' }),
      tags: [ref('t', { name: 'i18n' })],
      seo: { id: ID, metaTitle: 'Seo', metaDescription: null, keywords: [{ id: ID, word: 'k' }] },
      blocks: [
        { __component: 'shared.quote', id: ID, title: 'Q', body: null, author: ref('grace', { name: 'Grace Hopper' }) },
      ],
    }),
  },
  {
    name: 'Grace lists no article any more (her fr one is gone)',
    path: '/api/authors/{{grace}}?fields[0]=name&populate[articles][fields][0]=title',
    status: 200,
    equal: single({ id: ID, documentId: '{{grace}}', name: 'Grace Hopper', articles: [] }),
  },
  {
    name: 'the tag lists the en article only',
    path: '/api/tags/{{t}}?fields[0]=name&populate[articles][fields][0]=title&populate[articles][fields][1]=locale',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{t}}',
      name: 'i18n',
      articles: [{ id: ID, documentId: '{{a}}', title: 'Hello', locale: 'en' }],
    }),
  },
  {
    name: 'en localizations: the de draft only in the draft view',
    path: '/api/articles/{{a}}?status=draft&fields[0]=title&populate[localizations][fields][0]=locale',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Hello',
      localizations: [{ id: ID, documentId: '{{a}}', locale: 'de' }],
    }),
  },
  {
    name: 'PUT ?locale=fr creates fr again: a new localization, no relation',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=fr&fields[0]=title&populate[author][fields][0]=name&populate[seo]=true',
    body: { data: { title: 'Bonjour encore' } },
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a}}',
      title: 'Bonjour encore',
      author: null,
      seo: { id: ID, metaTitle: 'Seo', metaDescription: null },
    }),
  },
  { name: 'DELETE without locale removes en only', method: 'DELETE', path: '/api/articles/{{a}}', status: 204 },
  expectVersions('de and fr remain', 'a', ['de/draft', 'fr/draft', 'fr/published']),
  { name: 'GET without locale: 404', path: '/api/articles/{{a}}', status: 404, equal: notFound },
  {
    name: 'Ada lists no article',
    path: '/api/authors/{{ada}}?fields[0]=name&populate[articles][fields][0]=title',
    status: 200,
    equal: single({ id: ID, documentId: '{{ada}}', name: 'Ada Lovelace', articles: [] }),
  },
  {
    name: 'DELETE ?locale=* removes the rest, the draft-only de included',
    method: 'DELETE',
    path: '/api/articles/{{a}}?locale=*',
    status: 204,
  },
  expectVersions('no row left', 'a', []),
  dbStep(
    'every component, link and media row is gone: the counts are those before the article',
    async ({ server, vars }) => {
      const before = vars.empty as Record<(typeof COMPONENT_TABLES)[number], number>;
      expect(await countAll(server)).toEqual(before);
    },
  ),
  noOrphanLinks('no dangling link'),
  {
    name: 'list ?locale=*&status=draft is empty',
    path: '/api/articles?locale=*&status=draft',
    status: 200,
    equal: list([], { pageCount: 0 }),
  },
]);
