import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiToken } from '../src/api-tokens/api-token-store.js';
import { insertFile } from './support/files.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * `pLevel` (strapi-v5-plugin-populate-deep) and `populate=deep,N` (strapi-plugin-populate-deep)
 * on the blog example: depth counts the document as level 1, relations back to a type already on
 * the path are left out, media / localizations are leaves, the caller's permissions prune the tree,
 * the configured maximum caps it, and the read costs one statement per node whatever the rows.
 */

type Doc = Record<string, any>;

for (const database of inject('databases'))
  describe(`[${database}] deep populate (pLevel, populate=deep)`, () => {
    let server: TestServer;
    let image: number;

    const get = async (path: string, auth?: { jwt: string }) => {
      const response = await server.request('GET', path, auth ? { auth } : {});
      expect(response.status, response.text).toBe(200);
      return response.json as { data: Doc[] };
    };
    const first = async (path: string) => (await get(path)).data[0] as Doc;
    const statements = async (path: string) => {
      server.resetQueries();
      await get(path);
      return server.queries.length;
    };
    const create = async (plural: string, data: Record<string, unknown>) => {
      const response = await server.request('POST', `/api/${plural}`, { body: { data } });
      expect(response.status, response.text).toBe(201);
      return response.json.data.documentId as string;
    };
    async function seedArticle(title: string): Promise<void> {
      const ada = await create('authors', { name: `Ada ${title}` });
      const grace = await create('authors', { name: `Grace ${title}` });
      const tags = [await create('tags', { name: `t1 ${title}` }), await create('tags', { name: `t2 ${title}` })];
      await create('articles', {
        title,
        author: ada,
        editor: grace,
        tags,
        cover: image,
        gallery: [image],
        seo: { metaTitle: 'seo', shareImage: image, keywords: [{ word: 'cms' }] },
        blocks: [
          { __component: 'shared.quote', title: 'q', author: grace },
          { __component: 'shared.rich-text', body: 'r' },
          { __component: 'shared.media-block', file: image },
        ],
      });
    }

    beforeAll(async () => {
      server = await startTestServer({ database });
      image = await insertFile(server, 'deep.png');
      await seedArticle('first');
    });
    afterAll(() => server.close());

    it('?pLevel populates five levels: relations, components, zones, media, localizations', async () => {
      const article = await first('/api/articles?pLevel');
      expect(article.author.name).toBe('Ada first');
      expect(article.author.avatar).toBeNull();
      expect(article.editor.name).toBe('Grace first');
      expect(article.tags.map((tag: Doc) => tag.name)).toEqual(['t1 first', 't2 first']);
      expect(article.cover.id).toBe(image);
      expect(article.gallery.map((file: Doc) => file.id)).toEqual([image]);
      expect(article.seo.shareImage.id).toBe(image);
      expect(article.seo.keywords.map((keyword: Doc) => keyword.word)).toEqual(['cms']);
      expect(article.blocks.map((block: Doc) => block.__component)).toEqual([
        'shared.quote',
        'shared.rich-text',
        'shared.media-block',
      ]);
      expect(article.blocks[0].author.name).toBe('Grace first');
      expect(article.blocks[0].author.avatar).toBeNull();
      expect(article.blocks[2].file.id).toBe(image);
      expect(article.localizations).toEqual([]);
    });

    it('a relation back to a type already on the path is left out (article → author → articles)', async () => {
      const article = await first('/api/articles?pLevel=10');
      expect(article.author).not.toHaveProperty('articles');
      expect(article.tags[0]).not.toHaveProperty('articles');
      expect(article.blocks[0].author).not.toHaveProperty('articles');
      const author = await first('/api/authors?pLevel=10&filters[name][$eq]=Ada%20first');
      expect(author.articles.map((a: Doc) => a.title)).toEqual(['first']);
      expect(author.articles[0]).not.toHaveProperty('author');
      expect(author.articles[0]).not.toHaveProperty('editor');
      expect(author.articles[0].tags).toHaveLength(2);
      expect(author.articles[0].tags[0]).not.toHaveProperty('articles');
      expect(author.articles[0].blocks[0]).not.toHaveProperty('author');
    });

    it('depth counts the document as level 1, and a component or zone as a level', async () => {
      expect(await get('/api/articles?pLevel=1')).toEqual(await get('/api/articles'));
      expect(await get('/api/articles?pLevel=2')).toEqual(await get('/api/articles?populate=*'));
      const three = await first('/api/articles?pLevel=3');
      expect(three.author.avatar).toBeNull();
      expect(three.seo.keywords).toHaveLength(1);
      expect(three.blocks[0].author.name).toBe('Grace first');
      expect(three.blocks[0].author).not.toHaveProperty('avatar');
    });

    it('populate=deep and populate=deep,N read as pLevel does', async () => {
      expect(await get('/api/articles?populate=deep')).toEqual(await get('/api/articles?pLevel'));
      expect(await get('/api/articles?populate=deep,3')).toEqual(await get('/api/articles?pLevel=3'));
      expect(await get('/api/articles?populate[0]=deep&populate[1]=3')).toEqual(await get('/api/articles?pLevel=3'));
      expect(await get('/api/articles?pLevel=2&populate=author')).toEqual(await get('/api/articles?populate=*'));
    });

    it('a depth above the maximum (10 by default) is lowered to it', async () => {
      expect(await get('/api/authors?pLevel=500')).toEqual(await get('/api/authors?pLevel=10'));
      expect(await statements('/api/authors?pLevel=500')).toBe(await statements('/api/authors?pLevel=10'));
    });

    it('costs one statement per populated node, for 1 article or 4', async () => {
      // list + count + cover, gallery, author (+ avatar), tags, editor (+ avatar), seo (+ shareImage,
      // keywords), 3 zone components (+ quote author, its avatar, media-block file), localizations;
      // the list's own relations and media read their links, then their targets
      const expected = 2 + 4 + 3 + 2 + 3 + 3 + 3 + 3 + 1;
      expect(await statements('/api/articles?pLevel')).toBe(expected);
      for (const title of ['second', 'third', 'fourth']) await seedArticle(title);
      expect((await get('/api/articles?pLevel')).data).toHaveLength(4);
      expect(await statements('/api/articles?pLevel')).toBe(expected);
      expect(await statements('/api/articles?pLevel=10')).toBe(expected);
      // author → avatar (links, targets), articles (links, targets) → cover, gallery, tags, seo (+2),
      // 3 components (+ media-block file), localizations
      expect(await statements('/api/authors?pLevel=10')).toBe(2 + 2 + 2 + 2 + 1 + 3 + 4 + 1);
    });

    it('relations the caller may not find are pruned; media and components stay', async () => {
      const { admin } = server.app.project.config;
      const key = await createApiToken(
        server.app.db,
        { salt: admin.apiTokenSalt, encryptionKey: admin.encryptionKey },
        { name: 'articles only', type: 'custom', permissions: ['api::article.article.find'] },
        new Date(),
      );
      const article = (await get('/api/articles?pLevel&filters[title][$eq]=first', { jwt: key })).data[0] as Doc;
      expect(article).not.toHaveProperty('author');
      expect(article).not.toHaveProperty('editor');
      expect(article).not.toHaveProperty('tags');
      expect(article.blocks[0]).not.toHaveProperty('author');
      expect(article.cover.id).toBe(image);
      expect(article.seo.shareImage.id).toBe(image);
      expect(article.localizations).toEqual([]);
    });

    it.each([
      ['pLevel=abc', 'pLevel'],
      ['pLevel=0', 'pLevel'],
      ['pLevel=-2', 'pLevel'],
      ['pLevel[0]=1&pLevel[1]=2', 'pLevel'],
      ['populate=deep,x', 'populate'],
      ['populate=deep,2,3', 'populate'],
      ['pLevel=2&populate=nope', 'populate'],
    ])('?%s is a 400 naming %s', async (query, param) => {
      const response = await server.request('GET', `/api/articles?${query}`);
      expect(response.status).toBe(400);
      expect(response.json.error.name).toBe('ValidationError');
      expect(response.json.error.message).toMatch(param === 'pLevel' ? /pLevel/ : /populate|nope/);
    });
  });

