import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gql, pluginsWithGraphql, restCreate } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Answers recorded from Strapi 5.54's GraphQL plugin (conformance set 21) where Cairn differed
 * (issue 35 point 4): a `Long` given as a string literal holding an integer, a bad token, a
 * document of several operations without an operation name.
 */

for (const database of inject('databases')) {
  describe(`[${database}] GraphQL answers as the plugin's`, () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/plugins.js': pluginsWithGraphql() } });
      await restCreate(server, 'articles', { title: 'Big', bigcount: '9007199254740993' });
      await restCreate(server, 'articles', { title: 'Small', bigcount: '7' });
    });
    afterAll(() => server?.close());

    it('a Long filter given as a string literal holding an integer is read as that integer', async () => {
      const response = await gql(server, '{ articles(filters: { bigcount: { gt: "100" } }) { title bigcount } }');
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ data: { articles: [{ title: 'Big', bigcount: '9007199254740993' }] } });
    });

    it('a bad token is the REST 401, before the query is read', async () => {
      const response = await gql(server, '{ articles { title } }', undefined, { auth: 'bad' });
      expect(response.status).toBe(401);
      expect(response.json).toEqual({
        data: null,
        error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} },
      });
      const unparsable = await gql(server, '{ articles { title ', undefined, { auth: 'bad' });
      expect(unparsable.status).toBe(401);
    });

    it('several operations without an operation name: OPERATION_RESOLUTION_FAILURE', async () => {
      const response = await gql(server, 'query A { tags { name } } query B { authors { name } }');
      expect(response.status).toBe(400);
      expect(response.json).toEqual({
        errors: [
          {
            message: 'Must provide operation name if query contains multiple operations.',
            extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
          },
        ],
      });
    });
  });
}
