import { expect } from 'vitest';
import { ada, AUTHOR, grace, TAGS_AND_AUTHOR } from '../support/blog-relations.js';
import { namedFile } from '../support/components.js';
import { withFullAccess } from '../support/content-types.js';
import { noOrphanLinks } from '../support/link-rows.js';
import { seedFile } from '../support/populate-fixture.js';
import { created, documentAt, one, ref } from '../support/relations.js';
import { errorBody, scenario } from '../support/scenario.js';
import { ID, list, single } from '../support/shapes.js';

/*
 * Relations and locales. First the whole of conformance 20 (recorded from Strapi 5.54) with the fr
 * version of the same document — the steps relation-writes-locales.test.ts had to leave out before
 * PUT ?locale=fr could create a localization; the upload is a stored file row here. Then two
 * localized types related to each other (added to the project copy): a relation links the target's
 * version in the source's locale, whatever locale the reference names, as Strapi does.
 */

const POPULATED = `${TAGS_AND_AUTHOR}&populate[cover][fields][0]=name&populate[seo]=true&populate[blocks]=true`;
const LOCALE_ARTICLES = 'fields[0]=name&populate[articles][fields][0]=title&populate[articles][fields][1]=locale';
const I18N = ref('t', { name: 'i18n' });
const EN = ref('a', { title: 'Localized article', locale: 'en' });
const FR = ref('a', { title: 'Article localisé', locale: 'fr' });
const FLAG = namedFile('imgId', 'flag.png');
const BLOCKS = [{ __component: 'shared.rich-text', id: ID, body: 'EN block' }];
const a = documentAt('articles', 'a');
const titled = (value: string, extra: Record<string, unknown> = {}) => ({ title: value, ...extra });