for (const database of inject('databases'))
  describe(`[${database}] deep populate settings (config/api.js deepPopulate)`, () => {
    it('defaultDepth and maxDepth are read from config/api.js', async () => {
      const server = await startTestServer({
        database,
        files: {
          'config/api.js': `module.exports = { rest: { strictParams: true }, deepPopulate: { defaultDepth: 2, maxDepth: 3 } };`,
        },
      });
      try {
        const get = async (query: string) => (await server.request('GET', `/api/articles?${query}`)).json;
        await server.request('POST', '/api/articles', { body: { data: { title: 'x', seo: { metaTitle: 'm' } } } });
        expect(await get('pLevel')).toEqual(await get('populate=*'));
        expect(await get('pLevel=9')).toEqual(await get('pLevel=3'));
        expect((await get('pLevel=9')).data[0].seo.keywords).toEqual([]);
      } finally {
        await server.close();
      }
    });

    it('deepPopulate: false reads pLevel and populate=deep as Strapi does without the plugins', async () => {
      const server = await startTestServer({
        database,
        files: { 'config/api.js': `module.exports = { rest: { strictParams: true }, deepPopulate: false };` },
      });
      try {
        const level = await server.request('GET', '/api/articles?pLevel');
        expect(level.status).toBe(400);
        expect(level.json.error.message).toBe('Invalid key pLevel');
        const deep = await server.request('GET', '/api/articles?populate=deep');
        expect(deep.status).toBe(400);
        expect(deep.json.error.message).toBe('Invalid key deep');
      } finally {
        await server.close();
      }
    });
  });
