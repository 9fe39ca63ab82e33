import { expect } from 'vitest';
import { insertFile } from '../support/files.js';
import { errorBody, scenario, type Step } from '../support/scenario.js';
import { DOCUMENT_ID, ISO } from '../support/shapes.js';

// Expectations come from recorded Strapi 5.54 sessions (/tmp/dump/09-filter-logic-deep.txt,
// 05-sort.txt, 11-populate-components-dz.txt, 06-pagination.txt) and the behaviour reference
// (§1.6, §1.7, §2, §5).

const ID = expect.any(Number);
const DOC = expect.stringMatching(DOCUMENT_ID);
const TS = expect.stringMatching(ISO);

const TITLES: Record<string, string> = {};

/** A list of `[documentId var, title]` with Strapi's page pagination (page 1 of 25 unless given). */
function list(items: readonly string[], pagination?: Record<string, number>): unknown {
  return {
    data: items.map((v) => ({ id: ID, documentId: `{{${v}}}`, title: TITLES[v] })),
    meta: { pagination: pagination ?? { page: 1, pageSize: 25, pageCount: items.length ? 1 : 0, total: items.length } },
  };
}

/** GET /api/articles?<query>&fields[0]=title must return exactly these documents, in this order. */
function articles(name: string, query: string, items: readonly string[], pagination?: Record<string, number>): Step {
  return { name, path: `/api/articles?${query}&fields[0]=title`, status: 200, equal: list(items, pagination) };
}

const invalidFilterKey = (key: string, path: string | null) =>
  errorBody(400, 'ValidationError', path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`, {
    key,
    path,
    source: 'query',
    param: 'filters',
  });
const invalidSortKey = (key: string, path: string | null) =>
  errorBody(400, 'ValidationError', path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`, {
    key,
    path,
    source: 'query',
    param: 'sort',
  });
const badRequest = { data: null, error: { status: 400, name: 'ValidationError', message: expect.any(String) } };

// ---------------------------------------------------------------------------------------------
// 1. Dump 09 (logic and deep filters), with insertFile in place of the upload, then more deep
//    filters on the same data.
//    a: Alpha (Grace, [java], seo "Alpha SEO" [release]), b: beta (Ada, [javascript], cover,
//    seo "Beta SEO" [testing, guide]), c: Zeta (Ada, [databases, java]), d: Hello (no author,
//    [javascript, databases], a quote block).
// ---------------------------------------------------------------------------------------------

Object.assign(TITLES, {
  a: 'Alpha release notes',
  b: 'beta testing guide',
  c: 'Zeta databases deep dive',
  d: 'Hello Strapi',
});

const tag = (name: string, as: string): Step => ({
  name: `seed-tag-${name}`,
  method: 'POST',
  path: '/api/tags',
  body: { data: { name } },
  status: 201,
  equal: { data: { id: ID, documentId: DOC, name, createdAt: TS, updatedAt: TS, publishedAt: TS }, meta: {} },
  save: { [as]: 'data.documentId', [`${as}Id`]: 'data.id' },
});
const seedArticle = (as: string, data: Record<string, unknown>): Step => ({
  name: `seed-${as}`,
  method: 'POST',
  path: '/api/articles?fields[0]=title',
  body: { data },
  status: 201,
  equal: { data: { id: ID, documentId: DOC, title: data.title }, meta: {} },
  save: { [as]: 'data.documentId', [`${as}Id`]: 'data.id' },
});

const DEEP_SEED: Step[] = [
  {
    name: 'seed-ada',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Ada Lovelace', email: 'ada@example.com' } },
    status: 201,
    equal: { data: { id: ID, documentId: DOC, name: 'Ada Lovelace' }, meta: {} },
    save: { ada: 'data.documentId', adaId: 'data.id' },
  },
  {
    name: 'seed-grace',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Grace Hopper' } },
    status: 201,
    equal: { data: { id: ID, documentId: DOC, name: 'Grace Hopper' }, meta: {} },
    save: { grace: 'data.documentId', graceId: 'data.id' },
  },
  tag('javascript', 'js'),
  tag('databases', 'db'),
  tag('java', 'java'),
  {
    name: 'upload-cover (insertFile)',
    path: '/_health',
    status: 204,
    check: async (_r, { server, vars }) => {
      vars.coverId = await insertFile(server, 'red.png');
    },
  },
  seedArticle('a', {
    title: 'Alpha release notes',
    views: 50,
    category: 'news',
    author: '{{grace}}',
    tags: ['{{java}}'],
    seo: { metaTitle: 'Alpha SEO', keywords: [{ word: 'release' }] },
  }),
  seedArticle('b', {
    title: 'beta testing guide',
    views: 0,
    category: 'life',
    author: '{{ada}}',
    tags: ['{{js}}'],
    cover: '{{coverId}}',
    seo: { metaTitle: 'Beta SEO', keywords: [{ word: 'testing' }, { word: 'guide' }] },
  }),
  seedArticle('c', {
    title: 'Zeta databases deep dive',
    views: 120,
    category: 'tech',
    author: '{{ada}}',
    tags: ['{{db}}', '{{java}}'],
  }),
  seedArticle('d', {
    title: 'Hello Strapi',
    views: 10,
    category: 'tech',
    tags: ['{{js}}', '{{db}}'],
    blocks: [{ __component: 'shared.quote', title: 'Q' }],
  }),
];

