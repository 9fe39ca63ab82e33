import { expect } from 'vitest';
import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import { syncLocales } from '../../src/i18n/locales.js';
import { eq, simpleSelect } from '../../src/plan/simple-plans.js';
import { compileSelect } from '../../src/sql/compile-read.js';
import { fullArticle, localeEntry, permissionsWithPublic, pluginsWithLocales } from '../support/i18n.js';
import { dbStep, errorBody, scenario, type Step } from '../support/scenario.js';
import { ID, list, single } from '../support/shapes.js';
import type { TestServer } from '../support/test-server.js';

/*
 * Locales: config/plugins `i18n.config.locales` / `defaultLocale` stored in i18n_locale (and the
 * default in the core store, as Strapi keeps it), GET /api/i18n/locales as Strapi 5.54 answers it
 * (conformance 13: a plain array, 403 for Public unless granted), and the default locale of the
 * content routes when the request names none.
 */

const forbidden = errorBody(403, 'ForbiddenError', 'Forbidden', {});
const EN = localeEntry('en', 'English (en)', true);
const FR = localeEntry('fr', 'French (fr)', false);

/** The i18n_locale rows, oldest first. */
async function storedLocales(
  server: TestServer,
): Promise<{ code: string; name: string; documentId: string; locale: unknown; published: boolean }[]> {
  const rows = await server.app.db.all({
    sql: 'select code, name, document_id, locale, published_at from i18n_locale order by id',
    params: [],
  });
  return rows.map((row) => ({
    code: String(row.code),
    name: String(row.name),
    documentId: String(row.document_id),
    locale: row.locale,
    published: row.published_at !== null,
  }));
}

/** The default locale as the core store holds it (JSON text and type). */
async function storedDefault(server: TestServer): Promise<{ value: unknown; type: unknown }[]> {
  const db = server.app.db;
  const plan = simpleSelect(
    'strapi_core_store_settings',
    { value: ['value', 'string'], type: ['type', 'string'] },
    eq('key', 'plugin_i18n_default_locale'),
  );
  return (await db.all(compileSelect(db.dialect, plan))).map((row) => ({ value: row.value, type: row.type }));
}

/** Creates an API token in the server's database; its key is saved as `vars[name]`. */
function customToken(name: string, permissions: string[]): Step {
  return dbStep(`create custom token ${name}`, async ({ server, vars }) => {
    const { config } = server.app.project;
    vars[name] = await createApiToken(
      server.app.db,
      { salt: config.admin.apiTokenSalt, encryptionKey: config.admin.encryptionKey },
      { name, type: 'custom', permissions },
      new Date(),
    );
  });
}
const bearer = (name: string) => ({ authorization: `Bearer {{${name}}}` });