scenario('i18n relations: conformance 20 with the fr localization', [
  {
    name: 'seed-ada',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Ada Lovelace' } },
    status: 201,
    save: { ada: 'data.documentId' },
  },
  {
    name: 'seed-grace',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Grace Hopper' } },
    status: 201,
    save: { grace: 'data.documentId' },
  },
  {
    name: 'seed-tag',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    body: { data: { name: 'i18n' } },
    status: 201,
    save: { t: 'data.documentId' },
  },
  seedFile('img', 'flag.png'),
  {
    name: 'create-en-full',
    method: 'POST',
    path: `/api/articles?${POPULATED}`,
    body: {
      data: {
        title: 'Localized article',
        views: 3,
        author: '{{ada}}',
        tags: ['{{t}}'],
        cover: '{{imgId}}',
        seo: { metaTitle: 'EN seo' },
        blocks: [{ __component: 'shared.rich-text', body: 'EN block' }],
      },
    },
    status: 201,
    save: { a: 'data.documentId' },
    equal: created(
      titled('Localized article', {
        author: ada,
        tags: [I18N],
        cover: FLAG,
        seo: { id: ID, metaTitle: 'EN seo', metaDescription: null },
        blocks: BLOCKS,
      }),
    ),
  },
  a.put(
    'create-fr-localization',
    `locale=fr&${POPULATED}&fields[1]=views`,
    { title: 'Article localisé' },
    titled('Article localisé', {
      views: 3,
      author: null,
      tags: [],
      cover: FLAG,
      seo: { id: ID, metaTitle: 'EN seo', metaDescription: null },
      blocks: BLOCKS,
    }),
  ),
  a.get(
    'fr-get-populated',
    `locale=fr&${POPULATED}`,
    titled('Article localisé', {
      author: null,
      tags: [],
      cover: FLAG,
      seo: { id: ID, metaTitle: 'EN seo', metaDescription: null },
      blocks: BLOCKS,
    }),
  ),
  a.put(
    'fr-set-own-author',
    `locale=fr&${AUTHOR}`,
    { author: '{{grace}}' },
    titled('Article localisé', { author: grace }),
  ),
  a.get('en-author-unchanged', AUTHOR, titled('Localized article', { author: ada })),
  {
    name: 'author-articles-default-locale: each author lists the version it is linked from',
    path: `/api/authors?sort=name&${LOCALE_ARTICLES}`,
    status: 200,
    equal: list([
      { id: ID, documentId: '{{ada}}', name: 'Ada Lovelace', articles: [EN] },
      { id: ID, documentId: '{{grace}}', name: 'Grace Hopper', articles: [FR] },
    ]),
  },
  {
    name: 'author-articles-locale-fr: the same (authors are not localized)',
    path: `/api/authors?locale=fr&sort=name&${LOCALE_ARTICLES}`,
    status: 200,
    equal: list([
      { id: ID, documentId: '{{ada}}', name: 'Ada Lovelace', articles: [EN] },
      { id: ID, documentId: '{{grace}}', name: 'Grace Hopper', articles: [FR] },
    ]),
  },
  a.put(
    'fr-update-seo-non-localized',
    'locale=fr&fields[0]=title&populate[seo]=true',
    { seo: { metaTitle: 'Shared seo' } },
    titled('Article localisé', { seo: { id: ID, metaTitle: 'Shared seo', metaDescription: null } }),
  ),
  a.get(
    'en-seo-after-fr-update',
    'fields[0]=title&populate[seo]=true',
    titled('Localized article', { seo: { id: ID, metaTitle: 'Shared seo', metaDescription: null } }),
  ),
  a.put(
    'draft-edit-en-relations',
    `status=draft&${TAGS_AND_AUTHOR}`,
    { tags: [], author: '{{grace}}' },
    titled('Localized article', { tags: [], author: grace }),
  ),
  a.get('published-en-relations-intact', TAGS_AND_AUTHOR, titled('Localized article', { tags: [I18N], author: ada })),
  documentAt('tags', 't').get('tag-articles-published-view', LOCALE_ARTICLES, { name: 'i18n', articles: [EN] }),
  documentAt('tags', 't').get('tag-articles-draft-view', `status=draft&${LOCALE_ARTICLES}`, {
    name: 'i18n',
    articles: [],
  }),
  a.put('publish-en-draft', TAGS_AND_AUTHOR, {}, titled('Localized article', { tags: [], author: grace })),
  documentAt('tags', 't').get('tag-articles-after-publish', LOCALE_ARTICLES, { name: 'i18n', articles: [] }),
  {
    name: 'list-all-locales-with-relations',
    path: '/api/articles?locale=*&fields[0]=title&fields[1]=locale&sort=locale&populate[author][fields][0]=name',
    status: 200,
    equal: list([
      { id: ID, documentId: '{{a}}', title: 'Localized article', locale: 'en', author: grace },
      { id: ID, documentId: '{{a}}', title: 'Article localisé', locale: 'fr', author: grace },
    ]),
  },
  {
    name: 'list-all-locales-drafts',
    path: '/api/articles?locale=*&status=draft&fields[0]=title&fields[1]=locale&sort=locale',
    status: 200,
    equal: list([
      { id: ID, documentId: '{{a}}', title: 'Localized article', locale: 'en' },
      { id: ID, documentId: '{{a}}', title: 'Article localisé', locale: 'fr' },
    ]),
  },
  a.get(
    'localizations-with-status-draft',
    'status=draft&fields[0]=title&populate[localizations][fields][0]=title&populate[localizations][fields][1]=publishedAt',
    titled('Localized article', {
      localizations: [{ id: ID, documentId: '{{a}}', title: 'Article localisé', publishedAt: null }],
    }),
  ),
  a.put(
    'fr-draft-only-change',
    'locale=fr&status=draft&fields[0]=title',
    { title: 'Article localisé (brouillon)' },
    titled('Article localisé (brouillon)'),
  ),
  a.get(
    'en-localizations-see-published-fr',
    'fields[0]=title&populate[localizations][fields][0]=title',
    titled('Localized article', { localizations: [{ id: ID, documentId: '{{a}}', title: 'Article localisé' }] }),
  ),
  {
    name: 'filter-by-relation-in-fr',
    path: '/api/articles?locale=fr&filters[author][name][$eq]=Grace%20Hopper&fields[0]=title',
    status: 200,
    equal: list([{ id: ID, documentId: '{{a}}', title: 'Article localisé' }]),
  },
  {
    name: 'filter-by-relation-in-en',
    path: '/api/articles?filters[author][name][$eq]=Grace%20Hopper&fields[0]=title',
    status: 200,
    equal: list([{ id: ID, documentId: '{{a}}', title: 'Localized article' }]),
  },
  {
    name: 'filter by relation with locale=*: both versions',
    path: '/api/articles?locale=*&filters[author][name][$eq]=Grace%20Hopper&fields[0]=locale&sort=locale',
    status: 200,
    check: ({ json }) => expect(json.data.map((d: { locale: string }) => d.locale)).toEqual(['en', 'fr']),
  },
  {
    name: 'sort by a relation with locale=*',
    path: '/api/articles?locale=*&status=draft&sort=author.name:desc,locale&fields[0]=locale',
    status: 200,
    check: ({ json }) => expect(json.data.map((d: { locale: string }) => d.locale)).toEqual(['en', 'fr']),
  },
  {
    name: 'create-fr-only-with-relations',
    method: 'POST',
    path: `/api/articles?locale=fr&${TAGS_AND_AUTHOR}`,
    body: { data: { title: 'Seulement FR', author: '{{ada}}', tags: ['{{t}}'] } },
    status: 201,
    save: { frOnly: 'data.documentId' },
    equal: created(titled('Seulement FR', { author: ada, tags: [I18N] })),
  },
  documentAt('tags', 't').get('tag-articles-all-published', `${LOCALE_ARTICLES}&populate[articles][sort]=title`, {
    name: 'i18n',
    articles: [ref('frOnly', { title: 'Seulement FR', locale: 'fr' })],
  }),
  { name: 'delete-fr-of-a', method: 'DELETE', path: '/api/articles/{{a}}?locale=fr', status: 204 },
  documentAt('authors', 'grace').get('author-articles-after-fr-delete', LOCALE_ARTICLES, {
    name: 'Grace Hopper',
    articles: [EN],
  }),
  a.get(
    'en keeps Grace and its localizations are empty',
    `${AUTHOR}&populate[localizations][fields][0]=locale`,
    titled('Localized article', { author: grace, localizations: [] }),
  ),
  noOrphanLinks('no link row left behind by the fr delete'),
  {
    name: 'single-type-ignores-locale-and-status',
    method: 'PUT',
    path: '/api/global?locale=fr&status=draft&fields[0]=siteName&populate[defaultSeo]=true',
    body: { data: { siteName: 'Site', defaultSeo: { metaTitle: 'Global seo', shareImage: '{{imgId}}' } } },
    status: 200,
    save: { g: 'data.documentId' },
    equal: created({ siteName: 'Site', defaultSeo: { id: ID, metaTitle: 'Global seo', metaDescription: null } }),
  },
  {
    name: 'single-type-read',
    path: '/api/global?fields[0]=siteName&populate[defaultSeo][populate][shareImage][fields][0]=name',
    status: 200,
    equal: one('g', {
      siteName: 'Site',
      defaultSeo: { id: ID, metaTitle: 'Global seo', metaDescription: null, shareImage: FLAG },
    }),
  },
]);