const author = (v: string, name: string) => ({ id: ID, documentId: `{{${v}}}`, name });
const tagRow = (v: string, name: string) => ({ id: ID, documentId: `{{${v}}}`, name });

scenario('deep filters on relations, components and media, as recorded from Strapi', [
  ...DEEP_SEED,
  articles('or', 'filters[$or][0][category][$eq]=news&filters[$or][1][views][$gt]=100&sort=title', ['a', 'c']),
  articles('and', 'filters[$and][0][category][$eq]=tech&filters[$and][1][views][$lt]=100&sort=title', ['d']),
  articles('not-root', 'filters[$not][category][$eq]=tech&sort=title', ['a', 'b']),
  articles('not-on-attribute', 'filters[title][$not][$contains]=notes&sort=title', ['d', 'c', 'b']),
  articles(
    'or-inside-and',
    'filters[$and][0][$or][0][views][$lt]=5&filters[$and][0][$or][1][views][$gt]=100&filters[$and][1][title][$containsi]=e&sort=title',
    ['c', 'b'],
  ),
  articles('not-wrapping-or', 'filters[$not][$or][0][category]=tech&filters[$not][$or][1][category]=life&sort=title', [
    'a',
  ]),
  articles(
    'or-with-relation',
    'filters[$or][0][author][name][$eq]=Grace%20Hopper&filters[$or][1][tags][name][$eq]=databases&sort=title',
    ['a', 'd', 'c'],
  ),
  articles('relation-manyToOne-field', 'filters[author][name][$startsWith]=Ada&sort=title', ['c', 'b']),
  articles(
    'relation-manyToMany-in',
    'filters[tags][name][$in][0]=java&filters[tags][name][$in][1]=javascript&sort=title',
    ['a', 'd', 'c', 'b'],
  ),
  articles('relation-documentId', 'filters[author][documentId][$eq]={{grace}}', ['a']),
  articles('relation-id-shorthand', 'filters[author]={{adaId}}&sort=title', ['c', 'b']),
  articles('relation-id-in', 'filters[author][id][$in][0]={{adaId}}&sort=title', ['c', 'b']),
  articles('relation-null', 'filters[author][id][$null]=true', ['d']),
  articles('relation-two-levels', 'filters[author][articles][tags][name][$eq]=java&sort=title', ['a', 'c', 'b']),
  {
    name: 'inverse-side',
    path: '/api/authors?filters[articles][title][$contains]=guide&fields[0]=name',
    status: 200,
    equal: {
      data: [author('ada', 'Ada Lovelace')],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },
    },
  },
  {
    name: 'inverse-side-count-like (to-many join does not duplicate tags)',
    path: '/api/tags?filters[articles][category][$eq]=tech&fields[0]=name&sort=name',
    status: 200,
    equal: {
      data: [tagRow('db', 'databases'), tagRow('java', 'java'), tagRow('js', 'javascript')],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 3 } },
    },
  },
  articles('component-field', 'filters[seo][metaTitle][$eq]=Beta%20SEO', ['b']),
  articles('nested-repeatable-component', 'filters[seo][keywords][word][$eq]=release', ['a']),
  articles('component-null', 'filters[seo][id][$null]=true&sort=title', ['d', 'c']),
  articles('media-name', 'filters[cover][name][$eq]=red.png', ['b']),
  articles('media-notNull', 'filters[cover][id][$notNull]=true', ['b']),
  articles('documentId-eq', 'filters[documentId][$eq]={{c}}', ['c']),
  articles('documentId-in', 'filters[documentId][$in][0]={{a}}&filters[documentId][$in][1]={{d}}&sort=title', [
    'a',
    'd',
  ]),
  articles('documentId-implicit', 'filters[documentId]={{b}}', ['b']),
  articles('id-in', 'filters[id][$in][0]={{aId}}&filters[id][$in][1]={{bId}}&sort=title', ['a', 'b']),
  {
    name: 'invalid-key-root',
    path: '/api/articles?filters[nope][$eq]=1',
    status: 400,
    equal: invalidFilterKey('nope', null),
  },
  {
    name: 'invalid-key-in-relation',
    path: '/api/articles?filters[author][nope]=1',
    status: 400,
    equal: invalidFilterKey('nope', 'author'),
  },
  {
    name: 'invalid-key-in-or',
    path: '/api/articles?filters[$or][0][nope]=1',
    status: 400,
    equal: invalidFilterKey('nope', null),
  },
  {
    name: 'password-key',
    path: '/api/articles?filters[secretCode][$eq]=hunter2',
    status: 400,
    equal: invalidFilterKey('secretCode', 'secretCode'),
  },
  {
    name: 'dynamic-zone-key',
    path: '/api/articles?filters[blocks][title][$eq]=Q',
    status: 400,
    equal: invalidFilterKey('blocks', 'blocks'),
  },
  articles('localizations-key', 'filters[localizations][title][$eq]=x', []),
  {
    name: 'createdBy-private-key',
    path: '/api/articles?filters[createdBy][id][$eq]=1',
    status: 400,
    equal: invalidFilterKey('createdBy', 'createdBy'),
  },

  // More deep filters on the same data (Strapi semantics: §1.6 — a value or operator placed on a
  // relation applies to the target's id; relation filters join the target).
  articles('relation attribute $eq', 'filters[author][name][$eq]=Grace%20Hopper', ['a']),
  articles('relation attribute, implicit $eq', 'filters[author][name]=Ada%20Lovelace&sort=title', ['c', 'b']),
  articles('relation documentId, implicit $eq', 'filters[author][documentId]={{ada}}&sort=title', ['c', 'b']),
  articles(
    'operator on the relation itself applies to the id ($in)',
    'filters[author][$in][0]={{graceId}}&sort=title',
    ['a'],
  ),
  articles('operator on the relation itself applies to the id ($null)', 'filters[author][$null]=true', ['d']),
  articles('$notNull on the relation id', 'filters[author][id][$notNull]=true&sort=title', ['a', 'c', 'b']),
  articles('$null=false on the relation id', 'filters[author][id][$null]=false&sort=title', ['a', 'c', 'b']),
  articles('relation and scalar together', 'filters[author][name][$eq]=Ada%20Lovelace&filters[views][$gt]=50', ['c']),
  articles('to-many by documentId', 'filters[tags][documentId][$eq]={{db}}&sort=title', ['d', 'c']),
  articles('to-many by id shorthand', 'filters[tags]={{javaId}}&sort=title', ['a', 'c']),
  articles('two levels through a many-to-many', 'filters[tags][articles][title][$eq]=Hello%20Strapi&sort=title', [
    'd',
    'c',
    'b',
  ]),
  articles('three levels', 'filters[tags][articles][author][name][$eq]=Grace%20Hopper&sort=title', ['a', 'c']),
  articles(
    '$or mixing a relation and a scalar',
    'filters[$or][0][author][name][$eq]=Grace%20Hopper&filters[$or][1][views][$gt]=100&sort=title',
    ['a', 'c'],
  ),
  articles(
    '$or inside a relation',
    'filters[author][$or][0][name][$eq]=Grace%20Hopper&filters[author][$or][1][email][$eq]=ada@example.com&sort=title',
    ['a', 'c', 'b'],
  ),
  articles(
    '$not around a relation filter (documents with an author)',
    'filters[$not][author][name][$eq]=Ada%20Lovelace&filters[author][id][$notNull]=true',
    ['a'],
  ),
  articles('$not on a relation attribute', 'filters[author][name][$not][$eq]=Ada%20Lovelace', ['a']),
  // `$not` over a relation, as Strapi evaluates it: the related rows are LEFT JOINed and `$not`
  // applies to each joined row, so a document matches when one of its related rows makes the
  // negated condition false. A document without an author has a NULL name, and NOT (NULL = x) is
  // not true: it is left out. a: Grace [java], b: Ada [javascript], c: Ada [databases, java],
  // d: no author [javascript, databases].
  articles(
    '$not around a relation filter leaves out documents without an author',
    'filters[$not][author][name][$eq]=Ada%20Lovelace&sort=title',
    ['a'],
  ),
  articles('$not around a relation filter: not Grace', 'filters[$not][author][name][$eq]=Grace%20Hopper&sort=title', [
    'c',
    'b',
  ]),
  articles(
    '… the same list as $not on the relation attribute',
    'filters[author][name][$not][$eq]=Grace%20Hopper&sort=title',
    ['c', 'b'],
  ),
  articles('$not around a to-many filter: some tag is not java', 'filters[$not][tags][name][$eq]=java&sort=title', [
    'd',
    'c',
    'b',
  ]),
  articles('… the same list as $not on the to-many attribute', 'filters[tags][name][$not][$eq]=java&sort=title', [
    'd',
    'c',
    'b',
  ]),
  articles(
    '$not around $null on the relation id: documents with an author',
    'filters[$not][author][id][$null]=true&sort=title',
    ['a', 'c', 'b'],
  ),
  articles(
    '$not around an $or of a relation and a scalar (De Morgan: an author that is not Grace, and another title)',
    'filters[$not][$or][0][author][name][$eq]=Grace%20Hopper&filters[$not][$or][1][title][$eq]=beta%20testing%20guide&sort=title',
    ['c'],
  ),
  articles(
    '$not around an $or: no author matches, one title is left out, the document without an author too',
    'filters[$not][$or][0][author][name][$eq]=Nobody&filters[$not][$or][1][title][$eq]=Alpha%20release%20notes&sort=title',
    ['c', 'b'],
  ),
  articles(
    '$and of two conditions on one to-many relation: each may match a different tag',
    'filters[$and][0][tags][name][$eq]=java&filters[$and][1][tags][name][$eq]=databases',
    ['c'],
  ),
  articles(
    'a to-many condition and an $and on the same relation',
    'filters[tags][name][$eq]=java&filters[$and][0][tags][name][$eq]=databases',
    ['c'],
  ),
  articles(
    '$and of a relation and a component',
    'filters[$and][0][author][name][$eq]=Ada%20Lovelace&filters[$and][1][seo][metaTitle][$eq]=Beta%20SEO',
    ['b'],
  ),
  {
    name: 'inverse side: author by article title',
    path: '/api/authors?filters[articles][title][$eq]=Alpha%20release%20notes&fields[0]=name',
    status: 200,
    equal: {
      data: [author('grace', 'Grace Hopper')],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },
    },
  },
  {
    name: "inverse side, two levels: tags of Grace's articles",
    path: '/api/tags?filters[articles][author][name][$eq]=Grace%20Hopper&fields[0]=name&sort=name',
    status: 200,
    equal: { data: [tagRow('java', 'java')], meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } } },
  },
  {
    name: 'inverse side with no match',
    path: '/api/authors?filters[articles][title][$eq]=Hello%20Strapi&fields[0]=name',
    status: 200,
    equal: { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } },
  },
  articles('component field $containsi', 'filters[seo][metaTitle][$containsi]=seo&sort=title', ['a', 'b']),
  articles('nested repeatable component, second item', 'filters[seo][keywords][word][$eq]=guide', ['b']),
  articles(
    'nested repeatable component $in (no duplicates)',
    'filters[seo][keywords][word][$in][0]=release&filters[seo][keywords][word][$in][1]=testing&filters[seo][keywords][word][$in][2]=guide&sort=title',
    ['a', 'b'],
  ),
  articles('component $notNull', 'filters[seo][id][$notNull]=true&sort=title', ['a', 'b']),
  articles('media id $null', 'filters[cover][id][$null]=true&sort=title', ['a', 'd', 'c']),
  articles('media with an operator on a file field', 'filters[cover][mime][$startsWith]=image/', ['b']),
  {
    name: 'dynamic zone with an operator',
    path: '/api/articles?filters[blocks][$notNull]=true',
    status: 400,
    equal: invalidFilterKey('blocks', 'blocks'),
  },
  {
    name: 'unknown key two levels down',
    path: '/api/articles?filters[author][articles][nope]=1',
    status: 400,
    match: {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key nope at author.articles',
        details: { key: 'nope', path: 'author.articles', source: 'query', param: 'filters' },
      },
    },
  },
  {
    name: 'unknown key in a component',
    path: '/api/articles?filters[seo][nope][$eq]=1',
    status: 400,
    equal: invalidFilterKey('nope', 'seo'),
  },
  {
    name: 'unknown key in a media filter',
    path: '/api/articles?filters[cover][nope][$eq]=1',
    status: 400,
    equal: invalidFilterKey('nope', 'cover'),
  },
  {
    name: 'private key under a relation',
    path: '/api/articles?filters[author][createdBy][id][$eq]=1',
    status: 400,
    match: {
      ...badRequest,
      error: { ...badRequest.error, details: { key: 'createdBy', source: 'query', param: 'filters' } },
    },
  },
  {
    name: 'password key under a relation',
    path: '/api/tags?filters[articles][secretCode][$eq]=x',
    status: 400,
    match: {
      ...badRequest,
      error: { ...badRequest.error, details: { key: 'secretCode', source: 'query', param: 'filters' } },
    },
  },
  {
    name: 'dynamic zone under a relation',
    path: '/api/tags?filters[articles][blocks][title][$eq]=Q',
    status: 400,
    match: {
      ...badRequest,
      error: { ...badRequest.error, details: { key: 'blocks', source: 'query', param: 'filters' } },
    },
  },
  {
    name: 'operator and attribute keys mixed on a relation (Strapi: 500) is a 400',
    path: '/api/articles?filters[author][name][$eq]=Ada%20Lovelace&filters[author][$in][0]={{adaId}}',
    status: 400,
    match: badRequest,
  },
  {
    name: 'operator and attribute keys mixed on a to-many relation is a 400',
    path: '/api/articles?filters[tags][$null]=true&filters[tags][name]=java',
    status: 400,
    match: badRequest,
  },

  // Totals and pages are counted on documents, not on joined rows.
  articles(
    'to-many filter matching twice in one document counts it once',
    'filters[tags][name][$in][0]=java&filters[tags][name][$in][1]=databases&sort=title',
    ['a', 'd', 'c'],
  ),
  articles(
    'page 1 of a to-many filter',
    'filters[tags][name][$in][0]=java&filters[tags][name][$in][1]=databases&sort=title&pagination[pageSize]=2&pagination[page]=1',
    ['a', 'd'],
    { page: 1, pageSize: 2, pageCount: 2, total: 3 },
  ),
  articles(
    'page 2 of a to-many filter',
    'filters[tags][name][$in][0]=java&filters[tags][name][$in][1]=databases&sort=title&pagination[pageSize]=2&pagination[page]=2',
    ['c'],
    { page: 2, pageSize: 2, pageCount: 2, total: 3 },
  ),
  articles(
    'start/limit with a to-many filter',
    'filters[tags][id][$notNull]=true&sort=title&pagination[start]=1&pagination[limit]=2',
    ['d', 'c'],
    { start: 1, limit: 2, total: 4 },
  ),
  articles('every tagged article once', 'filters[tags][name][$ne]=nothing&sort=title', ['a', 'd', 'c', 'b']),
  articles(
    '$or over two to-many conditions',
    'filters[$or][0][tags][name][$eq]=java&filters[$or][1][tags][name][$eq]=databases&sort=title&pagination[pageSize]=2',
    ['a', 'd'],
    { page: 1, pageSize: 2, pageCount: 2, total: 3 },
  ),
  articles('two levels of to-many joins', 'filters[tags][articles][tags][name][$eq]=java&sort=title', ['a', 'd', 'c']),
  articles(
    'nested repeatable component, several matching items',
    'filters[seo][keywords][word][$ne]=nothing&sort=title&pagination[pageSize]=1',
    ['a'],
    { page: 1, pageSize: 1, pageCount: 2, total: 2 },
  ),
  {
    name: 'inverse to-many: an author with two matching articles is listed once',
    path: '/api/authors?filters[articles][views][$gte]=0&fields[0]=name&sort=name',
    status: 200,
    equal: {
      data: [author('ada', 'Ada Lovelace'), author('grace', 'Grace Hopper')],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } },
    },
  },
  {
    name: 'populated to-many relation is unaffected by a to-many filter',
    path: '/api/articles?filters[tags][name][$eq]=java&fields[0]=title&sort=title&populate[tags][fields][0]=name&populate[tags][sort]=name',
    status: 200,
    equal: {
      data: [
        { id: ID, documentId: '{{a}}', title: TITLES.a, tags: [tagRow('java', 'java')] },
        { id: ID, documentId: '{{c}}', title: TITLES.c, tags: [tagRow('db', 'databases'), tagRow('java', 'java')] },
      ],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } },
    },
  },
]);