scenario('i18n locales: the example project (en default, fr)', [
  { name: 'Public may not list locales unless granted: 403', path: '/api/i18n/locales', status: 403, equal: forbidden },
  {
    name: 'a read-only token may not either (listLocales is not a find action)',
    path: '/api/i18n/locales',
    auth: 'readonly',
    status: 403,
    equal: forbidden,
  },
  {
    name: 'a full-access token gets a plain array (no data wrapper), config order, isDefault on en',
    path: '/api/i18n/locales',
    auth: 'full',
    status: 200,
    equal: [EN, FR],
    check: ({ json, headers }) => {
      expect(String(headers['content-type'])).toMatch(/^application\/json/);
      expect(Object.keys(json[0])).toEqual([
        'id',
        'documentId',
        'name',
        'code',
        'createdAt',
        'updatedAt',
        'publishedAt',
        'isDefault',
      ]);
      expect(json[0].documentId).not.toBe(json[1].documentId);
      expect(json[1].id).toBeGreaterThan(json[0].id);
    },
  },
  {
    name: 'query parameters do not change the list',
    path: '/api/i18n/locales?sort=code:desc&pagination[pageSize]=1',
    auth: 'full',
    status: 200,
    equal: [EN, FR],
  },
  customToken('localesToken', ['plugin::i18n.locales.listLocales']),
  {
    name: 'a custom token granted plugin::i18n.locales.listLocales',
    path: '/api/i18n/locales',
    headers: bearer('localesToken'),
    status: 200,
    equal: [EN, FR],
  },
  customToken('articlesToken', ['api::article.article.find']),
  {
    name: 'a custom token without it: 403',
    path: '/api/i18n/locales',
    headers: bearer('articlesToken'),
    status: 403,
    equal: forbidden,
  },
  {
    name: 'only GET is routed',
    method: 'POST',
    path: '/api/i18n/locales',
    auth: 'full',
    body: { code: 'de' },
    status: 405,
  },
  dbStep(
    'i18n_locale holds one published row per configured locale, with a documentId and no locale of its own',
    async ({ server }) => {
      const rows = await storedLocales(server);
      expect(rows.map(({ code, name, locale, published }) => ({ code, name, locale, published }))).toEqual([
        { code: 'en', name: 'English (en)', locale: null, published: true },
        { code: 'fr', name: 'French (fr)', locale: null, published: true },
      ]);
      for (const row of rows) expect(row.documentId).toMatch(/^[a-z0-9]{24}$/);
    },
  ),
  dbStep(
    'the core store keeps the default locale as Strapi does (plugin_i18n_default_locale = "en")',
    async ({ server }) => {
      expect(await storedDefault(server)).toEqual([{ value: '"en"', type: 'string' }]);
    },
  ),
  dbStep('syncing the same config again (a restart) changes nothing', async ({ server, vars }) => {
    const before = await storedLocales(server);
    vars.before = before;
    await syncLocales(server.app.db, { locales: ['en', 'fr'], defaultLocale: 'en' }, new Date());
    expect(await storedLocales(server)).toEqual(before);
    expect(await storedDefault(server)).toEqual([{ value: '"en"', type: 'string' }]);
  }),
  dbStep('a locale added to the config is stored after the others; one removed from it is kept', async ({ server }) => {
    await syncLocales(server.app.db, { locales: ['en', 'fr', 'es'], defaultLocale: 'en' }, new Date());
    await syncLocales(server.app.db, { locales: ['en'], defaultLocale: 'en' }, new Date());
    expect((await storedLocales(server)).map((row) => row.code)).toEqual(['en', 'fr', 'es']);
  }),
  {
    name: 'the stored locales are listed, isDefault from the running config',
    path: '/api/i18n/locales',
    auth: 'full',
    status: 200,
    equal: [EN, FR, localeEntry('es', 'Spanish (es)', false)],
  },
]);

const CUSTOM_LOCALES = {
  'config/plugins.js': pluginsWithLocales(['en', 'fr', 'de', 'pt-BR', 'zh-Hans'], 'fr'),
  'config/permissions.js': permissionsWithPublic('plugin::i18n.locales.listLocales'),
};

