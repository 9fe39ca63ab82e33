import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { uploadBody } from './support/multipart.js';
import {
  contractChecker,
  pluginsWithDocumentation,
  type ContractChecker,
  type OpenApiJson,
} from './support/openapi.js';
import { startTestServer, type RequestOptions, type TestResponse, type TestServer } from './support/test-server.js';
import { gradientImage } from './support/uploads.js';

/*
 * The project's OpenAPI 3.1 document (issue 20) as a running server serves it under the
 * documentation plugin, on each database: valid for a maintained validator, one operation per
 * route the server answers (with its permission action), the query parameters each route reads,
 * and — the point of it — every exchange below fits it: request bodies, statuses and answers of
 * documents with relations, media, components and dynamic zones, errors, users and uploads.
 */

const SETTINGS = { config: { info: { title: 'Blog API', version: '2.0.0', description: 'The example blog' } } };

/** A route path as the document writes it below the prefix: `/api/articles/:documentId` → `/articles/{documentId}`. */
const documented = (path: string) =>
  path
    .slice('/api'.length)
    .replace(/:(\w+)/g, '{$1}')
    .replace(/\*$/, '{provider}');

for (const database of inject('databases')) {
  describe(`[${database}] the OpenAPI document`, () => {
    let server: TestServer;
    let document: OpenApiJson;
    let contract: ContractChecker;

    /** A request whose JSON body and answer must both fit the document. */
    const call = async (method: string, url: string, options: RequestOptions = {}): Promise<TestResponse> => {
      if (options.body !== undefined) expect(contract.request(method, url, options.body)).toEqual([]);
      const response = await server.request(method, url, options);
      expect(contract.response(method, url, response.status, response.json), response.text).toEqual([]);
      return response;
    };
    const parameters = (path: string, method: string) =>
      (document.paths[path]?.[method]?.parameters ?? []).map((parameter) => parameter.name);

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/plugins.js': pluginsWithDocumentation(SETTINGS) } });
      const response = await server.request('GET', '/documentation/openapi.json');
      expect(response.status, response.text).toBe(200);
      document = response.json;
      contract = contractChecker(document);
    });
    afterAll(() => server?.close());

    it('is a valid OpenAPI 3.1 document for @readme/openapi-parser, with the project settings', async () => {
      const response = await server.request('GET', '/documentation/openapi.json');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const result = await validate(structuredClone(response.json));
      expect(result).toMatchObject({ valid: true, specification: 'OpenAPI' });
      expect(document.openapi).toBe('3.1.0');
      expect(document.info).toEqual({ title: 'Blog API', version: '2.0.0', description: 'The example blog' });
      expect(document.servers).toEqual([{ url: '/api', description: 'This server' }]);
    });

    it('has one operation per route the server answers under /api, with its permission action', () => {
      const apiRoutes = server.app.routes.filter((route) => route.path.startsWith('/api/'));
      expect(apiRoutes.length).toBeGreaterThan(40);
      for (const route of apiRoutes) {
        const operation = document.paths[documented(route.path)]?.[route.method.toLowerCase()];
        expect(operation, `${route.method} ${route.path}`).toMatchObject({ 'x-strapi-action': route.action });
      }
      const operations = Object.values(document.paths).flatMap((item) => Object.keys(item));
      expect(operations).toHaveLength(apiRoutes.length);
      const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expect.arrayContaining(['listArticles', 'getArticle', 'createArticle', 'getGlobal']));
    });

    it('lists the query parameters each route reads', () => {
      expect(parameters('/articles', 'get')).toEqual([
        'filters',
        'populate',
        'fields',
        'sort',
        'pagination',
        '_q',
        'status',
        'locale',
        'publicationFilter',
      ]);
      // Authors have neither draft & publish nor locales.
      expect(parameters('/authors', 'get')).toEqual(['filters', 'populate', 'fields', 'sort', 'pagination', '_q']);
      expect(parameters('/articles/{documentId}', 'get')).toEqual([
        'documentId',
        'populate',
        'fields',
        'status',
        'locale',
      ]);
      expect(parameters('/articles/{documentId}', 'delete')).toEqual(['documentId', 'locale']);
      expect(parameters('/global', 'put')).toEqual(['populate', 'fields']);
      const filters = document.paths['/articles']?.get?.parameters?.[0];
      expect(filters).toMatchObject({ in: 'query', style: 'deepObject', explode: true });
    });

    it('describes components and dynamic zones (oneOf told apart by __component)', () => {
      const { schemas } = document.components;
      expect(schemas.Article?.properties).toMatchObject({
        seo: { oneOf: [{ $ref: '#/components/schemas/SharedSeoComponent' }, { type: 'null' }] },
        blocks: {
          type: 'array',
          items: {
            oneOf: [
              { $ref: '#/components/schemas/SharedQuoteComponentZoneItem' },
              { $ref: '#/components/schemas/SharedRichTextComponentZoneItem' },
              { $ref: '#/components/schemas/SharedMediaBlockComponentZoneItem' },
            ],
            discriminator: {
              propertyName: '__component',
              mapping: {
                'shared.quote': '#/components/schemas/SharedQuoteComponentZoneItem',
                'shared.rich-text': '#/components/schemas/SharedRichTextComponentZoneItem',
                'shared.media-block': '#/components/schemas/SharedMediaBlockComponentZoneItem',
              },
            },
          },
        },
      });
      expect(schemas.SharedQuoteComponentZoneItem).toMatchObject({
        properties: { __component: { const: 'shared.quote' } },
        required: ['__component', 'id'],
      });
      // Never output: password and private attributes (`secretCode` is writable, so it is in the input).
      expect(schemas.Article?.properties).not.toHaveProperty('secretCode');
      expect(schemas.ArticleInput?.properties).toHaveProperty('secretCode');
      expect(schemas.UsersPermissionsUser?.properties).not.toHaveProperty('password');
      expect(schemas.ArticleInput).toMatchObject({
        additionalProperties: false,
        properties: { title: { maxLength: 120 }, views: { minimum: 0 } },
      });
    });

    it('describes the security schemes and the error envelope', () => {
      expect(document.components.securitySchemes).toEqual({
        apiToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
        usersJwt: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      });
      expect(document.security).toEqual([{}, { apiToken: [] }, { usersJwt: [] }]);
      expect(document.paths['/users/me']?.get).toMatchObject({ security: [{ usersJwt: [] }] });
      expect(document.paths['/articles']?.get).toMatchObject({
        responses: { '400': { $ref: '#/components/responses/BadRequest' } },
      });
    });

    it('fits what the server answers for documents with relations, media, components and zones', async () => {
      const image = await gradientImage(64, 48, 'png');
      const upload = uploadBody({ files: [{ filename: 'cover.png', content: image, contentType: 'image/png' }] });
      const uploaded = await call('POST', '/api/upload', { auth: 'full', ...upload });
      expect(uploaded.status, uploaded.text).toBe(201);
      const fileId = uploaded.json[0].id as number;
      const author = await call('POST', '/api/authors', { auth: 'full', body: { data: { name: 'Ada' } } });
      const tag = await call('POST', '/api/tags', { auth: 'full', body: { data: { name: 'cms' } } });
      const data = {
        title: 'Everything',
        views: 3,
        bigcount: '9007199254740993',
        category: 'tech',
        publishDate: '2024-05-01',
        publishTime: '10:30:00',
        meta: { any: ['json'] },
        content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hi' }] }],
        cover: fileId,
        gallery: [fileId],
        author: author.json.data.documentId,
        tags: { connect: [{ documentId: tag.json.data.documentId, position: { start: true } }] },
        seo: { metaTitle: 'SEO', shareImage: fileId, keywords: [{ word: 'a' }, { word: 'b' }] },
        blocks: [
          { __component: 'shared.quote', title: 'Q', author: author.json.data.documentId },
          { __component: 'shared.rich-text', body: 'Some *text*' },
          { __component: 'shared.media-block', file: fileId },
        ],
      };
      const created = await call('POST', '/api/articles', { auth: 'full', body: { data } });
      expect(created.status, created.text).toBe(201);
      const id = created.json.data.documentId as string;
      const list = await call('GET', '/api/articles?populate=*', { auth: 'full' });
      expect(list.json.data[0].blocks).toHaveLength(3);
      // The check has teeth: a wrong type, an unknown zone component or a missing id do not fit.
      for (const spoil of [
        (body: typeof list.json) => (body.data[0].views = 'three'),
        (body: typeof list.json) => (body.data[0].blocks[1].__component = 'shared.nope'),
        (body: typeof list.json) => delete body.data[0].seo.id,
        (body: typeof list.json) => delete body.meta.pagination,
      ]) {
        const body = structuredClone(list.json);
        spoil(body);
        expect(contract.response('GET', '/api/articles?populate=*', 200, body)).not.toEqual([]);
      }
      const deep =
        `/api/articles/${id}?populate[seo][populate]=*&populate[blocks][populate]=*&populate[tags][count]=true` +
        '&populate[author][populate][articles][fields][0]=title';
      const one = await call('GET', deep, { auth: 'full' });
      expect(one.json.data.tags).toEqual({ count: 1 });
      expect(one.json.data.seo.keywords).toHaveLength(2);
      await call('GET', `/api/articles/${id}?fields[0]=title&status=draft`, { auth: 'full' });
      await call('GET', '/api/articles?pagination[start]=0&pagination[limit]=1&sort=title:desc', { auth: 'full' });
      const french = await call('PUT', `/api/articles/${id}?locale=fr`, {
        auth: 'full',
        body: { data: { title: 'Tout' } },
      });
      expect(french.status, french.text).toBe(200);
      await call('GET', `/api/articles/${id}?populate[localizations][fields][0]=title`, { auth: 'full' });
      await call('PUT', '/api/global', {
        auth: 'full',
        body: { data: { siteName: 'Blog', defaultSeo: { metaTitle: 'Home' } } },
      });
      await call('GET', '/api/global?populate=*', { auth: 'full' });
      expect((await call('DELETE', `/api/articles/${id}?locale=*`, { auth: 'full' })).status).toBe(204);
      expect((await call('GET', `/api/articles/${id}`, { auth: 'full' })).status).toBe(404);
      expect((await call('GET', '/api/articles?filters[nope][$eq]=1', { auth: 'full' })).status).toBe(400);
      expect((await call('GET', '/api/articles', { auth: 'bad' })).status).toBe(401);
      expect((await call('GET', '/api/secrets', { auth: 'public' })).status).toBe(403);
      expect((await call('GET', '/api/i18n/locales', { auth: 'full' })).status).toBe(200);
      await call('GET', '/api/upload/files?limit=5', { auth: 'full' });
      await call('GET', '/api/upload/files/page?pagination[pageSize]=5', { auth: 'full' });
      await call('GET', `/api/upload/files/${fileId}`, { auth: 'full' });
    });

    it('a body the document refuses is one the server refuses', async () => {
      const body = { data: { title: 'x', nope: true } };
      expect(contract.request('POST', '/api/articles', body).join('\n')).toMatch(/must NOT have additional properties/);
      const response = await server.request('POST', '/api/articles', { auth: 'full', body });
      expect(response.status).toBe(400);
      expect(contract.response('POST', '/api/articles', 400, response.json)).toEqual([]);
    });

    it("fits the users & permissions plugin's answers", async () => {
      const account = { username: 'grace', email: 'grace@example.com', password: 'Passw0rd!' };
      const registered = await call('POST', '/api/auth/local/register', { body: account });
      expect(registered.status, registered.text).toBe(200);
      const login = await call('POST', '/api/auth/local', {
        body: { identifier: account.username, password: account.password },
      });
      const jwt = login.json.jwt as string;
      await call('GET', '/api/users/me?populate=role', { auth: { jwt } });
      await call('GET', '/api/users?populate=role', { auth: 'full' });
      await call('GET', '/api/users/count', { auth: 'full' });
      await call('GET', '/api/users-permissions/roles', { auth: 'full' });
      await call('POST', '/api/auth/forgot-password', { body: { email: account.email } });
      expect((await call('POST', '/api/auth/local', { body: { identifier: 'grace', password: 'wrong' } })).status).toBe(
        400,
      );
    });
  });
}
