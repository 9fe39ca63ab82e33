import { expect } from 'vitest';
import { expectVersions, fullArticle } from '../support/i18n.js';
import { errorBody, scenario, type Step } from '../support/scenario.js';
import { DOC, ID, list, single, TS } from '../support/shapes.js';

/*
 * The `locale` query parameter on every content route, as Strapi 5.54 answers it (behaviour
 * reference §6, conformance 13 and 20): the default locale when absent, `*` on lists and DELETE,
 * Strapi's 400s for `*` on writes and for malformed codes, well-formed unconfigured codes accepted,
 * `locale` in bodies ignored, and no effect on types that are not localized (tags, the global
 * single type). Filters, sort and pagination combine with the locale.
 */

const notFound = errorBody(404, 'NotFoundError', 'Not Found', {});
const badFormat = errorBody(
  400,
  'ValidationError',
  "Invalid parameter at 'locale'. Locale must be a valid BCP 47 format (e.g. en, en-US, zh-Hans).",
  {},
);
const starWrite = errorBody(
  400,
  'ValidationError',
  'Invalid locale param * provided. Document locales must be strings.',
  {},
);
const entry = (documentVar: string, title: string, locale?: string) => ({
  id: ID,
  documentId: `{{${documentVar}}}`,
  title,
  ...(locale ? { locale } : {}),
});
const TITLE_LOCALE = 'fields[0]=title&fields[1]=locale';

/** Malformed locale codes (Strapi's `^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$`). */
const MALFORMED = ['not_a_locale!', 'e', 'english', 'en_US', 'en-', 'en--US', '12', 'en-US-x', 'fr%20', 'en-abcdefghi'];
/** Well-formed codes no project configured: accepted, nothing stored under them. */
const WELL_FORMED = ['de', 'EN', 'zh-Hans', 'sr-Latn-RS', 'es-419', 'abc-abcdefgh-abcdefgh-abcdefgh-abcd'];

/** One route with a malformed locale: 400 with Strapi's message. */
const malformedOn = (method: string, path: string, code: string, body?: unknown): Step => ({
  name: `${method} ${path.replace('{{a}}', ':id')} ?locale=${code}: 400`,
  method,
  path: `${path}${path.includes('?') ? '&' : '?'}locale=${code}`,
  ...(body === undefined ? {} : { body }),
  status: 400,
  equal: badFormat,
});

