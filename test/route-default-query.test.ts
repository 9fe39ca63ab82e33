import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../src/app.js';
import { ProjectError } from '../src/core/errors.js';
import { loadProject } from '../src/project/load-project.js';
import { EXAMPLE_PROJECT, startTestServer, type TestServer } from './support/test-server.js';

/*
 * `config/api.js` `defaultQueries` (Cairn): a route's default populate / fields / filters / sort,
 * each replaced by the request's own parameter of that name; checked at start. (A project's own
 * populate middlewares run as its code: test/project-code-routes.test.ts.)
 */

type Doc = Record<string, any>;

const API_CONFIG = `module.exports = {
  rest: { defaultLimit: 25, maxLimit: 100, strictParams: true },
  defaultQueries: {
    'api::article.article.find': {
      populate: { author: { fields: ['name'] }, seo: true },
      fields: ['title', 'views'],
      sort: 'views:desc',
    },
    'api::article.article.findOne': { populate: { tags: { fields: ['name'] } } },
    'api::author.author.find': { filters: { name: { $startsWith: 'A' } }, sort: ['name'] },
  },
};`;

for (const database of inject('databases'))
  describe(`[${database}] default queries per route (config/api.js defaultQueries)`, () => {
    let server: TestServer;
    let first: string;

    const list = async (path: string) => {
      const response = await server.request('GET', path);
      expect(response.status, response.text).toBe(200);
      return response.json.data as Doc[];
    };
    const create = async (plural: string, data: Record<string, unknown>) => {
      const response = await server.request('POST', `/api/${plural}`, { body: { data } });
      expect(response.status, response.text).toBe(201);
      return response.json.data.documentId as string;
    };

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/api.js': API_CONFIG } });
      const ada = await create('authors', { name: 'Ada' });
      await create('authors', { name: 'Grace' });
      const tag = await create('tags', { name: 'cms' });
      first = await create('articles', { title: 'first', views: 1, author: ada, tags: [tag], seo: { metaTitle: 's' } });
      await create('articles', { title: 'second', views: 5, author: ada });
    });
    afterAll(() => server.close());

    it('a route answers with its default populate, fields and sort', async () => {
      const articles = await list('/api/articles');
      expect(articles.map((a) => a.title)).toEqual(['second', 'first']);
      expect(Object.keys(articles[1] as Doc)).toEqual(['id', 'documentId', 'title', 'views', 'author', 'seo']);
      expect(articles[1]?.author).toEqual({ id: expect.any(Number), documentId: expect.any(String), name: 'Ada' });
      expect(articles[1]?.seo.metaTitle).toBe('s');
      expect(articles).toEqual(
        await list(
          '/api/articles?populate[author][fields][0]=name&populate[seo]=true&fields=title,views&sort=views:desc',
        ),
      );
    });

    it("each parameter the request sends replaces the default's, the others stay", async () => {
      const titled = await list('/api/articles?fields=title');
      expect(Object.keys(titled[0] as Doc)).toEqual(['id', 'documentId', 'title', 'author', 'seo']);
      const tagged = await list('/api/articles?populate[tags][fields][0]=name&sort=views:asc');
      expect(tagged.map((a) => a.title)).toEqual(['first', 'second']);
      expect(Object.keys(tagged[0] as Doc)).toEqual(['id', 'documentId', 'title', 'views', 'tags']);
      expect(tagged[0]?.tags.map((t: Doc) => t.name)).toEqual(['cms']);
      const bare = await list('/api/articles?populate=');
      expect(Object.keys(bare[0] as Doc)).toEqual(['id', 'documentId', 'title', 'views']);
      const deep = await list('/api/articles?pLevel=2');
      expect(deep[0]).toHaveProperty('tags');
      expect(deep[0]).toHaveProperty('blocks');
    });

    it('default filters apply until the request sends its own', async () => {
      expect((await list('/api/authors')).map((a) => a.name)).toEqual(['Ada']);
      expect((await list('/api/authors?filters[name][$eq]=Grace')).map((a) => a.name)).toEqual(['Grace']);
    });

    it('each route has its own default; routes without one are unchanged', async () => {
      const one = await server.request('GET', `/api/articles/${first}`);
      expect(one.json.data.tags.map((t: Doc) => t.name)).toEqual(['cms']);
      expect(one.json.data).not.toHaveProperty('author');
      expect(one.json.data).toHaveProperty('summary');
      const updated = await server.request('PUT', `/api/articles/${first}`, { body: { data: { views: 2 } } });
      expect(updated.status).toBe(200);
      expect(updated.json.data).not.toHaveProperty('author');
      expect((await list('/api/tags'))[0]).not.toHaveProperty('articles');
    });

    it('the request is still checked, with the defaults in place', async () => {
      const response = await server.request('GET', '/api/articles?populate[nope]=true');
      expect(response.status).toBe(400);
      expect(response.json.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key nope' });
    });

    it("statements follow the default query: list, count, author (a list's: links, then authors) and seo", async () => {
      server.resetQueries();
      await list('/api/articles');
      expect(server.queries).toHaveLength(5);
    });
  });