/** A localized draft & publish collection type with a localized `name`. */
function localizedType(
  singularName: string,
  pluralName: string,
  relation: Record<string, unknown>,
): Record<string, string> {
  const schema = {
    kind: 'collectionType',
    collectionName: pluralName,
    info: { singularName, pluralName, displayName: singularName },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: { name: { type: 'string', pluginOptions: { i18n: { localized: true } } }, ...relation },
  };
  return { [`src/api/${singularName}/content-types/${singularName}/schema.json`]: JSON.stringify(schema, null, 2) };
}
const BOOKS = {
  ...localizedType('book', 'books', {
    chapters: { type: 'relation', relation: 'oneToMany', target: 'api::chapter.chapter', mappedBy: 'book' },
  }),
  ...localizedType('chapter', 'chapters', {
    book: { type: 'relation', relation: 'manyToOne', target: 'api::book.book', inversedBy: 'chapters' },
  }),
};
const BOOK = 'fields[0]=name&fields[1]=locale&populate[book][fields][0]=name&populate[book][fields][1]=locale';
const CHAPTERS =
  'fields[0]=name&populate[chapters][fields][0]=name&populate[chapters][fields][1]=locale&populate[chapters][sort]=name';
const book = (name: string, locale: string) => ref('b', { name, locale });
const chapter = (variable: string, name: string, locale: string) => ref(variable, { name, locale });
const chapterAt = documentAt('chapters', 'c');
const bookAt = documentAt('books', 'b');

