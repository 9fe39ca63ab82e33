import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../src/app.js';
import { ARTICLES, AUTHORS, startAdminClient, type AdminClient } from './support/admin-client.js';
import { apiConfigWith, probe, startReference, type Probe } from './support/http-cache.js';
import { uploadBody } from './support/multipart.js';
import type { TestResponse } from './support/test-server.js';
import { gradientImage } from './support/uploads.js';

/*
 * Cache correctness, table-driven: a set of public GETs, each reading its own set of content
 * types, kept by the memory response cache. After each kind of write, exactly the GETs that read
 * the written type (directly, or through populate, components, media, localizations, filters) are
 * read again (`Cache-Status: Cairn; fwd=stale`); every other one is answered from the cache
 * (`hit`) — and every answer, kept or not, is byte for byte what a server without the cache
 * answers at that moment (same body, same ETag).
 */
type TypeName = 'article' | 'author' | 'tag' | 'global' | 'file';
type Vars = Record<string, string | number>;

/** The GETs kept in the cache, by name, with the types each reads. */
const GETS: Readonly<Record<string, { readonly path: (v: Vars) => string; readonly reads: readonly TypeName[] }>> = {
  articles: { path: () => '/api/articles', reads: ['article'] },
  articlesWithAuthor: { path: () => '/api/articles?populate[author]=true', reads: ['article', 'author'] },
  authors: { path: () => '/api/authors', reads: ['author'] },
  tags: { path: () => '/api/tags', reads: ['tag'] },
  articlesWithCover: { path: () => '/api/articles?populate[cover]=true', reads: ['article', 'file'] },
  globalSeoImage: {
    path: () => '/api/global?populate[defaultSeo][populate][shareImage]=true',
    reads: ['global', 'file'],
  },
  tagsWithArticles: { path: () => '/api/tags?populate[articles]=true', reads: ['tag', 'article'] },
  authorsFilteredByArticles: {
    path: () => '/api/authors?filters[articles][title][$containsi]=first',
    reads: ['author', 'article'],
  },
  global: { path: () => '/api/global', reads: ['global'] },
  quoteAuthors: {
    path: () => '/api/articles?populate[blocks][on][shared.quote][populate][author]=true',
    reads: ['article', 'author'],
  },
  articleLocalizations: {
    path: (v) => `/api/articles/${v.first}?populate[localizations]=true`,
    reads: ['article'],
  },
  authorsWithAvatar: { path: () => '/api/authors?populate[avatar]=true', reads: ['author', 'file'] },
  seoImages: { path: () => '/api/articles?populate[seo][populate][shareImage]=true', reads: ['article', 'file'] },
};

interface WriteRow {
  readonly kind: string;
  readonly writes: TypeName;
  /** Run before the GETs are warmed (a write the row's write needs, not checked). */
  readonly prepare?: (client: AdminClient, vars: Vars) => Promise<unknown>;
  readonly write: (client: AdminClient, vars: Vars) => Promise<TestResponse>;
  /** GETs whose answer this write must change (its ETag moves). */
  readonly visible: readonly string[];
}

const WRITES: readonly WriteRow[] = [
  {
    kind: 'create',
    writes: 'tag',
    write: (c) => c.server.request('POST', '/api/tags', { body: { data: { name: 'new tag' } } }),
    visible: ['tags'],
  },
  {
    kind: 'update',
    writes: 'author',
    write: (c, v) => c.server.request('PUT', `/api/authors/${v.bob}`, { body: { data: { name: 'Robert' } } }),
    visible: ['authors'],
  },
  {
    kind: 'delete',
    writes: 'tag',
    write: (c, v) => c.server.request('DELETE', `/api/tags/${v.t2}`),
    visible: ['tags', 'tagsWithArticles'],
  },
  {
    kind: 'publish (content manager)',
    writes: 'article',
    write: (c, v) => c.call('POST', `${ARTICLES}/${v.draft}/actions/publish`),
    visible: ['articles', 'articlesWithAuthor'],
  },
  {
    kind: 'unpublish (content manager)',
    writes: 'article',
    write: (c, v) => c.call('POST', `${ARTICLES}/${v.draft}/actions/unpublish`),
    visible: ['articles', 'articlesWithAuthor'],
  },
  {
    kind: 'discard draft (content manager)',
    writes: 'article',
    prepare: (c, v) => c.call('PUT', `${ARTICLES}/${v.first}`, { title: 'First, edited in the draft' }),
    write: (c, v) => c.call('POST', `${ARTICLES}/${v.first}/actions/discard`),
    visible: [],
  },
  {
    kind: 'update (content manager)',
    writes: 'author',
    write: (c, v) => c.call('PUT', `${AUTHORS}/${v.ada}`, { name: 'Ada L.' }),
    visible: ['authors', 'articlesWithAuthor', 'quoteAuthors'],
  },
  {
    kind: 'locale write',
    writes: 'article',
    write: (c, v) =>
      c.server.request('PUT', `/api/articles/${v.first}?locale=fr`, { body: { data: { title: 'Premier' } } }),
    visible: ['articleLocalizations'],
  },
  {
    kind: 'media upload',
    writes: 'file',
    write: async (c, v) => upload(c, `extra.png`, v),
    visible: [],
  },
  {
    kind: 'media upload linked to an entry (ref, refId, field)',
    writes: 'file',
    write: async (c, v) => upload(c, `avatar.png`, v, { ref: 'api::author.author', refId: v.adaId!, field: 'avatar' }),
    visible: ['authorsWithAvatar'],
  },
  {
    kind: 'media update',
    writes: 'file',
    write: (c, v) => {
      const body = uploadBody({ fileInfo: { alternativeText: 'a cover' } });
      return c.server.request('POST', `/api/upload?id=${v.cover}`, { payload: body.payload, headers: body.headers });
    },
    visible: ['articlesWithCover', 'globalSeoImage', 'seoImages'],
  },
  {
    kind: 'media delete',
    writes: 'file',
    write: (c, v) => c.server.request('DELETE', `/api/upload/files/${v.cover}`, { auth: 'full' }),
    visible: ['articlesWithCover', 'globalSeoImage', 'seoImages'],
  },
  {
    kind: 'relation change from the other side',
    writes: 'author',
    write: (c, v) =>
      c.server.request('PUT', `/api/authors/${v.bob}`, { body: { data: { articles: { connect: [v.first] } } } }),
    visible: ['articlesWithAuthor'],
  },
  {
    kind: 'component write (single type)',
    writes: 'global',
    write: (c) => c.server.request('PUT', '/api/global', { body: { data: { defaultSeo: { metaTitle: 'New' } } } }),
    visible: ['globalSeoImage'],
  },
  {
    kind: 'component write (collection type)',
    writes: 'article',
    write: (c, v) =>
      c.server.request('PUT', `/api/articles/${v.first}`, { body: { data: { seo: { metaTitle: 'SEO 2' } } } }),
    visible: ['seoImages'],
  },
];