scenario('i18n on content routes: the locale parameter', [
  // ── create ────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'POST without locale creates in the default locale en',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Hello', views: 3, category: 'tech' } },
    status: 201,
    save: { a: 'data.documentId' },
    equal: single(fullArticle(null, 'en', { title: 'Hello', views: 3, category: 'tech' })),
  },
  {
    name: 'POST ?locale=en names it explicitly',
    method: 'POST',
    path: `/api/articles?locale=en&${TITLE_LOCALE}`,
    body: { data: { title: 'Explicit en' } },
    status: 201,
    save: { b: 'data.documentId' },
    equal: single({ id: ID, documentId: DOC, title: 'Explicit en', locale: 'en' }),
  },
  {
    name: 'POST ?locale=fr creates a French-only document',
    method: 'POST',
    path: '/api/articles?locale=fr',
    body: { data: { title: 'Seulement en français', views: 7 } },
    status: 201,
    save: { fr: 'data.documentId' },
    equal: single(fullArticle(null, 'fr', { title: 'Seulement en français', views: 7 })),
  },
  expectVersions('the French-only document has a fr draft and a fr published row, nothing else', 'fr', [
    'fr/draft',
    'fr/published',
  ]),
  {
    name: 'POST ?locale=de: a well-formed locale no project configured is accepted',
    method: 'POST',
    path: `/api/articles?locale=de&${TITLE_LOCALE}`,
    body: { data: { title: 'Nur deutsch' } },
    status: 201,
    save: { de: 'data.documentId' },
    equal: single({ id: ID, documentId: DOC, title: 'Nur deutsch', locale: 'de' }),
  },
  {
    name: 'POST ?locale=*: 400',
    method: 'POST',
    path: '/api/articles?locale=*',
    body: { data: { title: 'x' } },
    status: 400,
    equal: starWrite,
  },
  {
    name: 'POST ?locale=fr&status=draft: a fr draft only',
    method: 'POST',
    path: `/api/articles?locale=fr&status=draft&${TITLE_LOCALE}&fields[2]=publishedAt`,
    body: { data: { title: 'Brouillon' } },
    status: 201,
    save: { frDraft: 'data.documentId' },
    equal: single({ id: ID, documentId: DOC, title: 'Brouillon', locale: 'fr', publishedAt: null }),
  },
  expectVersions('the fr draft has no published row and no other locale', 'frDraft', ['fr/draft']),

  // ── locale in the body ────────────────────────────────────────────────────────────────────────
  {
    name: 'locale in a POST body is ignored (default locale)',
    method: 'POST',
    path: `/api/articles?${TITLE_LOCALE}`,
    body: { data: { title: 'Body says fr', locale: 'fr' } },
    status: 201,
    save: { body: 'data.documentId' },
    equal: single({ id: ID, documentId: DOC, title: 'Body says fr', locale: 'en' }),
  },
  {
    name: 'locale in a POST body is ignored (query locale)',
    method: 'POST',
    path: `/api/articles?locale=fr&${TITLE_LOCALE}`,
    body: { data: { title: 'Body says de', locale: 'de' } },
    status: 201,
    equal: single({ id: ID, documentId: DOC, title: 'Body says de', locale: 'fr' }),
  },
  {
    name: 'locale in a PUT body is ignored: the en version is updated',
    method: 'PUT',
    path: `/api/articles/{{body}}?${TITLE_LOCALE}`,
    body: { data: { title: 'Body says de (en)', locale: 'de' } },
    status: 200,
    equal: single(entry('body', 'Body says de (en)', 'en')),
  },
  expectVersions('and no de version was created', 'body', ['en/draft', 'en/published']),

  // ── read one ──────────────────────────────────────────────────────────────────────────────────
  {
    name: 'GET one without locale: the default locale',
    path: `/api/articles/{{a}}?${TITLE_LOCALE}`,
    status: 200,
    equal: single(entry('a', 'Hello', 'en')),
  },
  {
    name: 'GET one ?locale=en',
    path: `/api/articles/{{a}}?locale=en&${TITLE_LOCALE}`,
    status: 200,
    equal: single(entry('a', 'Hello', 'en')),
  },
  {
    name: 'GET one ?locale=fr of an en-only document: 404',
    path: '/api/articles/{{a}}?locale=fr',
    status: 404,
    equal: notFound,
  },
  {
    name: 'GET one of a fr-only document without locale: 404',
    path: '/api/articles/{{fr}}',
    status: 404,
    equal: notFound,
  },
  {
    name: 'GET one of a fr-only document ?locale=fr',
    path: `/api/articles/{{fr}}?locale=fr&${TITLE_LOCALE}`,
    status: 200,
    equal: single(entry('fr', 'Seulement en français', 'fr')),
  },
  {
    name: 'GET one ?locale=* looks up a locale named * : 404',
    path: '/api/articles/{{fr}}?locale=*',
    status: 404,
    equal: notFound,
  },
  {
    name: 'GET one of a fr draft without status: 404',
    path: '/api/articles/{{frDraft}}?locale=fr',
    status: 404,
    equal: notFound,
  },
  {
    name: 'GET one of a fr draft with status=draft',
    path: `/api/articles/{{frDraft}}?locale=fr&status=draft&${TITLE_LOCALE}`,
    status: 200,
    equal: single(entry('frDraft', 'Brouillon', 'fr')),
  },

  // ── lists ─────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'list without locale: published en documents',
    path: `/api/articles?${TITLE_LOCALE}&sort=title`,
    status: 200,
    equal: list([entry('body', 'Body says de (en)', 'en'), entry('b', 'Explicit en', 'en'), entry('a', 'Hello', 'en')]),
  },
  {
    name: 'list ?locale=fr',
    path: `/api/articles?locale=fr&${TITLE_LOCALE}&sort=title`,
    status: 200,
    equal: list([
      { id: ID, documentId: DOC, title: 'Body says de', locale: 'fr' },
      entry('fr', 'Seulement en français', 'fr'),
    ]),
  },
  {
    name: 'list ?locale=fr&status=draft includes the fr draft',
    path: `/api/articles?locale=fr&status=draft&fields[0]=title&sort=title`,
    status: 200,
    check: ({ json }) =>
      expect(json.data.map((d: { title: string }) => d.title)).toEqual([
        'Body says de',
        'Brouillon',
        'Seulement en français',
      ]),
  },
  {
    name: 'list ?locale=de',
    path: `/api/articles?locale=de&${TITLE_LOCALE}`,
    status: 200,
    equal: list([entry('de', 'Nur deutsch', 'de')]),
  },
  {
    name: 'list ?locale=* : every published version of every locale',
    path: `/api/articles?locale=*&${TITLE_LOCALE}&sort=title`,
    status: 200,
    equal: list([
      { id: ID, documentId: DOC, title: 'Body says de', locale: 'fr' },
      entry('body', 'Body says de (en)', 'en'),
      entry('b', 'Explicit en', 'en'),
      entry('a', 'Hello', 'en'),
      entry('de', 'Nur deutsch', 'de'),
      entry('fr', 'Seulement en français', 'fr'),
    ]),
  },
  {
    name: 'list ?locale=*&status=draft: every draft',
    path: '/api/articles?locale=*&status=draft&fields[0]=title&pagination[pageSize]=1',
    status: 200,
    match: { meta: { pagination: { page: 1, pageSize: 1, pageCount: 7, total: 7 } } },
  },
  ...WELL_FORMED.filter((code) => code !== 'de' && code !== 'EN').map((code): Step => ({
    name: `list ?locale=${code}: accepted, empty`,
    path: `/api/articles?locale=${code}`,
    status: 200,
    equal: list([], { pageCount: 0 }),
  })),
  {
    name: 'list ?locale=EN is accepted (matching en depends on the database collation)',
    path: '/api/articles?locale=EN&fields[0]=title',
    status: 200,
  },

  // ── filters, sort, search and pagination with a locale ────────────────────────────────────────
  {
    name: 'filters[locale] with locale=*',
    path: '/api/articles?locale=*&filters[locale][$eq]=fr&fields[0]=title&sort=title',
    status: 200,
    equal: list([{ id: ID, documentId: DOC, title: 'Body says de' }, entry('fr', 'Seulement en français')]),
  },
  {
    name: 'filters[locale][$in] with locale=*',
    path: '/api/articles?locale=*&filters[locale][$in][0]=de&filters[locale][$in][1]=fr&fields[0]=locale&sort=locale',
    status: 200,
    check: ({ json }) => expect(json.data.map((d: { locale: string }) => d.locale)).toEqual(['de', 'fr', 'fr']),
  },
  {
    name: 'filters[locale] against the query locale: no match',
    path: '/api/articles?filters[locale][$eq]=fr&fields[0]=title',
    status: 200,
    equal: list([], { pageCount: 0 }),
  },
  {
    name: 'filters[locale][$ne] within the default locale',
    path: '/api/articles?filters[locale][$ne]=fr&fields[0]=title&sort=title',
    status: 200,
    check: ({ json }) => expect(json.meta.pagination.total).toBe(3),
  },
  {
    name: 'an attribute filter applies within the locale',
    path: '/api/articles?locale=fr&filters[views][$eq]=7&fields[0]=title',
    status: 200,
    equal: list([entry('fr', 'Seulement en français')]),
  },
  {
    name: 'the same filter in en finds nothing',
    path: '/api/articles?filters[views][$eq]=7&fields[0]=title',
    status: 200,
    equal: list([], { pageCount: 0 }),
  },
  {
    name: 'sort=locale:desc,title with locale=*',
    path: '/api/articles?locale=*&sort=locale:desc,title&fields[0]=locale&fields[1]=title',
    status: 200,
    check: ({ json }) =>
      expect(json.data.map((d: { locale: string; title: string }) => `${d.locale} ${d.title}`)).toEqual([
        'fr Body says de',
        'fr Seulement en français',
        'en Body says de (en)',
        'en Explicit en',
        'en Hello',
        'de Nur deutsch',
      ]),
  },
  {
    name: '_q searches within the locale',
    path: '/api/articles?locale=fr&_q=seulement&fields[0]=title',
    status: 200,
    equal: list([entry('fr', 'Seulement en français')]),
  },
  {
    name: '_q with locale=*',
    path: '/api/articles?locale=*&_q=body%20says&fields[0]=locale&sort=locale',
    status: 200,
    check: ({ json }) => expect(json.data.map((d: { locale: string }) => d.locale)).toEqual(['en', 'fr']),
  },
  {
    name: 'pagination counts rows of every locale with locale=*',
    path: '/api/articles?locale=*&fields[0]=title&sort=title&pagination[page]=2&pagination[pageSize]=4',
    status: 200,
    equal: {
      data: [entry('de', 'Nur deutsch'), entry('fr', 'Seulement en français')],
      meta: { pagination: { page: 2, pageSize: 4, pageCount: 2, total: 6 } },
    },
  },
  {
    name: 'offset pagination with locale=*',
    path: '/api/articles?locale=*&fields[0]=title&sort=title&pagination[start]=5&pagination[limit]=10',
    status: 200,
    equal: { data: [entry('fr', 'Seulement en français')], meta: { pagination: { start: 5, limit: 10, total: 6 } } },
  },

  // ── update ────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'PUT without locale updates the en version',
    method: 'PUT',
    path: `/api/articles/{{a}}?${TITLE_LOCALE}`,
    body: { data: { title: 'Hello v2' } },
    status: 200,
    equal: single(entry('a', 'Hello v2', 'en')),
  },
  {
    name: 'PUT ?locale=fr on a fr-only document',
    method: 'PUT',
    path: `/api/articles/{{fr}}?locale=fr&${TITLE_LOCALE}`,
    body: { data: { title: 'Seulement (v2)' } },
    status: 200,
    equal: single(entry('fr', 'Seulement (v2)', 'fr')),
  },
  {
    name: 'PUT ?locale=* : 400',
    method: 'PUT',
    path: '/api/articles/{{a}}?locale=*',
    body: { data: { title: 'x' } },
    status: 400,
    equal: starWrite,
  },
  {
    name: 'PUT ?locale=fr on an unknown documentId: 404',
    method: 'PUT',
    path: '/api/articles/doesnotexist00000000000x?locale=fr',
    body: { data: { title: 'x' } },
    status: 404,
    equal: notFound,
  },
  expectVersions('the refused writes left the en document alone', 'a', ['en/draft', 'en/published']),

  // ── malformed locales on every route ──────────────────────────────────────────────────────────
  ...MALFORMED.map((code) => malformedOn('GET', '/api/articles', code)),
  malformedOn('GET', '/api/articles/{{a}}', 'en_US'),
  malformedOn('POST', '/api/articles', 'en_US', { data: { title: 'x' } }),
  malformedOn('PUT', '/api/articles/{{a}}', 'en_US', { data: { title: 'x' } }),
  malformedOn('DELETE', '/api/articles/{{a}}', 'en_US'),
  malformedOn('GET', '/api/tags', 'en_US'),
  malformedOn('GET', '/api/global', 'en_US'),
  {
    name: 'a well-formed code over 35 characters: 400 on the locale parameter',
    path: '/api/articles?locale=abc-abcdefgh-abcdefgh-abcdefgh-abcde',
    status: 400,
    match: {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: expect.stringMatching(/^Invalid parameter at 'locale'\. /),
      },
    },
  },
  expectVersions('nothing was written by the refused requests', 'a', ['en/draft', 'en/published']),

  // ── delete ────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'DELETE ?locale=fr of an en-only document: 204, nothing deleted',
    method: 'DELETE',
    path: '/api/articles/{{a}}?locale=fr',
    status: 204,
  },
  expectVersions('the en versions are still there', 'a', ['en/draft', 'en/published']),
  {
    name: 'DELETE without locale of a fr-only document: 204, nothing deleted',
    method: 'DELETE',
    path: '/api/articles/{{fr}}',
    status: 204,
  },
  expectVersions('the fr versions are still there', 'fr', ['fr/draft', 'fr/published']),
  {
    name: 'DELETE ?locale=fr deletes the fr document',
    method: 'DELETE',
    path: '/api/articles/{{fr}}?locale=fr',
    status: 204,
  },
  expectVersions('no row left', 'fr', []),
  {
    name: 'DELETE ?locale=* deletes a draft-only document too',
    method: 'DELETE',
    path: '/api/articles/{{frDraft}}?locale=*',
    status: 204,
  },
  expectVersions('no draft left', 'frDraft', []),
  {
    name: 'DELETE ?locale=* of an unknown documentId: 204',
    method: 'DELETE',
    path: '/api/articles/doesnotexist00000000000x?locale=*',
    status: 204,
  },
  {
    name: 'list ?locale=* after the deletes',
    path: '/api/articles?locale=*&status=draft&fields[0]=title&fields[1]=locale&sort=title',
    status: 200,
    check: ({ json }) =>
      expect(json.data.map((d: { title: string; locale: string }) => `${d.locale} ${d.title}`)).toEqual([
        'fr Body says de',
        'en Body says de (en)',
        'en Explicit en',
        'en Hello v2',
        'de Nur deutsch',
      ]),
  },
]);

