import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gql, pluginsWithGraphql, restCreate } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * GraphQL writes and the users-permissions fields (issue 19), on each database: mutations go
 * through the document service (validation, relations, components, dynamic zones told apart by
 * `__typename`, draft & publish), permission checks use the REST actions, and errors come in
 * the plugin's format with `data` null where the field is.
 */

const forbidden = (field: string) => ({
  message: 'Forbidden access',
  path: [field],
  extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } },
});

for (const database of inject('databases')) {
  describe(`[${database}] GraphQL mutations`, () => {
    let server: TestServer;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/plugins.js': pluginsWithGraphql() } });
      ids.ada = await restCreate(server, 'authors', { name: 'Ada Lovelace' });
      ids.js = await restCreate(server, 'tags', { name: 'javascript' });
      ids.db = await restCreate(server, 'tags', { name: 'databases' });
    });
    afterAll(() => server?.close());

    it('create → update → delete, each answered with the selection, and REST sees the same', async () => {
      const created = await gql(
        server,
        `mutation Make($data: ArticleInput!) { createArticle(data: $data) { documentId title author { name } tags { name } seo { metaTitle keywords { word } }
          blocks { __typename ... on ComponentSharedQuote { title author { name } } ... on ComponentSharedRichText { body } } } }`,
        {
          data: {
            title: 'Made by GraphQL',
            author: ids.ada,
            tags: [ids.db],
            seo: { metaTitle: 'GQL', keywords: [{ word: 'k' }] },
            blocks: [
              { __typename: 'ComponentSharedRichText', body: 'zone text' },
              { __typename: 'ComponentSharedQuote', title: 'ZQ', author: ids.ada },
            ],
          },
        },
      );
      expect(created.status, created.text).toBe(200);
      const made = created.json.data.createArticle;
      expect(made).toMatchObject({
        title: 'Made by GraphQL',
        author: { name: 'Ada Lovelace' },
        tags: [{ name: 'databases' }],
        seo: { metaTitle: 'GQL', keywords: [{ word: 'k' }] },
        blocks: [
          { __typename: 'ComponentSharedRichText', body: 'zone text' },
          { __typename: 'ComponentSharedQuote', title: 'ZQ', author: { name: 'Ada Lovelace' } },
        ],
      });
      const rest = await server.request('GET', `/api/articles/${made.documentId}?populate=tags`);
      expect(rest.json.data).toMatchObject({ title: 'Made by GraphQL', tags: [{ name: 'databases' }] });

      const updated = await gql(
        server,
        `mutation { updateArticle(documentId: "${made.documentId}", data: { views: 8, tags: ["${ids.js}", "${ids.db}"] }) { views tags(sort: "name") { name } } }`,
      );
      expect(updated.json).toEqual({
        data: { updateArticle: { views: 8, tags: [{ name: 'databases' }, { name: 'javascript' }] } },
      });

      const deleted = await gql(server, `mutation { deleteArticle(documentId: "${made.documentId}") { documentId } }`);
      expect(deleted.json).toEqual({ data: { deleteArticle: { documentId: made.documentId } } });
      expect((await server.request('GET', `/api/articles/${made.documentId}`)).status).toBe(404);
    });

    it('status: DRAFT creates a draft only; single types update and read', async () => {
      const draft = await gql(
        server,
        'mutation { createArticle(data: { title: "Only a draft" }, status: DRAFT) { title publishedAt } }',
      );
      expect(draft.json).toEqual({ data: { createArticle: { title: 'Only a draft', publishedAt: null } } });
      const published = await gql(server, '{ articles(filters: { title: { eq: "Only a draft" } }) { title } }');
      expect(published.json).toEqual({ data: { articles: [] } });
      const single = await gql(
        server,
        'mutation { updateGlobal(data: { siteName: "Cairn", defaultSeo: { metaTitle: "Home" } }) { siteName defaultSeo { metaTitle } } }',
      );
      expect(single.json).toEqual({ data: { updateGlobal: { siteName: 'Cairn', defaultSeo: { metaTitle: 'Home' } } } });
      expect((await gql(server, '{ global { siteName } }')).json).toEqual({ data: { global: { siteName: 'Cairn' } } });
    });

    it('invalid data is BAD_USER_INPUT with the validation details; nothing is written', async () => {
      const response = await gql(server, 'mutation { createArticle(data: { views: 1 }) { title } }');
      expect(response.status).toBe(200);
      expect(response.json.data).toEqual({ createArticle: null });
      expect(response.json.errors[0]).toMatchObject({
        path: ['createArticle'],
        extensions: {
          code: 'BAD_USER_INPUT',
          error: { name: 'ValidationError', details: { errors: [{ path: ['title'] }] } },
        },
      });
      const count = await server.request('GET', '/api/articles?filters[views][$eq]=1');
      expect(count.json.data).toEqual([]);
    });

    it('permissions are the REST actions: Public and a read-only token are refused writes and unlisted types', async () => {
      expect((await gql(server, '{ secrets { label } }')).json).toEqual({ data: null, errors: [forbidden('secrets')] });
      expect((await gql(server, '{ secrets { label } }', undefined, { auth: 'full' })).json).toEqual({
        data: { secrets: [] },
      });
      const readonly = await gql(server, 'mutation { createTag(data: { name: "ro" }) { name } }', undefined, {
        auth: 'readonly',
      });
      expect(readonly.json).toEqual({ data: { createTag: null }, errors: [forbidden('createTag')] });
      expect((await server.request('GET', '/api/tags?filters[name][$eq]=ro')).json.data).toEqual([]);
    });

    it('register, login, me; a wrong password and an anonymous me are errors in the plugin format', async () => {
      const registered = await gql(
        server,
        'mutation { register(input: { username: "gqluser", email: "gql@example.com", password: "Passw0rd!" }) { jwt user { username email confirmed blocked } } }',
      );
      expect(registered.json.data.register.user).toEqual({
        username: 'gqluser',
        email: 'gql@example.com',
        confirmed: true,
        blocked: false,
      });
      const login = await gql(
        server,
        'mutation { login(input: { identifier: "gqluser", password: "Passw0rd!" }) { jwt user { username role { type } } } }',
      );
      const jwt = login.json.data.login.jwt as string;
      expect(login.json.data.login.user).toEqual({ username: 'gqluser', role: { type: 'authenticated' } });
      expect((await gql(server, '{ me { username email } }', undefined, { auth: { jwt } })).json).toEqual({
        data: { me: { username: 'gqluser', email: 'gql@example.com' } },
      });
      expect((await gql(server, '{ me { username } }')).json).toEqual({
        data: { me: null },
        errors: [forbidden('me')],
      });
      const wrong = await gql(
        server,
        'mutation { login(input: { identifier: "gqluser", password: "nope-nope" }) { jwt } }',
      );
      expect(wrong.json).toEqual({
        data: null,
        errors: [
          {
            message: 'Invalid identifier or password',
            path: ['login'],
            extensions: {
              code: 'BAD_USER_INPUT',
              error: { name: 'ValidationError', message: 'Invalid identifier or password', details: {} },
            },
          },
        ],
      });
    });

    it('many clients creating at once: every create answers, none is lost', async () => {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          gql(server, `mutation { createTag(data: { name: "t${i}" }) { name } }`, undefined, { auth: 'full' }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
      const listed = await gql(
        server,
        '{ tags(filters: { name: { startsWith: "t" } }, pagination: { limit: 50 }) { name } }',
      );
      expect(listed.json.data.tags).toHaveLength(12);
    });
  });
}
