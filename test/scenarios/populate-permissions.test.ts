import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import { A1_TITLE, ADA, JS, JS_NAME } from '../support/populate-fixture.js';
import { dbStep, errorBody, scenario, type Step } from '../support/scenario.js';
import { ID, list } from '../support/shapes.js';

// Permissions: relations whose target the caller may not `find` are silently not populated
// (Strapi 5.54, behaviour reference §4). Entries as in ../support/populate-fixture.ts.
//
// Filtering or sorting a populated relation through a relation the caller may not `find` is a
// 400, as it is at the top level (§1.6), so the populated list cannot reveal what the caller may
// not read. (Strapi 5.54's REST validator checks populate without the caller's permissions and so
// answers these with the filtered list; Cairn refuses them.) The error is the one Strapi gives
// for other bad keys inside a populate: path counted from the populated target, param populate.

/** Creates a custom API token with these permissions and remembers its key as `vars[name]`. */
function token(name: string, permissions: string[]): Step {
  return dbStep(`create token ${name}: ${permissions.join(', ')}`, async ({ server, vars }) => {
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
/** GET `path` with the token saved as `vars[tokenName]`: 200 with exactly `expected`. */
const readWith = (name: string, tokenName: string, path: string, expected: unknown): Step => ({
  name,
  path,
  headers: bearer(tokenName),
  status: 200,
  equal: expected,
});
/** GET `path` with the token saved as `vars[tokenName]`: 400 ValidationError `message` with `details`. */
const refusedWith = (
  name: string,
  tokenName: string,
  path: string,
  message: string,
  details: Record<string, unknown>,
): Step => ({
  name,
  path,
  headers: bearer(tokenName),
  status: 400,
  equal: errorBody(400, 'ValidationError', message, details),
});
/** The details of a refused key inside a populate's filters or sort (`path` from the populated target). */
const inPopulate = (key: string) => ({ key, path: key, source: 'query', param: 'populate' });
const QUOTE = { __component: 'shared.quote', id: ID, title: 'Q1', body: 'To be' };

scenario('populate: permission pruning', [
  {
    name: 'seed author Ada',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Ada Lovelace', email: 'ada@example.com' } },
    status: 201,
    save: { ada: 'data.documentId', adaId: 'data.id' },
  },
  {
    name: 'seed tag javascript',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    body: { data: { name: 'javascript' } },
    status: 201,
    save: { js: 'data.documentId', jsId: 'data.id' },
  },
  {
    name: 'seed an article with author, tags and a quote by Ada',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: {
      data: {
        title: 'Hello Strapi',
        author: '{{ada}}',
        tags: ['{{js}}'],
        blocks: [{ __component: 'shared.quote', title: 'Q1', body: 'To be', author: '{{ada}}' }],
      },
    },
    status: 201,
    save: { a1: 'data.documentId' },
  },
  {
    name: 'remember its published id',
    path: '/api/articles/{{a1}}?fields[0]=title',
    status: 200,
    save: { a1Id: 'data.id' },
  },
  token('articlesOnly', ['api::article.article.find']),
  token('withTags', ['api::article.article.find', 'api::tag.tag.find']),
  token('withAuthors', ['api::article.article.find', 'api::author.author.find']),
  {
    name: 'the Public role (find on authors and tags) populates both',
    path: '/api/articles?fields[0]=title&populate=author,tags',
    status: 200,
    equal: list([{ ...A1_TITLE, author: ADA, tags: [JS] }]),
  },
  readWith(
    'without tag/author find: neither key, no error',
    'articlesOnly',
    '/api/articles?fields[0]=title&populate=author,tags',
    list([A1_TITLE]),
  ),
  readWith(
    'with tag find: tags present, author absent',
    'withTags',
    '/api/articles?fields[0]=title&populate=author,tags',
    list([{ ...A1_TITLE, tags: [JS] }]),
  ),
  readWith(
    'object form is pruned the same way',
    'withTags',
    '/api/articles?fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name',
    list([{ ...A1_TITLE, tags: [JS_NAME] }]),
  ),
  readWith(
    'a dot path through a forbidden relation is dropped whole',
    'articlesOnly',
    '/api/articles?fields[0]=title&populate=author.articles',
    list([A1_TITLE]),
  ),
  readWith(
    'populate=* leaves out forbidden relations only (media, components, DZ, localizations stay)',
    'articlesOnly',
    '/api/articles?fields[0]=title&populate=*',
    list([
      {
        ...A1_TITLE,
        cover: null,
        gallery: [],
        seo: null,
        blocks: [{ __component: 'shared.quote', id: ID, title: 'Q1', body: 'To be' }],
        localizations: [],
      },
    ]),
  ),
  readWith(
    'relations inside a DZ are pruned too',
    'articlesOnly',
    '/api/articles?fields[0]=title&populate[blocks][populate]=*',
    list([{ ...A1_TITLE, blocks: [QUOTE] }]),
  ),
  readWith(
    'and through an on fragment',
    'withTags',
    '/api/articles?fields[0]=title&populate[blocks][on][shared.quote][populate][author][fields][0]=name',
    list([{ ...A1_TITLE, blocks: [QUOTE] }]),
  ),
  token('tagsAndArticles', ['api::tag.tag.find', 'api::article.article.find']),
  refusedWith(
    'top level: filtering tags through articles.author',
    'tagsAndArticles',
    '/api/tags?filters[articles][author][name][$startsWith]=Ada',
    'Invalid key author at articles.author',
    { key: 'author', path: 'articles.author', source: 'query', param: 'filters' },
  ),
  refusedWith(
    'populate filters through a relation the caller may not find',
    'tagsAndArticles',
    '/api/tags?fields[0]=name&populate[articles][fields][0]=title&populate[articles][filters][author][name][$startsWith]=Ada',
    'Invalid key author',
    inPopulate('author'),
  ),
  refusedWith(
    'also under $or and $not',
    'tagsAndArticles',
    '/api/tags?populate[articles][filters][$or][0][title]=x&populate[articles][filters][$or][1][$not][author][name]=Ada',
    'Invalid key author',
    inPopulate('author'),
  ),
  refusedWith(
    'populate sort through it',
    'tagsAndArticles',
    '/api/tags?fields[0]=name&populate[articles][fields][0]=title&populate[articles][sort]=author.name',
    'Invalid key author',
    inPopulate('author'),
  ),
  refusedWith(
    'populate sort, object form',
    'tagsAndArticles',
    '/api/tags?populate[articles][sort][author][name]=desc',
    'Invalid key author',
    inPopulate('author'),
  ),
  refusedWith(
    'deeper: a nested populate',
    'withTags',
    '/api/articles?fields[0]=title&populate[tags][populate][articles][filters][author][name][$eq]=Ada',
    'Invalid key author',
    inPopulate('author'),
  ),
  readWith(
    'populate filters through findable relations still filter',
    'tagsAndArticles',
    '/api/tags?fields[0]=name&populate[articles][fields][0]=title&populate[articles][filters][tags][name][$eq]=javascript&populate[articles][sort]=tags.name',
    list([{ ...JS_NAME, articles: [A1_TITLE] }]),
  ),
  readWith(
    'a relation the caller may not populate is dropped with its filters (no error)',
    'withTags',
    '/api/articles?fields[0]=title&populate[author][filters][articles][title][$eq]=x',
    list([A1_TITLE]),
  ),
  readWith(
    'with author find the quote author is populated',
    'withAuthors',
    '/api/articles?fields[0]=title&populate[blocks][populate]=*',
    list([{ ...A1_TITLE, blocks: [{ ...QUOTE, author: ADA }] }]),
  ),
]);