scenario(
  'i18n locales: a project with locales en, fr (default), de, pt-BR, zh-Hans',
  [
    {
      name: 'Public granted plugin::i18n.locales.listLocales lists them; isDefault on fr; names as Strapi writes them',
      path: '/api/i18n/locales',
      status: 200,
      equal: [
        localeEntry('en', 'English (en)', false),
        localeEntry('fr', 'French (fr)', true),
        localeEntry('de', 'German (de)', false),
        localeEntry('pt-BR', 'Portuguese (Brazil) (pt-BR)', false),
        localeEntry('zh-Hans', 'Chinese (Simplified) (zh-Hans)', false),
      ],
    },
    dbStep('the core store holds "fr"', async ({ server }) =>
      expect(await storedDefault(server)).toEqual([{ value: '"fr"', type: 'string' }]),
    ),
    {
      name: 'POST without locale creates in the default locale fr',
      method: 'POST',
      path: '/api/articles',
      body: { data: { title: 'Défaut', views: 2 } },
      status: 201,
      save: { a: 'data.documentId' },
      equal: single(fullArticle(null, 'fr', { title: 'Défaut', views: 2 })),
    },
    {
      name: 'GET one without locale reads fr',
      path: '/api/articles/{{a}}?fields[0]=title&fields[1]=locale',
      status: 200,
      equal: single({ id: ID, documentId: '{{a}}', title: 'Défaut', locale: 'fr' }),
    },
    {
      name: 'the list without locale is the fr list',
      path: '/api/articles?fields[0]=title&fields[1]=locale',
      status: 200,
      equal: list([{ id: ID, documentId: '{{a}}', title: 'Défaut', locale: 'fr' }]),
    },
    {
      name: 'en, the example default, is now just another locale: empty list',
      path: '/api/articles?locale=en',
      status: 200,
      equal: list([], { pageCount: 0 }),
    },
    { name: 'GET ?locale=en of the document: 404', path: '/api/articles/{{a}}?locale=en', status: 404 },
    {
      name: 'PUT ?locale=de creates the German localization (200) with the shared views',
      method: 'PUT',
      path: '/api/articles/{{a}}?locale=de&fields[0]=title&fields[1]=views&fields[2]=locale',
      body: { data: { title: 'Standard' } },
      status: 200,
      equal: single({ id: ID, documentId: '{{a}}', title: 'Standard', views: 2, locale: 'de' }),
    },
    {
      name: 'PUT ?locale=pt-BR: a region subtag works like any locale',
      method: 'PUT',
      path: '/api/articles/{{a}}?locale=pt-BR&fields[0]=title&fields[1]=locale',
      body: { data: { title: 'Padrão' } },
      status: 200,
      equal: single({ id: ID, documentId: '{{a}}', title: 'Padrão', locale: 'pt-BR' }),
    },
    {
      name: 'PUT without locale updates fr, and the shared views reach de and pt-BR',
      method: 'PUT',
      path: '/api/articles/{{a}}?fields[0]=title&fields[1]=views&fields[2]=locale',
      body: { data: { title: 'Défaut v2', views: 3 } },
      status: 200,
      equal: single({ id: ID, documentId: '{{a}}', title: 'Défaut v2', views: 3, locale: 'fr' }),
    },
    {
      name: 'populating localizations from the default locale',
      path: '/api/articles/{{a}}?fields[0]=title&populate[localizations][fields][0]=locale&populate[localizations][fields][1]=views&populate[localizations][sort]=locale',
      status: 200,
      equal: single({
        id: ID,
        documentId: '{{a}}',
        title: 'Défaut v2',
        localizations: [
          { id: ID, documentId: '{{a}}', locale: 'de', views: 3 },
          { id: ID, documentId: '{{a}}', locale: 'pt-BR', views: 3 },
        ],
      }),
    },
    { name: 'DELETE without locale deletes only fr', method: 'DELETE', path: '/api/articles/{{a}}', status: 204 },
    { name: 'fr is gone', path: '/api/articles/{{a}}', status: 404 },
    {
      name: 'the other locales remain',
      path: '/api/articles?locale=*&fields[0]=title&fields[1]=locale&sort=locale',
      status: 200,
      equal: list([
        { id: ID, documentId: '{{a}}', title: 'Standard', locale: 'de' },
        { id: ID, documentId: '{{a}}', title: 'Padrão', locale: 'pt-BR' },
      ]),
    },
    {
      name: 'the single type global is not localized: the default locale does not apply',
      method: 'PUT',
      path: '/api/global?fields[0]=siteName',
      body: { data: { siteName: 'Site' } },
      status: 200,
      equal: single({ id: ID, documentId: expect.any(String), siteName: 'Site' }),
    },
    {
      name: 'and reads back under any locale',
      path: '/api/global?locale=de&fields[0]=siteName',
      status: 200,
      match: { data: { siteName: 'Site' } },
    },
  ],
  { files: CUSTOM_LOCALES },
);
