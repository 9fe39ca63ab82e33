import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { dbStep, type Step } from './scenario.js';
import { DOC, ID, TS } from './shapes.js';
import { EXAMPLE_PROJECT, type TestServer } from './test-server.js';

/* Project files, expected answers and row reads for the i18n scenarios (test/scenarios/i18n-*.test.ts). */

const EXAMPLE_I18N = "defaultLocale: 'en',\n      locales: ['en', 'fr'],";

/**
 * The example's config/plugins.js with other i18n locales (users-permissions and upload keep
 * their configuration), for the `files` option: `{ 'config/plugins.js': pluginsWithLocales(…) }`.
 */
export function pluginsWithLocales(locales: readonly string[], defaultLocale: string): string {
  const source = readFileSync(join(EXAMPLE_PROJECT, 'config/plugins.js'), 'utf8');
  if (!source.includes(EXAMPLE_I18N))
    throw new Error('examples/blog/config/plugins.js no longer holds the i18n block this helper replaces');
  return source.replace(
    EXAMPLE_I18N,
    `defaultLocale: ${JSON.stringify(defaultLocale)},\n      locales: ${JSON.stringify(locales)},`,
  );
}

/** The example's config/permissions.js with more actions for the Public role. */
export function permissionsWithPublic(...actions: string[]): string {
  const source = readFileSync(join(EXAMPLE_PROJECT, 'config/permissions.js'), 'utf8');
  const anchor = "'plugin::upload.content-api.find',";
  if (!source.includes(anchor))
    throw new Error('examples/blog/config/permissions.js no longer lists plugin::upload.content-api.find');
  return source.replace(anchor, `${actions.map((action) => `'${action}',`).join('\n    ')}\n    ${anchor}`);
}

/** A locale as `GET /api/i18n/locales` lists it. */
export const localeEntry = (code: string, name: string, isDefault: boolean) => ({
  id: ID,
  documentId: expect.stringMatching(/^[a-z0-9]{24}$/),
  name,
  code,
  createdAt: TS,
  updatedAt: TS,
  publishedAt: TS,
  isDefault,
});

/** The scalar attributes of a default-fields article (blog example) when only `title` and the given values are set. */
export function articleFields(values: Record<string, unknown>): Record<string, unknown> {
  return {
    title: null,
    slug: null,
    summary: null,
    body: null,
    content: null,
    views: 0,
    rating: null,
    price: null,
    bigcount: null,
    isFeatured: false,
    publishDate: null,
    publishTime: null,
    eventAt: null,
    stamp: null,
    meta: null,
    category: null,
    contactEmail: null,
    ...values,
  };
}

/** A default-fields article `{{documentVar}}` (any documentId when null: a create) in `locale`, published unless `draft`. */
export function fullArticle(
  documentVar: string | null,
  locale: string,
  values: Record<string, unknown>,
  draft = false,
): Record<string, unknown> {
  const documentId = documentVar === null ? DOC : `{{${documentVar}}}`;
  return {
    id: ID,
    documentId,
    ...articleFields(values),
    createdAt: TS,
    updatedAt: TS,
    publishedAt: draft ? null : TS,
    locale,
  };
}

/** One stored article row: locale, draft or published, and some columns. */
export interface ArticleRow {
  readonly id: number;
  readonly locale: string;
  readonly status: 'draft' | 'published';
  readonly title: string | null;
  readonly views: number | null;
}

/** A documentId is 24 lowercase alphanumerics; checked before it goes into SQL text. */
export function sqlText(value: unknown): string {
  expect(value).toMatch(/^[a-z0-9]+$/);
  return `'${String(value)}'`;
}

/** Every row of article `documentId`, by locale then draft first. */
export async function articleRows(server: TestServer, documentId: unknown): Promise<ArticleRow[]> {
  const rows = await server.app.db.all({
    sql: `select id, locale, published_at, title, views from articles where document_id = ${sqlText(documentId)} order by locale, id`,
    params: [],
  });
  return rows
    .map((row) => ({
      id: Number(row.id),
      locale: String(row.locale),
      status: row.published_at === null ? ('draft' as const) : ('published' as const),
      title: row.title === null ? null : String(row.title),
      views: row.views === null ? null : Number(row.views),
    }))
    .sort(
      (a, b) =>
        a.locale.localeCompare(b.locale) || (a.status === b.status ? a.id - b.id : a.status === 'draft' ? -1 : 1),
    );
}

/** `locale/status` of every row of article `{{documentVar}}`, e.g. `['en/draft', 'en/published', 'fr/draft']`. */
export async function versionsOf(server: TestServer, documentId: unknown): Promise<string[]> {
  return (await articleRows(server, documentId)).map((row) => `${row.locale}/${row.status}`);
}

/** A step asserting the `locale/status` list of article `{{documentVar}}`'s rows. */
export const expectVersions = (name: string, documentVar: string, expected: string[]): Step =>
  dbStep(name, async ({ server, vars }) => expect(await versionsOf(server, vars[documentVar])).toEqual(expected));

/** A step saving the row ids of article `{{documentVar}}` as `vars[as]` (`{ 'en/draft': 1, … }`). */
export const saveRowIds = (name: string, documentVar: string, as: string): Step =>
  dbStep(name, async ({ server, vars }) => {
    vars[as] = Object.fromEntries(
      (await articleRows(server, vars[documentVar])).map((row) => [`${row.locale}/${row.status}`, row.id]),
    );
  });