// ---------------------------------------------------------------------------------------------
// 2. Draft & publish: a filter reads the relations and components of the version it lists.
// ---------------------------------------------------------------------------------------------

Object.assign(TITLES, { p: 'Published piece', q: 'Draft only piece' });

scenario('deep filters follow the listed version (draft or published)', [
  {
    name: 'seed Ada',
    method: 'POST',
    path: '/api/authors',
    body: { data: { name: 'Ada Lovelace' } },
    status: 201,
    save: { ada: 'data.documentId' },
  },
  {
    name: 'seed Grace',
    method: 'POST',
    path: '/api/authors',
    body: { data: { name: 'Grace Hopper' } },
    status: 201,
    save: { grace: 'data.documentId' },
  },
  {
    name: 'published article by Ada',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'Published piece', author: '{{ada}}', seo: { metaTitle: 'Pub seo' } } },
    status: 201,
    save: { p: 'data.documentId' },
  },
  {
    name: 'draft-only article by Grace',
    method: 'POST',
    path: '/api/articles?status=draft&fields[0]=title',
    body: { data: { title: 'Draft only piece', author: '{{grace}}', seo: { metaTitle: 'Draft only seo' } } },
    status: 201,
    save: { q: 'data.documentId' },
  },
  {
    name: 'draft edit: author and seo change on the draft only',
    method: 'PUT',
    path: '/api/articles/{{p}}?status=draft&fields[0]=title',
    body: { data: { author: '{{grace}}', seo: { metaTitle: 'Draft seo' } } },
    status: 200,
  },
  articles('published list, relation as published', 'filters[author][name][$eq]=Ada%20Lovelace', ['p']),
  articles("published list does not see the draft's relation", 'filters[author][name][$eq]=Grace%20Hopper', []),
  articles(
    "draft list sees the drafts' relations",
    'status=draft&filters[author][name][$eq]=Grace%20Hopper&sort=title',
    ['q', 'p'],
  ),
  articles(
    'draft list does not see the published relation',
    'status=draft&filters[author][name][$eq]=Ada%20Lovelace',
    [],
  ),
  articles('published list, component as published', 'filters[seo][metaTitle][$eq]=Pub%20seo', ['p']),
  articles("published list does not see the draft's component", 'filters[seo][metaTitle][$eq]=Draft%20seo', []),
  articles("draft list sees the draft's component", 'status=draft&filters[seo][metaTitle][$eq]=Draft%20seo', ['p']),
  articles(
    'draft list does not see the published component',
    'status=draft&filters[seo][metaTitle][$startsWith]=Pub',
    [],
  ),
  {
    name: 'inverse side with status=draft finds the author of a draft-only article',
    path: '/api/authors?status=draft&filters[articles][title][$eq]=Draft%20only%20piece&fields[0]=name',
    status: 200,
    equal: {
      data: [{ id: ID, documentId: '{{grace}}', name: 'Grace Hopper' }],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },
    },
  },
  { name: 'publish the draft edit', method: 'PUT', path: '/api/articles/{{p}}', body: { data: {} }, status: 200 },
  articles('after publishing, the published list sees the new relation', 'filters[author][name][$eq]=Grace%20Hopper', [
    'p',
  ]),
  articles('after publishing, the published list sees the new component', 'filters[seo][metaTitle][$eq]=Draft%20seo', [
    'p',
  ]),
  articles(
    'after publishing, the old relation is gone from the published list',
    'filters[author][name][$eq]=Ada%20Lovelace',
    [],
  ),
]);