scenario('i18n on content routes: types that are not localized ignore the locale', [
  {
    name: 'POST /api/tags?locale=fr',
    method: 'POST',
    path: '/api/tags?locale=fr',
    body: { data: { name: 'neutral', locale: 'fr' } },
    status: 201,
    save: { t: 'data.documentId' },
    equal: single({ id: ID, documentId: DOC, name: 'neutral', createdAt: TS, updatedAt: TS, publishedAt: TS }),
  },
  {
    name: 'listed under any locale',
    path: '/api/tags?locale=de&fields[0]=name',
    status: 200,
    equal: list([{ id: ID, documentId: '{{t}}', name: 'neutral' }]),
  },
  {
    name: 'and under locale=*',
    path: '/api/tags?locale=*&fields[0]=name',
    status: 200,
    equal: list([{ id: ID, documentId: '{{t}}', name: 'neutral' }]),
  },
  {
    name: 'GET one ?locale=it',
    path: '/api/tags/{{t}}?locale=it&fields[0]=name',
    status: 200,
    equal: single({ id: ID, documentId: '{{t}}', name: 'neutral' }),
  },
  {
    name: 'GET one ?locale=* (no 404: the locale is not looked up)',
    path: '/api/tags/{{t}}?locale=*&fields[0]=name',
    status: 200,
    equal: single({ id: ID, documentId: '{{t}}', name: 'neutral' }),
  },
  {
    name: 'PUT ?locale=fr updates the only row',
    method: 'PUT',
    path: '/api/tags/{{t}}?locale=fr&fields[0]=name',
    body: { data: { name: 'renamed' } },
    status: 200,
    equal: single({ id: ID, documentId: '{{t}}', name: 'renamed' }),
  },
  {
    name: 'PUT ?locale=* is no error either',
    method: 'PUT',
    path: '/api/tags/{{t}}?locale=*&fields[0]=name',
    body: { data: { name: 'renamed again' } },
    status: 200,
    equal: single({ id: ID, documentId: '{{t}}', name: 'renamed again' }),
  },
  {
    name: 'one tag row, its locale column unused',
    path: '/_health',
    status: 204,
    check: async (_r, { server, vars }) => {
      const rows = await server.app.db.all({
        sql: `select locale from tags where document_id = '${String(vars.t)}'`,
        params: [],
      });
      expect(rows).toEqual([{ locale: null }]);
    },
  },
  { name: 'DELETE ?locale=fr deletes it', method: 'DELETE', path: '/api/tags/{{t}}?locale=fr', status: 204 },
  { name: 'gone', path: '/api/tags/{{t}}', status: 404, equal: notFound },

  // the global single type (conformance 20: single-type-ignores-locale-and-status)
  {
    name: 'GET /api/global?locale=fr with nothing stored: 404',
    path: '/api/global?locale=fr',
    status: 404,
    equal: notFound,
  },
  {
    name: 'PUT /api/global?locale=fr&status=draft creates the (published) document',
    method: 'PUT',
    path: '/api/global?locale=fr&status=draft&fields[0]=siteName&fields[1]=publishedAt',
    body: { data: { siteName: 'Site' } },
    status: 200,
    save: { g: 'data.documentId' },
    equal: single({ id: ID, documentId: DOC, siteName: 'Site', publishedAt: TS }),
  },
  {
    name: 'GET without locale reads it',
    path: '/api/global?fields[0]=siteName',
    status: 200,
    equal: single({ id: ID, documentId: '{{g}}', siteName: 'Site' }),
  },
  {
    name: 'GET ?locale=de reads it',
    path: '/api/global?locale=de&fields[0]=siteName',
    status: 200,
    equal: single({ id: ID, documentId: '{{g}}', siteName: 'Site' }),
  },
  {
    name: 'GET ?locale=* reads it',
    path: '/api/global?locale=*&fields[0]=siteName',
    status: 200,
    equal: single({ id: ID, documentId: '{{g}}', siteName: 'Site' }),
  },
  {
    name: 'PUT ?locale=de updates the same document',
    method: 'PUT',
    path: '/api/global?locale=de&fields[0]=siteName',
    body: { data: { siteName: 'Site v2' } },
    status: 200,
    equal: single({ id: ID, documentId: '{{g}}', siteName: 'Site v2' }),
  },
  {
    name: 'PUT ?locale=* updates it too',
    method: 'PUT',
    path: '/api/global?locale=*&fields[0]=siteName',
    body: { data: { siteName: 'Site v3' } },
    status: 200,
    equal: single({ id: ID, documentId: '{{g}}', siteName: 'Site v3' }),
  },
  {
    name: 'still one globals row',
    path: '/_health',
    status: 204,
    check: async (_r, { server }) =>
      expect(await server.app.db.all({ sql: 'select locale, site_name from globals', params: [] })).toEqual([
        { locale: null, site_name: 'Site v3' },
      ]),
  },
  { name: 'DELETE ?locale=fr deletes it', method: 'DELETE', path: '/api/global?locale=fr', status: 204 },
  { name: 'GET: 404', path: '/api/global', status: 404, equal: notFound },
  { name: 'DELETE again: 204', method: 'DELETE', path: '/api/global?locale=*', status: 204 },
]);