scenario(
  'i18n relations between two localized types: the source locale decides the target version',
  withFullAccess([
    {
      name: 'book in en',
      method: 'POST',
      path: '/api/books?fields[0]=name',
      body: { data: { name: 'Book' } },
      status: 201,
      save: { b: 'data.documentId' },
    },
    {
      name: 'book in fr',
      method: 'PUT',
      path: '/api/books/{{b}}?locale=fr&fields[0]=name',
      body: { data: { name: 'Livre' } },
      status: 200,
    },
    {
      name: 'a German-only book',
      method: 'POST',
      path: '/api/books?locale=de&fields[0]=name',
      body: { data: { name: 'Buch' } },
      status: 201,
      save: { de: 'data.documentId' },
    },
    {
      name: 'chapter in en linking the book: the en book',
      method: 'POST',
      path: `/api/chapters?${BOOK}`,
      body: { data: { name: 'Chapter', book: '{{b}}' } },
      status: 201,
      save: { c: 'data.documentId' },
      match: { data: { name: 'Chapter', locale: 'en', book: book('Book', 'en') } },
    },
    chapterAt.put(
      'its fr localization starts without a book',
      `locale=fr&${BOOK}`,
      { name: 'Chapitre' },
      { name: 'Chapitre', locale: 'fr', book: null },
    ),
    chapterAt.put(
      'linking the book from fr links the fr book',
      `locale=fr&${BOOK}`,
      { book: '{{b}}' },
      { name: 'Chapitre', locale: 'fr', book: book('Livre', 'fr') },
    ),
    chapterAt.put(
      'a locale named in connect does not change it (both types localized)',
      `locale=fr&${BOOK}`,
      { book: { connect: [{ documentId: '{{b}}', locale: 'en' }] } },
      { name: 'Chapitre', locale: 'fr', book: book('Livre', 'fr') },
    ),
    chapterAt.get('en still links the en book', BOOK, { name: 'Chapter', locale: 'en', book: book('Book', 'en') }),
    {
      name: 'a book without a fr version cannot be linked from fr: 400 naming the locale',
      method: 'PUT',
      path: '/api/chapters/{{c}}?locale=fr&fields[0]=name',
      body: { data: { book: '{{de}}' } },
      status: 400,
      equal: errorBody(400, 'ValidationError', 'Document with id "{{de}}", locale "fr" not found', {}),
    },
    chapterAt.get('the refused write changed nothing', `locale=fr&${BOOK}`, {
      name: 'Chapitre',
      locale: 'fr',
      book: book('Livre', 'fr'),
    }),
    {
      name: 'a second fr chapter',
      method: 'POST',
      path: `/api/chapters?locale=fr&${BOOK}`,
      body: { data: { name: 'Chapitre 2', book: '{{b}}' } },
      status: 201,
      save: { c2: 'data.documentId' },
      equal: created({ name: 'Chapitre 2', locale: 'fr', book: book('Livre', 'fr') }),
    },
    bookAt.get('the fr book lists the fr chapters', `locale=fr&${CHAPTERS}`, {
      name: 'Livre',
      chapters: [chapter('c', 'Chapitre', 'fr'), chapter('c2', 'Chapitre 2', 'fr')],
    }),
    bookAt.get('the en book lists the en chapter', CHAPTERS, {
      name: 'Book',
      chapters: [chapter('c', 'Chapter', 'en')],
    }),
    {
      name: 'books of every locale with their chapters',
      path: `/api/books?locale=*&sort=name&${CHAPTERS}&fields[1]=locale`,
      status: 200,
      equal: list([
        { id: ID, documentId: '{{b}}', name: 'Book', locale: 'en', chapters: [chapter('c', 'Chapter', 'en')] },
        { id: ID, documentId: '{{de}}', name: 'Buch', locale: 'de', chapters: [] },
        {
          id: ID,
          documentId: '{{b}}',
          name: 'Livre',
          locale: 'fr',
          chapters: [chapter('c', 'Chapitre', 'fr'), chapter('c2', 'Chapitre 2', 'fr')],
        },
      ]),
    },
    {
      name: 'filter chapters by their book name in fr',
      path: '/api/chapters?locale=fr&filters[book][name][$eq]=Livre&fields[0]=name&sort=name',
      status: 200,
      equal: list([
        { id: ID, documentId: '{{c}}', name: 'Chapitre' },
        { id: ID, documentId: '{{c2}}', name: 'Chapitre 2' },
      ]),
    },
    {
      name: 'the en book name does not match in fr',
      path: '/api/chapters?locale=fr&filters[book][name][$eq]=Book&fields[0]=name',
      status: 200,
      equal: list([], { pageCount: 0 }),
    },
    {
      name: 'the fr book links its chapters from the book side too',
      method: 'PUT',
      path: `/api/books/{{b}}?locale=fr&${CHAPTERS}`,
      body: { data: { chapters: { disconnect: ['{{c2}}'] } } },
      status: 200,
      equal: single({ id: ID, documentId: '{{b}}', name: 'Livre', chapters: [chapter('c', 'Chapitre', 'fr')] }),
    },
    bookAt.get('the en book is untouched', CHAPTERS, { name: 'Book', chapters: [chapter('c', 'Chapter', 'en')] }),
    { name: 'delete the fr book', method: 'DELETE', path: '/api/books/{{b}}?locale=fr', status: 204 },
    chapterAt.get('the fr chapter has no book any more', `locale=fr&${BOOK}`, {
      name: 'Chapitre',
      locale: 'fr',
      book: null,
    }),
    chapterAt.get('the en chapter keeps the en book', BOOK, {
      name: 'Chapter',
      locale: 'en',
      book: book('Book', 'en'),
    }),
  ]),
  { files: BOOKS },
);