async function upload(client: AdminClient, name: string, vars: Vars, target: Record<string, string | number> = {}) {
  const png = await gradientImage(8, 8, 'png');
  const body = uploadBody({ files: [{ filename: name, content: png, contentType: 'image/png' }], ...target });
  const answer = await client.server.request('POST', '/api/upload', { payload: body.payload, headers: body.headers });
  expect(answer.status, answer.text).toBe(201);
  vars[`file:${name}`] = answer.json[0].id;
  return answer;
}

for (const database of inject('databases'))
  describe(`[${database}] HTTP cache: a write drops exactly the cached answers that read its type`, () => {
    let client: AdminClient;
    let reference: App;
    const vars: Vars = {};
    const path = (name: string) => GETS[name]!.path(vars);
    beforeAll(async () => {
      client = await startAdminClient(database, { files: apiConfigWith(`{ store: 'memory', maxSize: '8mb' }`) });
      reference = await startReference(client.server);
      const post = async (url: string, data: unknown) => {
        const answer = await client.server.request('POST', url, { body: { data } });
        expect(answer.status, answer.text).toBe(201);
        return answer.json.data as { documentId: string; id: number };
      };
      const ada = await post('/api/authors', { name: 'Ada' });
      vars.ada = ada.documentId;
      vars.adaId = ada.id;
      vars.bob = (await post('/api/authors', { name: 'Bob' })).documentId;
      vars.t1 = (await post('/api/tags', { name: 't1' })).documentId;
      vars.t2 = (await post('/api/tags', { name: 't2' })).documentId;
      vars.cover = (await upload(client, 'cover.png', vars)).json[0].id;
      const seo = { metaTitle: 'SEO', shareImage: vars.cover };
      vars.first = (
        await post('/api/articles', {
          title: 'First',
          author: vars.ada,
          tags: [vars.t1, vars.t2],
          cover: vars.cover,
          seo,
          blocks: [{ __component: 'shared.quote', title: 'Q', author: vars.ada }],
        })
      ).documentId;
      vars.draft = (await post('/api/articles?status=draft', { title: 'Draft', author: vars.bob })).documentId;
      const global = await client.server.request('PUT', '/api/global', {
        body: { data: { siteName: 'Site', defaultSeo: seo } },
      });
      expect(global.status, global.text).toBe(200);
    });
    afterAll(async () => {
      await reference?.close();
      await client?.server.close();
    });

    /** Every GET on the cached server and on the reference one: the same answer. */
    async function readAll(): Promise<Record<string, Probe>> {
      const answers: Record<string, Probe> = {};
      for (const name of Object.keys(GETS)) {
        const [cached, fresh] = [await probe(client.server.app, path(name)), await probe(reference, path(name))];
        expect(cached.status, `${name}: ${cached.text}`).toBe(200);
        expect(cached.text, name).toBe(fresh.text);
        expect(cached.etag, name).toBe(fresh.etag);
        answers[name] = cached;
      }
      return answers;
    }

    it('each GET is kept after its first answer', async () => {
      const first = await readAll();
      expect(Object.values(first).every((answer) => answer.cache?.endsWith('; stored'))).toBe(true);
      const second = await readAll();
      expect(Object.entries(second).filter(([, answer]) => answer.cache !== 'hit')).toEqual([]);
    });

    for (const row of WRITES)
      it(`${row.kind} (${row.writes}) drops the GETs reading ${row.writes}, and no other`, async () => {
        if (row.prepare) await row.prepare(client, vars);
        await readAll();
        const before = await readAll();
        expect(Object.values(before).every((answer) => answer.cache === 'hit')).toBe(true);
        const written = await row.write(client, vars);
        expect(written.status, written.text).toBeLessThan(300);
        const after = await readAll();
        const dropped = Object.keys(GETS).filter((name) => after[name]!.cache !== 'hit');
        const expected = Object.keys(GETS).filter((name) => GETS[name]!.reads.includes(row.writes));
        expect(dropped).toEqual(expected);
        for (const name of dropped) expect(after[name]!.cache).toBe('fwd=stale; stored');
        for (const name of Object.keys(GETS)) {
          if (row.visible.includes(name)) expect(after[name]!.etag, name).not.toBe(before[name]!.etag);
          if (!expected.includes(name)) expect(after[name]!.etag, name).toBe(before[name]!.etag);
        }
      });
  });
