import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildGraphqlSchema } from '../src/graphql/build-graphql-schema.js';
import { compiledOperations, expandedSelections } from '../src/graphql/compiled-operations.js';
import { loadProject } from '../src/project/load-project.js';
import { gql, pluginsWithGraphql, restCreate } from './support/graphql.js';
import { EXAMPLE_PROJECT, startTestServer, type TestServer } from './support/test-server.js';

/*
 * Operations run compiled (graphql-jit) from their second run on, unless their document expands
 * too far; the compiled answer must be the one graphql-js gives. Each operation is sent as
 * written twice (the second run compiled) and once more padded with 2,600 spreads of a root fragment selecting `__typename` — the same answer, but
 * past the compile bound, so graphql-js executes it — and the two responses must be equal.
 */

const PADDING_SPREADS = 2_600;

/**
 * The operation with `__typename` selected at its root, as written or padded past the compile
 * bound; the padding goes at the end of the root selection set, so that error locations match.
 */
function variants(operation: string): { compiled: string; interpreted: string } {
  const open = operation.indexOf('{');
  let depth = 0;
  let close = open;
  for (; close < operation.length; close++) {
    if (operation[close] === '{') depth++;
    else if (operation[close] === '}' && --depth === 0) break;
  }
  const compiled = `${operation.slice(0, open + 1)} __typename${operation.slice(open + 1)}`;
  const end = close + ' __typename'.length;
  const padding = ' ...Pad'.repeat(PADDING_SPREADS);
  return {
    compiled,
    interpreted: `${compiled.slice(0, end)}${padding} ${compiled.slice(end)} fragment Pad on Query { __typename }`,
  };
}

const CASES: readonly [string, string, Record<string, unknown>?][] = [
  [
    'scalars, sort and pagination',
    '{ articles(sort: "title:desc", pagination: { limit: 2 }) { documentId title views isFeatured publishDate createdAt } }',
  ],
  [
    'nested relations with their own arguments',
    '{ articles(sort: "title") { title author { name articles(sort: "title", pagination: { limit: 1 }) { title } } tags(sort: "name:desc") { name } } }',
  ],
  [
    'aliases and fragments',
    'query { first: articles(sort: "title", pagination: { limit: 1 }) { ...A } all: articles(sort: "title") { t: title ...A } } fragment A on Article { title author { n: name } }',
  ],
  [
    'dynamic zone members by inline fragments, __typename',
    '{ articles(sort: "title") { title blocks { __typename ... on ComponentSharedQuote { id title author { name } } ... on ComponentSharedRichText { body } } } }',
  ],
  ['components and repeatable components', '{ articles(sort: "title") { seo { metaTitle keywords { word } } } }'],
  [
    // graphql-jit unrolls a recursive input type without end: sent twice, this ran out of memory.
    'a filters variable, of an input type that contains itself (left to graphql-js)',
    'query ($f: ArticleFiltersInput) { articles(filters: $f, sort: "title") { title } }',
    { f: { or: [{ title: { eq: 'World' } }, { author: { name: { eq: 'Ada Lovelace' } } }] } },
  ],
  [
    '@skip and @include by variables, on fields, inline fragments and spreads',
    'query ($withTags: Boolean!, $noAuthor: Boolean!) { articles(sort: "title") { title tags @include(if: $withTags) { name } author @skip(if: $noAuthor) { name } ... on Article @include(if: $withTags) { views } ...F @skip(if: $withTags) } } fragment F on Article { slug }',
    { withTags: true, noAuthor: true },
  ],
  [
    'filters by variables',
    'query ($title: String) { articles(filters: { title: { containsi: $title } }) { title } }',
    { title: 'hello' },
  ],
  [
    'connection with pageInfo',
    '{ articles_connection(sort: "title", pagination: { page: 1, pageSize: 1 }) { nodes { title } pageInfo { page pageSize pageCount total } } }',
  ],
  [
    'a single document, a locale, drafts',
    '{ fr: articles(locale: "fr") { title locale } drafts: articles(status: DRAFT, sort: "title") { title publishedAt } }',
  ],
  [
    'a relation the public caller may not read is Forbidden at its path',
    '{ articles(sort: "title") { title editor { name } } }',
  ],
  [
    'nested arguments refused at their path',
    '{ articles(sort: "title") { title tags(sort: "nope") { name } author { name } } }',
  ],
  [
    'variables that do not fit their types',
    'query ($n: Int) { articles(pagination: { limit: $n }) { title } }',
    { n: 'ten' },
  ],
  ['an unknown document is null', '{ article(documentId: "missing") { title } }'],
];