describe('default queries and deep populate settings are checked at start', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** The ProjectError message of starting the example (SQLite) with this `config/api.js` body. */
  async function startError(api: string): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-defaults-'));
    dirs.push(dir);
    cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
    mkdirSync(dirname(join(dir, 'config/api.js')), { recursive: true });
    writeFileSync(join(dir, 'config/api.js'), `module.exports = ${api};`);
    const error = await loadProject(dir, {})
      .then((project) => createApp(project))
      .then(
        async (app) => {
          await app.close();
          return null;
        },
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ProjectError);
    return (error as Error).message;
  }

  it.each([
    [
      `{ defaultQueries: { 'api::page.page.find': { populate: '*' } } }`,
      "config/api: defaultQueries['api::page.page.find']: no content type api::page.page in this project (content types are api::<api>.<type>, as listed by `cairn routes:list`)",
    ],
    [
      `{ defaultQueries: { 'api::global.global.findOne': { populate: '*' } } }`,
      "config/api: defaultQueries['api::global.global.findOne']: api::global.global has no such route; its routes are find, update, delete",
    ],
    [
      `{ defaultQueries: { 'article.find': {} } }`,
      "config/api: defaultQueries['article.find']: not a content-API route; write the route's action, such as 'api::page.page.find' or 'api::page.page.findOne'",
    ],
    [
      `{ defaultQueries: { 'api::article.article.find': { populate: { nope: true } } } }`,
      "config/api: defaultQueries['api::article.article.find'].populate: Invalid key nope",
    ],
    [
      `{ defaultQueries: { 'api::article.article.find': { filters: { views: { $gt: 'many' } } } } }`,
      "config/api: defaultQueries['api::article.article.find'].filters: ",
    ],
    [
      `{ defaultQueries: { 'api::article.article.find': { pagination: { pageSize: 5 } } } }`,
      `config/api: defaultQueries['api::article.article.find']: unknown key "pagination"; a default query sets populate, fields, filters, sort`,
    ],
    [
      `{ defaultQueries: { 'api::article.article.find': { populate: { author: () => true } } } }`,
      "config/api: defaultQueries['api::article.article.find'].populate: holds a function; only strings, numbers, booleans, null, arrays and objects are query data",
    ],
    [`{ deepPopulate: { maxDepth: 0 } }`, 'config/api: "deepPopulate.maxDepth" must be an integer from 1 to 21, got 0'],
    [
      `{ deepPopulate: { defaultDepth: 8, maxDepth: 4 } }`,
      'config/api: "deepPopulate.defaultDepth" (8) is above "deepPopulate.maxDepth" (4)',
    ],
    [
      `{ deepPopulate: { depth: 3 } }`,
      'config/api: unknown key "deepPopulate.depth"; use defaultDepth, maxDepth or enabled',
    ],
  ])('%s', async (api, message) => {
    const error = await startError(api);
    if (message.endsWith(': ')) expect(error.startsWith(message)).toBe(true);
    else expect(error).toBe(message);
  });
});