// ---------------------------------------------------------------------------------------------
// 3. Sorts on relation and component paths (dump 05 seed).
//    a: Alpha (Grace, [java], m-alpha), b: beta (Ada, [javascript], z-beta), c: Zeta (Ada,
//    [databases, java], a-zeta), d: Hello (Linus, [javascript, databases], k-hello), e: gamma
//    (no author, no tags, no seo).
// ---------------------------------------------------------------------------------------------

const SORT_TITLES = {
  a: 'Alpha release notes',
  b: 'beta testing guide',
  c: 'Zeta databases deep dive',
  d: 'Hello Strapi',
  e: 'gamma notes',
};
const sortAuthor = (as: string, name: string): Step => ({
  name: `seed-${as}`,
  method: 'POST',
  path: '/api/authors',
  body: { data: { name } },
  status: 201,
  save: { [as]: 'data.documentId' },
});
const sortTag = (as: string, name: string): Step => ({
  name: `seed-tag-${as}`,
  method: 'POST',
  path: '/api/tags',
  body: { data: { name } },
  status: 201,
  save: { [as]: 'data.documentId' },
});

/** GET /api/articles?<query>&fields[0]=title sorted as expected (no duplicate rows, total intact). */
function sorted(
  name: string,
  query: string,
  order: readonly (keyof typeof SORT_TITLES)[],
  pagination?: Record<string, number>,
): Step {
  return {
    name,
    path: `/api/articles?${query}&fields[0]=title`,
    status: 200,
    equal: {
      data: order.map((k) => ({ id: ID, documentId: `{{${k}}}`, title: SORT_TITLES[k] })),
      meta: { pagination: pagination ?? { page: 1, pageSize: 25, pageCount: 1, total: order.length } },
    },
  };
}

