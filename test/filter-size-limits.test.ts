import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gql, pluginsWithGraphql, restCreate } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * How large one filters parameter may be (issue 35 point 4), through REST and GraphQL alike: an
 * `in` list of 70,000 values was a 500 on every database (more statement parameters than the
 * database takes) and an `or` of 1,000 conditions a 500 on SQLite (an expression tree deeper than
 * it parses). Up to the documented bounds (1,000 conditions, 10,000 `$in`/`$notIn` values) the
 * answer is right; past them it is a ValidationError naming the bound.
 */

const TITLES = ['alpha', 'beta', 'gamma'];
const LIST_QUERY =
  'query ($titles: [String]) { articles(filters: { title: { in: $titles } }, sort: "title") { title } }';
const OR_QUERY = 'query ($filters: ArticleFiltersInput) { articles(filters: $filters, sort: "title") { title } }';

/** `count` titles, the first two of which exist. */
const titles = (count: number) => ['alpha', 'beta', ...Array.from({ length: count - 2 }, (_, i) => `m${i}`)];
/** An `or` of `count` title conditions, the first two of which match. */
const orOf = (count: number) => ({ or: titles(count).map((title) => ({ title: { eq: title } })) });

const refusal = (message: string) => ({
  data: null,
  errors: [
    {
      message,
      path: ['articles'],
      extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message } },
    },
  ],
});
const TOO_MANY_VALUES =
  'Too many filter values: the $in and $notIn lists of filters may hold at most 10000 values together';
const TOO_MANY_CONDITIONS = 'Too many filter conditions: filters may hold at most 1000 conditions, all levels together';

for (const database of inject('databases')) {
  describe(`[${database}] the size of one filters parameter`, () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/plugins.js': pluginsWithGraphql() } });
      for (const title of TITLES) await restCreate(server, 'articles', { title });
    });
    afterAll(() => server?.close());

    it.each<[string, string, Record<string, unknown>]>([
      ['an `in` list of 10,000 values', LIST_QUERY, { titles: titles(10_000) }],
      ['an `or` of 1,000 conditions (was a 500 on SQLite)', OR_QUERY, { filters: orOf(1_000) }],
    ])('GraphQL: %s is answered', async (_name, query, variables) => {
      const response = await gql(server, query, variables);
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ data: { articles: [{ title: 'alpha' }, { title: 'beta' }] } });
    });

    it('a GraphQL `in` list of 70,000 values is refused, naming the bound (was a 500)', async () => {
      const response = await gql(server, LIST_QUERY, { titles: titles(70_000) });
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject(refusal(TOO_MANY_VALUES));
    });

    it('`in` lists count together, at every level', async () => {
      const half = titles(5_001);
      const response = await gql(
        server,
        'query ($a: [String], $b: [String]) { articles(filters: { title: { in: $a }, author: { name: { notIn: $b } } }) { title } }',
        { a: half, b: half },
      );
      expect(response.json).toMatchObject(refusal(TOO_MANY_VALUES));
    });

    it('a GraphQL `or` of 1,001 conditions is refused, naming the bound', async () => {
      const response = await gql(server, OR_QUERY, { filters: orOf(1_001) });
      expect(response.json).toMatchObject(refusal(TOO_MANY_CONDITIONS));
    });

    it('a REST `$or` of 1,000 conditions, as many as a query string carries, is answered (was a 500 on SQLite)', async () => {
      const query = titles(1_000)
        .map((title, i) => `filters[$or][${i}][title][$eq]=${title}`)
        .join('&');
      const response = await server.request('GET', `/api/articles?${query}&sort=title&fields[0]=title`);
      expect(response.status, response.text.slice(0, 300)).toBe(200);
      expect(response.json.data.map((article: { title: string }) => article.title)).toEqual(['alpha', 'beta']);
    });

    it('a REST `$in` list of 1,000 values is answered', async () => {
      const query = titles(1_000)
        .map((title) => `filters[title][$in][]=${title}`)
        .join('&');
      const response = await server.request('GET', `/api/articles?${query}&sort=title&fields[0]=title`);
      expect(response.status, response.text.slice(0, 300)).toBe(200);
      expect(response.json.data.map((article: { title: string }) => article.title)).toEqual(['alpha', 'beta']);
    });
  });
}
