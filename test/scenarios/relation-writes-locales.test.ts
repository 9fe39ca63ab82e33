import { ada, article, articlesOf, AUTHOR, grace, TAGS_AND_AUTHOR } from '../support/blog-relations.js';
import { noOrphanLinks } from '../support/link-rows.js';
import { created, documentAt, DRAFT, ref } from '../support/relations.js';
import { scenario } from '../support/scenario.js';
import { ID, list } from '../support/shapes.js';

/*
 * Locales (dump 20, relation parts; media and components left out of the requests), as recorded
 * from Strapi 5.54 in /tmp/dump/20-locale-status-relations.txt. Cairn cannot yet create a second
 * locale of a document with `PUT ?locale=fr` (404), so the recorded steps that need the fr version
 * of the same document are left out (listed in the report that came with these scenarios).
 */

const LOCALE_ARTICLES = 'fields[0]=name&populate[articles][fields][0]=title&populate[articles][fields][1]=locale';
const AUTHOR_AND_TAGS = `${AUTHOR}&populate[tags][fields][0]=name`;
const localized = article('a', 'Localized article');
const tagArticles = articlesOf('tags', 't', 'i18n', LOCALE_ARTICLES);
const I18N = ref('t', { name: 'i18n' });
const EN = ref('a', { title: 'Localized article', locale: 'en' });
const FR_ONLY = ref('frOnly', { title: 'Seulement FR', locale: 'fr' });
/** Both authors with their articles in every locale. */
const AUTHORS_ALL_LOCALES = list([
  { id: ID, documentId: '{{ada}}', name: 'Ada Lovelace', articles: [FR_ONLY] },
  { id: ID, documentId: '{{grace}}', name: 'Grace Hopper', articles: [EN] },
]);

scenario('relation writes: locales and draft edits (dump 20)', [
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
  {
    name: 'create-en-full',
    method: 'POST',
    path: `/api/articles?${AUTHOR_AND_TAGS}`,
    body: { data: { title: 'Localized article', views: 3, author: '{{ada}}', tags: ['{{t}}'] } },
    status: 201,
    save: { a: 'data.documentId' },
    equal: created({ title: 'Localized article', author: ada, tags: [I18N] }),
  },
  localized.getAuthor('en-author', ada),
  localized.put(
    'draft-edit-en-relations',
    `${DRAFT}${TAGS_AND_AUTHOR}`,
    { tags: [], author: '{{grace}}' },
    { tags: [], author: grace },
  ),
  localized.get('published-en-relations-intact', TAGS_AND_AUTHOR, { tags: [I18N], author: ada }),
  tagArticles.get('tag-articles-published-view', [EN]),
  tagArticles.get('tag-articles-draft-view', [], DRAFT),
  localized.put('publish-en-draft', TAGS_AND_AUTHOR, {}, { tags: [], author: grace }),
  tagArticles.get('tag-articles-after-publish', []),
  {
    name: 'filter-by-relation-in-en',
    path: '/api/articles?filters[author][name][$eq]=Grace%20Hopper&fields[0]=title',
    status: 200,
    equal: list([{ id: ID, documentId: '{{a}}', title: 'Localized article' }]),
  },
  {
    name: 'create-fr-only-with-relations',
    method: 'POST',
    path: `/api/articles?locale=fr&${AUTHOR_AND_TAGS}`,
    body: { data: { title: 'Seulement FR', author: '{{ada}}', tags: ['{{t}}'] } },
    status: 201,
    save: { frOnly: 'data.documentId' },
    equal: created({ title: 'Seulement FR', author: ada, tags: [I18N] }),
  },
  documentAt('tags', 't').get('tag-articles-all-published', `${LOCALE_ARTICLES}&populate[articles][sort]=title`, {
    name: 'i18n',
    articles: [FR_ONLY],
  }),
  {
    name: 'populating author.articles lists every locale (as recorded for author-articles-default-locale)',
    path: `/api/authors?sort=name&${LOCALE_ARTICLES}`,
    status: 200,
    equal: AUTHORS_ALL_LOCALES,
  },
  {
    name: 'and ?locale=fr does not filter them (as recorded for author-articles-locale-fr)',
    path: `/api/authors?locale=fr&sort=name&${LOCALE_ARTICLES}`,
    status: 200,
    equal: AUTHORS_ALL_LOCALES,
  },
  {
    name: 'filter by relation in fr finds the fr document',
    path: '/api/articles?locale=fr&filters[author][name][$eq]=Ada%20Lovelace&fields[0]=title',
    status: 200,
    equal: list([{ id: ID, documentId: '{{frOnly}}', title: 'Seulement FR' }]),
  },
  article('frOnly', 'Seulement FR').put(
    'an fr article can link its author by documentId on update',
    `locale=fr&${AUTHOR}`,
    { author: '{{grace}}' },
    { author: grace },
  ),
  localized.getAuthor('the en article keeps its author', grace),
  { name: 'delete the fr document', method: 'DELETE', path: '/api/articles/{{frOnly}}?locale=fr', status: 204 },
  articlesOf('authors', 'grace', 'Grace Hopper', LOCALE_ARTICLES).get(
    'Grace lists only the en article after the fr delete',
    [EN],
  ),
  tagArticles.get('the tag lists nothing after the fr delete', []),
  noOrphanLinks('no dangling links after the fr delete'),
  documentAt('articles', 'a').put(
    'the en article gets an fr version',
    'locale=fr&fields[0]=title&fields[1]=locale',
    { title: 'Article localisé' },
    { title: 'Article localisé', locale: 'fr' },
  ),
  articlesOf('authors', 'ada', 'Ada Lovelace', LOCALE_ARTICLES).put(
    'a non-localized author linking the article without a locale links its default-locale version only, as Strapi',
    ['{{a}}'],
    [EN],
  ),
  articlesOf('authors', 'ada', 'Ada Lovelace', LOCALE_ARTICLES).get('and reads it so', [EN]),
  {
    name: 'an unknown article from the author names the default locale, as Strapi',
    method: 'PUT',
    path: '/api/authors/{{ada}}',
    body: { data: { articles: ['nope'] } },
    status: 400,
    equal: {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Document with id "nope", locale "en" not found',
        details: {},
      },
    },
  },
]);