const withAuthor = (k: keyof typeof SORT_TITLES, authorVar: string | null, name?: string) => ({
  id: ID,
  documentId: `{{${k}}}`,
  title: SORT_TITLES[k],
  author: authorVar ? { id: ID, documentId: `{{${authorVar}}}`, name } : null,
});
const withSeo = (k: keyof typeof SORT_TITLES, metaTitle: string | null) => ({
  id: ID,
  documentId: `{{${k}}}`,
  title: SORT_TITLES[k],
  seo: metaTitle === null ? null : { id: ID, metaTitle },
});
const PAGE5 = { page: 1, pageSize: 25, pageCount: 1, total: 5 };

scenario('sorts on relation and component paths', [
  sortAuthor('ada', 'Ada Lovelace'),
  sortAuthor('grace', 'Grace Hopper'),
  sortAuthor('linus', 'Linus Torvalds'),
  sortTag('js', 'javascript'),
  sortTag('db', 'databases'),
  sortTag('java', 'java'),
  {
    name: 'seed-a',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: {
      data: {
        title: SORT_TITLES.a,
        views: 50,
        rating: 3,
        price: 5.5,
        category: 'news',
        author: '{{grace}}',
        tags: ['{{java}}'],
        publishDate: '2023-01-10',
        seo: { metaTitle: 'm-alpha' },
      },
    },
    status: 201,
    save: { a: 'data.documentId' },
  },
  {
    name: 'seed-b',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: {
      data: {
        title: SORT_TITLES.b,
        views: 0,
        rating: 4.9,
        price: 12,
        category: 'life',
        author: '{{ada}}',
        tags: ['{{js}}'],
        publishDate: '2024-12-24',
        seo: { metaTitle: 'z-beta' },
      },
    },
    status: 201,
    save: { b: 'data.documentId' },
  },
  {
    name: 'seed-c',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: {
      data: {
        title: SORT_TITLES.c,
        views: 120,
        rating: 2.2,
        price: 99.99,
        category: 'tech',
        author: '{{ada}}',
        tags: ['{{db}}', '{{java}}'],
        publishDate: '2025-03-03',
        seo: { metaTitle: 'a-zeta' },
      },
    },
    status: 201,
    save: { c: 'data.documentId' },
  },
  {
    name: 'seed-d',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: {
      data: {
        title: SORT_TITLES.d,
        views: 10,
        rating: 4.5,
        price: 19.99,
        category: 'tech',
        author: '{{linus}}',
        tags: ['{{js}}', '{{db}}'],
        publishDate: '2024-05-17',
        seo: { metaTitle: 'k-hello' },
      },
    },
    status: 201,
    save: { d: 'data.documentId' },
  },
  {
    name: 'seed-e',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: SORT_TITLES.e, views: 10, category: 'news' } },
    status: 201,
    save: { e: 'data.documentId' },
  },
  {
    name: 'relation-dotted (sort=author.name:desc,title; no author sorts last)',
    path: '/api/articles?sort=author.name:desc,title&fields[0]=title&populate[author][fields][0]=name',
    status: 200,
    equal: {
      data: [
        withAuthor('d', 'linus', 'Linus Torvalds'),
        withAuthor('a', 'grace', 'Grace Hopper'),
        withAuthor('c', 'ada', 'Ada Lovelace'),
        withAuthor('b', 'ada', 'Ada Lovelace'),
        withAuthor('e', null),
      ],
      meta: { pagination: PAGE5 },
    },
  },
  sorted(
    'relation-object (sort[0][author][name]=asc&sort[1][title]=asc; no author sorts first)',
    'sort[0][author][name]=asc&sort[1][title]=asc',
    ['e', 'c', 'b', 'a', 'd'],
  ),
  sorted(
    'relation, object form sort[author][name]=asc with a title tie-break',
    'sort[author][name]=asc&sort[title]=desc',
    ['e', 'b', 'c', 'a', 'd'],
  ),
  sorted('relation, dotted form with a tie-break in the same string', 'sort=author.name:asc,title:desc', [
    'e',
    'b',
    'c',
    'a',
    'd',
  ]),
  sorted('relation then scalar, array form', 'sort[0]=author.name:desc&sort[1]=views:desc', ['d', 'a', 'c', 'b', 'e']),
  {
    name: 'component-field (sort=seo.metaTitle:desc; no seo sorts last)',
    path: '/api/articles?sort=seo.metaTitle:desc&fields[0]=title&populate[seo][fields][0]=metaTitle',
    status: 200,
    equal: {
      data: [
        withSeo('b', 'z-beta'),
        withSeo('a', 'm-alpha'),
        withSeo('d', 'k-hello'),
        withSeo('c', 'a-zeta'),
        withSeo('e', null),
      ],
      meta: { pagination: PAGE5 },
    },
  },
  sorted('component-sort-by-subfield ascending (no seo sorts first)', 'sort=seo.metaTitle', ['e', 'c', 'd', 'a', 'b']),
  sorted('component, object form', 'sort[seo][metaTitle]=desc', ['b', 'a', 'd', 'c', 'e']),
  sorted('relation sort with a filter', 'sort=author.name:desc&filters[views][$gte]=10', ['d', 'a', 'c', 'e']),
  sorted('relation sort with a relation filter', 'sort=seo.metaTitle&filters[author][name][$eq]=Ada%20Lovelace', [
    'c',
    'b',
  ]),
  sorted(
    'relation sort, page 2',
    'sort[0]=author.name&sort[1]=title:desc&pagination[pageSize]=2&pagination[page]=2',
    ['c', 'a'],
    { page: 2, pageSize: 2, pageCount: 3, total: 5 },
  ),
  sorted(
    'relation sort, start/limit',
    'sort=author.name:desc,title&pagination[start]=3&pagination[limit]=5',
    ['b', 'e'],
    { start: 3, limit: 5, total: 5 },
  ),
  // Ties on a relation value fall back to the row id (Strapi's deep sort appends `id asc`).
  sorted("tie-break: sort=author.name alone orders Ada's two articles by id", 'sort=author.name', [
    'e',
    'b',
    'c',
    'a',
    'd',
  ]),
  sorted('tie-break: descending too', 'sort=author.name:desc', ['d', 'a', 'b', 'c', 'e']),
  sorted('tie-break is stable across pages', 'sort=author.name&pagination[pageSize]=2&pagination[page]=2', ['c', 'a'], {
    page: 2,
    pageSize: 2,
    pageCount: 3,
    total: 5,
  }),
  // To-many sort: one row per document, keyed on its first value in the requested order
  // (smallest ascending, largest descending), then by id; a document without values sorts as NULL.
  sorted('to-many sort=tags.name: every document once, total unchanged', 'sort=tags.name', ['e', 'c', 'd', 'a', 'b']),
  sorted('to-many sort=tags.name:desc', 'sort=tags.name:desc', ['b', 'd', 'a', 'c', 'e']),
  sorted('to-many sort with a title tie-break', 'sort=tags.name,title', ['e', 'd', 'c', 'a', 'b']),
  sorted('to-many sort, page 1', 'sort=tags.name:desc,title&pagination[pageSize]=3', ['d', 'b', 'a'], {
    page: 1,
    pageSize: 3,
    pageCount: 2,
    total: 5,
  }),
  sorted(
    'to-many sort, page 2 holds the rest (no duplicates across pages)',
    'sort=tags.name:desc,title&pagination[pageSize]=3&pagination[page]=2',
    ['c', 'e'],
    { page: 2, pageSize: 3, pageCount: 2, total: 5 },
  ),
  sorted(
    'to-many sort with a to-many filter',
    'sort=tags.name:desc&filters[tags][name][$in][0]=java&filters[tags][name][$in][1]=databases',
    ['d', 'a', 'c'],
    { page: 1, pageSize: 25, pageCount: 1, total: 3 },
  ),
  {
    name: 'inverse to-many sort on authors: every author once',
    path: '/api/authors?sort=articles.title&fields[0]=name',
    status: 200,
    check: ({ json }) => {
      expect(json.data.map((d: { name: string }) => d.name).sort()).toEqual([
        'Ada Lovelace',
        'Grace Hopper',
        'Linus Torvalds',
      ]);
      expect(json.meta.pagination.total).toBe(3);
    },
  },
  {
    name: 'relation-without-field',
    path: '/api/articles?sort=author',
    status: 400,
    equal: invalidSortKey('author', 'author'),
  },
  {
    name: 'relation-without-field, with an order',
    path: '/api/articles?sort=author:desc',
    status: 400,
    equal: invalidSortKey('author', 'author'),
  },
  {
    name: 'relation-bad-subfield',
    path: '/api/articles?sort=author.nope',
    status: 400,
    equal: invalidSortKey('nope', 'author'),
  },
  {
    name: 'component-without-field',
    path: '/api/articles?sort=seo:asc',
    status: 400,
    equal: invalidSortKey('asc', 'seo'),
  },
  { name: 'dynamic-zone', path: '/api/articles?sort=blocks', status: 400, equal: invalidSortKey('blocks', 'blocks') },
  {
    name: 'dynamic zone with a sub-field',
    path: '/api/articles?sort=blocks.title',
    status: 400,
    match: {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key blocks',
        details: { key: 'blocks', param: 'sort', source: 'query' },
      },
    },
  },
  {
    name: 'dynamic zone with a sub-field, object form',
    path: '/api/articles?sort[blocks][title]=asc',
    status: 400,
    match: {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key blocks',
        details: { key: 'blocks', param: 'sort', source: 'query' },
      },
    },
  },
  {
    name: 'relation two levels down without a field',
    path: '/api/articles?sort=author.articles',
    status: 400,
    match: {
      data: null,
      error: { status: 400, name: 'ValidationError', details: { key: 'articles', param: 'sort', source: 'query' } },
    },
  },
  {
    name: 'unknown field under a component',
    path: '/api/articles?sort=seo.nope',
    status: 400,
    equal: invalidSortKey('nope', 'seo'),
  },
  {
    name: 'bad direction on a relation path',
    path: '/api/articles?sort=author.name:sideways',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid order. order can only be one of asc|desc|ASC|DESC', {}),
  },
  {
    name: 'password two levels down',
    path: '/api/tags?sort=articles.secretCode',
    status: 400,
    match: {
      data: null,
      error: { status: 400, name: 'ValidationError', details: { key: 'secretCode', param: 'sort', source: 'query' } },
    },
  },
]);