for (const database of inject('databases')) {
  describe(`[${database}] compiled GraphQL execution answers as graphql-js does`, () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({
        database,
        files: {
          'config/plugins.js': pluginsWithGraphql(),
          'config/permissions.js': `module.exports = () => ({ public: ['api::article.article.find', 'api::article.article.findOne', 'api::author.author.find', 'api::tag.tag.find'] });`,
        },
      });
      const ada = await restCreate(server, 'authors', { name: 'Ada' });
      const grace = await restCreate(server, 'authors', { name: 'Grace' });
      const tags = [
        await restCreate(server, 'tags', { name: 'js' }),
        await restCreate(server, 'tags', { name: 'sql' }),
      ];
      const hello = await restCreate(server, 'articles', {
        title: 'Hello',
        slug: 'hello',
        views: 7,
        author: ada,
        editor: grace,
        tags,
        seo: { metaTitle: 'SEO', keywords: [{ word: 'a' }, { word: 'b' }] },
        blocks: [
          { __component: 'shared.quote', title: 'Q', body: 'B', author: grace },
          { __component: 'shared.rich-text', body: 'R' },
        ],
      });
      await restCreate(server, 'articles', { title: 'World', slug: 'world', author: grace, tags: [tags[1]] });
      await restCreate(server, 'articles', { title: 'Draft only', author: ada }, '?status=draft');
      const fr = await server.request('PUT', `/api/articles/${hello}?locale=fr`, {
        auth: 'full',
        body: { data: { title: 'Bonjour' } },
      });
      expect(fr.status).toBe(200);
    });
    afterAll(() => server?.close());

    it.each(CASES)('%s', async (_name, operation, variables) => {
      const { compiled, interpreted } = variants(operation);
      expect(expandedSelections(parse(compiled), 5_000)).toBeLessThanOrEqual(5_000);
      expect(expandedSelections(parse(interpreted), 5_000)).toBeGreaterThan(5_000);
      // A text is compiled the second time it runs: the first answer is graphql-js' own.
      const first = await gql(server, compiled, variables);
      const a = await gql(server, compiled, variables);
      const b = await gql(server, interpreted, variables);
      expect(first.json).toEqual(b.json);
      expect(a.status).toBe(b.status);
      expect(a.json).toEqual(b.json);
      // Every case answers something: data (with or without errors) or the request's errors.
      expect(a.json.data ?? a.json.errors).toBeTruthy();
    });
  });
}

describe('expandedSelections', () => {
  it('counts every spread each time it appears, each fragment measured once', () => {
    const chain = (n: number) =>
      `{ articles { ...F0 } } ${Array.from({ length: n }, (_, i) =>
        i === n - 1 ? `fragment F${i} on Article { title }` : `fragment F${i} on Article { ...F${i + 1} ...F${i + 1} }`,
      ).join(' ')}`;
    // articles(1) + spread(1) + F0; F(n-1) = 1; F(i) = 2 × (1 + F(i+1)).
    expect(expandedSelections(parse(chain(3)), 1_000)).toBe(2 + 2 * (1 + 2 * (1 + 1)));
    expect(expandedSelections(parse(chain(40)), 1_000)).toBe(1_001);
    expect(expandedSelections(parse('{ articles { title author { name } } }'), 1_000)).toBe(4);
  });
});

describe('compiledOperations', () => {
  it('compiles a document of the blog schema the second time it runs; introspection and huge expansions never', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-compiled-'));
    try {
      cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (path) => !/[\\/](\.env|\.tmp)$/.test(path) });
      const model = (await loadProject(dir, {})).schema;
      const schema = buildGraphqlSchema(
        model,
        { shadowCRUD: true },
        { root: () => () => [], nested: () => () => null, resolveType: () => undefined },
      );
      const refused: unknown[] = [];
      const compiled = compiledOperations(schema, (reason) => refused.push(reason));
      const document = parse(
        'query ($n: Int) { articles(pagination: { limit: $n }, filters: { title: { eq: "x" } }) { title tags { name } } }',
      );
      expect(compiled(document, undefined)).toBeNull();
      const run = compiled(document, undefined);
      expect(refused).toEqual([]);
      expect(run).toBeTypeOf('function');
      expect(await run?.({}, { n: 2 })).toEqual({ data: { articles: [] } });
      const introspection = parse('{ __schema { queryType { name } } }');
      compiled(introspection, undefined);
      expect(compiled(introspection, undefined)).toBeNull();
      const padded = parse(`{ ${' ...P'.repeat(2_600)} } fragment P on Query { __typename }`);
      compiled(padded, undefined);
      expect(compiled(padded, undefined)).toBeNull();
      expect(refused).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
