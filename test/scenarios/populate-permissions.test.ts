import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import { A1_TITLE, ADA, JS, JS_NAME } from '../support/populate-fixture.js';
import { dbStep, scenario, type Step } from '../support/scenario.js';
import { ID, list } from '../support/shapes.js';

// Permissions: relations whose target the caller may not `find` are silently not populated
// (Strapi 5.54, behaviour reference §4). Entries as in ../support/populate-fixture.ts.

/** Creates a custom API token with these permissions and remembers its key as `vars[name]`. */
function token(name: string, permissions: string[]): Step {
  return dbStep(`create token ${name}: ${permissions.join(', ')}`, async ({ server, vars }) => {
    const { config } = server.app.project;
    vars[name] = await createApiToken(server.app.db, { salt: config.admin.apiTokenSalt, encryptionKey: config.admin.encryptionKey }, { name, type: 'custom', permissions }, new Date());
  });
}
const bearer = (name: string) => ({ authorization: `Bearer {{${name}}}` });
/** GET `path` with the token saved as `vars[tokenName]`: 200 with exactly `expected`. */
const readWith = (name: string, tokenName: string, path: string, expected: unknown): Step => ({ name, path, headers: bearer(tokenName), status: 200, equal: expected });
const QUOTE = { __component: 'shared.quote', id: ID, title: 'Q1', body: 'To be' };

scenario('populate: permission pruning', [
  { name: 'seed author Ada', method: 'POST', path: '/api/authors?fields[0]=name', body: { data: { name: 'Ada Lovelace', email: 'ada@example.com' } }, status: 201, save: { ada: 'data.documentId', adaId: 'data.id' } },
  { name: 'seed tag javascript', method: 'POST', path: '/api/tags?fields[0]=name', body: { data: { name: 'javascript' } }, status: 201, save: { js: 'data.documentId', jsId: 'data.id' } },
  {
    name: 'seed an article with author, tags and a quote by Ada',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'Hello Strapi', author: '{{ada}}', tags: ['{{js}}'], blocks: [{ __component: 'shared.quote', title: 'Q1', body: 'To be', author: '{{ada}}' }] } },
    status: 201,
    save: { a1: 'data.documentId' },
  },
  { name: 'remember its published id', path: '/api/articles/{{a1}}?fields[0]=title', status: 200, save: { a1Id: 'data.id' } },
  token('articlesOnly', ['api::article.article.find']),
  token('withTags', ['api::article.article.find', 'api::tag.tag.find']),
  token('withAuthors', ['api::article.article.find', 'api::author.author.find']),
  {
    name: 'the Public role (find on authors and tags) populates both',
    path: '/api/articles?fields[0]=title&populate=author,tags',
    status: 200,
    equal: list([{ ...A1_TITLE, author: ADA, tags: [JS] }]),
  },
  readWith('without tag/author find: neither key, no error', 'articlesOnly', '/api/articles?fields[0]=title&populate=author,tags', list([A1_TITLE])),
  readWith('with tag find: tags present, author absent', 'withTags', '/api/articles?fields[0]=title&populate=author,tags', list([{ ...A1_TITLE, tags: [JS] }])),
  readWith('object form is pruned the same way', 'withTags', '/api/articles?fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name', list([{ ...A1_TITLE, tags: [JS_NAME] }])),
  readWith('a dot path through a forbidden relation is dropped whole', 'articlesOnly', '/api/articles?fields[0]=title&populate=author.articles', list([A1_TITLE])),
  readWith(
    'populate=* leaves out forbidden relations only (media, components, DZ, localizations stay)',
    'articlesOnly',
    '/api/articles?fields[0]=title&populate=*',
    list([{ ...A1_TITLE, cover: null, gallery: [], seo: null, blocks: [{ __component: 'shared.quote', id: ID, title: 'Q1', body: 'To be' }], localizations: [] }]),
  ),
  readWith('relations inside a DZ are pruned too', 'articlesOnly', '/api/articles?fields[0]=title&populate[blocks][populate]=*', list([{ ...A1_TITLE, blocks: [QUOTE] }])),
  readWith('and through an on fragment', 'withTags', '/api/articles?fields[0]=title&populate[blocks][on][shared.quote][populate][author][fields][0]=name', list([{ ...A1_TITLE, blocks: [QUOTE] }])),
  readWith('with author find the quote author is populated', 'withAuthors', '/api/articles?fields[0]=title&populate[blocks][populate]=*', list([{ ...A1_TITLE, blocks: [{ ...QUOTE, author: ADA }] }])),
]);
