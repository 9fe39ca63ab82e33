import { expect } from 'vitest';
import { insertFile } from '../support/files.js';
import { errorBody, scenario, type Step, type Vars } from '../support/scenario.js';
import { DOCUMENT_ID, ISO } from '../support/shapes.js';
import type { TestServer } from '../support/test-server.js';

// `Strapi-Response-Format: v4` (dump /tmp/dump/18-errors-routes-v4.txt steps `v4-*`, behaviour
// reference §14, Strapi's core-api controller transform.ts): every entry becomes
// `{id, documentId, attributes}`, relations and media `{data: entry | entry[] | null}` at any depth,
// components and DZ items stay flat (the relations and media inside them are wrapped), meta,
// errors and request bodies are unchanged.

const V4 = { 'Strapi-Response-Format': 'v4' };
const ts = expect.stringMatching(ISO);
const anyId = expect.any(Number);
const FILE_TS = '2024-01-01T00:00:00.000Z';

/** A v4 entry for saved variables `<key>Id` / `<key>`. */
const v4 = (key: string, attributes: Record<string, unknown>) => ({
  id: `{{${key}Id}}`,
  documentId: `{{${key}}}`,
  attributes,
});
const one = (data: unknown) => ({ data, meta: {} });
const list = (data: unknown[], pagination: Record<string, number> = {}) => ({
  data,
  meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: data.length, ...pagination } },
});

const ADA_ATTRIBUTES = { name: 'Ada Lovelace', email: null, bio: null, createdAt: ts, updatedAt: ts, publishedAt: ts };
const JS_ATTRIBUTES = { name: 'javascript', createdAt: ts, updatedAt: ts, publishedAt: ts };
const COVER_ATTRIBUTES = {
  name: 'v4.png',
  alternativeText: null,
  caption: null,
  focalPoint: null,
  width: 64,
  height: 64,
  formats: null,
  hash: 'v4_abc123',
  ext: '.png',
  mime: 'image/png',
  size: 1.5,
  url: '/uploads/v4_abc123.png',
  previewUrl: null,
  provider: 'local',
  provider_metadata: null,
  createdAt: FILE_TS,
  updatedAt: FILE_TS,
  publishedAt: FILE_TS,
};

const seedCover: Step = {
  name: 'seed file v4.png',
  path: '/_health',
  status: 204,
  check: async (_r, { server, vars }: { server: TestServer; vars: Vars }) => {
    const id = await insertFile(server, 'v4.png');
    const rows = await server.app.db.all({ sql: `select document_id from files where id = ${Number(id)}`, params: [] });
    vars.coverId = id;
    vars.cover = rows[0]?.document_id;
  },
};

scenario('Strapi-Response-Format: v4', [
  {
    name: 'seed author',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Ada Lovelace' } },
    status: 201,
    save: { ada: 'data.documentId', adaId: 'data.id' },
  },
  {
    name: 'seed tag',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    body: { data: { name: 'javascript' } },
    status: 201,
    save: { js: 'data.documentId', jsId: 'data.id' },
  },
  seedCover,
  {
    name: 'seed article a1 with relations, media, component and DZ',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: {
      data: {
        title: 'Version four',
        views: 4,
        author: '{{ada}}',
        tags: ['{{js}}'],
        cover: '{{coverId}}',
        seo: { metaTitle: 'v4 seo', shareImage: '{{coverId}}', keywords: [{ word: 'legacy' }] },
        blocks: [{ __component: 'shared.quote', title: 'v4 quote', author: '{{ada}}' }],
      },
    },
    status: 201,
    save: { a1: 'data.documentId' },
  },
  {
    name: 'seed article a2 without relations',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'Another one', views: 1 } },
    status: 201,
    save: { a2: 'data.documentId' },
  },
  {
    name: 'remember the published id of a1',
    path: '/api/articles/{{a1}}?fields[0]=title',
    status: 200,
    save: { a1Id: 'data.id' },
  },
  {
    name: 'remember the published id of a2',
    path: '/api/articles/{{a2}}?fields[0]=title',
    status: 200,
    save: { a2Id: 'data.id' },
  },

  // ── reads ────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'list: entries with attributes, relations and media wrapped in data, pagination unchanged',
    path: '/api/articles?fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name&populate[cover][fields][0]=name&sort=title&pagination[pageSize]=2',
    headers: V4,
    status: 200,
    equal: list(
      [
        v4('a2', { title: 'Another one', author: { data: null }, cover: { data: null }, tags: { data: [] } }),
        v4('a1', {
          title: 'Version four',
          author: { data: v4('ada', { name: 'Ada Lovelace' }) },
          cover: { data: v4('cover', { name: 'v4.png' }) },
          tags: { data: [v4('js', { name: 'javascript' })] },
        }),
      ],
      { pageSize: 2 },
    ),
  },
  {
    name: 'the same list without the header is flat',
    path: '/api/articles?fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name&populate[cover][fields][0]=name&sort=title&pagination[pageSize]=2',
    status: 200,
    equal: list(
      [
        { id: '{{a2Id}}', documentId: '{{a2}}', title: 'Another one', author: null, cover: null, tags: [] },
        {
          id: '{{a1Id}}',
          documentId: '{{a1}}',
          title: 'Version four',
          author: { id: '{{adaId}}', documentId: '{{ada}}', name: 'Ada Lovelace' },
          cover: { id: '{{coverId}}', documentId: '{{cover}}', name: 'v4.png' },
          tags: [{ id: '{{jsId}}', documentId: '{{js}}', name: 'javascript' }],
        },
      ],
      { pageSize: 2 },
    ),
  },
  {
    name: 'empty relations and media: {data: null} / {data: []}',
    path: '/api/articles?filters[title][$eq]=Another%20one&fields[0]=title&populate[author]=true&populate[tags]=true&populate[cover]=true&populate[gallery]=true',
    headers: V4,
    status: 200,
    equal: list([
      v4('a2', {
        title: 'Another one',
        author: { data: null },
        tags: { data: [] },
        cover: { data: null },
        gallery: { data: [] },
      }),
    ]),
  },
  {
    name: 'single entry: components and DZ items stay flat',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][keywords]=true&populate[blocks]=true',
    headers: V4,
    status: 200,
    equal: one(
      v4('a1', {
        title: 'Version four',
        seo: { id: anyId, metaTitle: 'v4 seo', metaDescription: null, keywords: [{ id: anyId, word: 'legacy' }] },
        blocks: [{ __component: 'shared.quote', id: anyId, title: 'v4 quote', body: null }],
      }),
    ),
  },
  {
    name: 'default fields of a populated relation go into its attributes',
    path: '/api/articles/{{a1}}?fields[0]=title&populate=author',
    headers: V4,
    status: 200,
    equal: one(v4('a1', { title: 'Version four', author: { data: v4('ada', ADA_ATTRIBUTES) } })),
  },
  {
    name: 'nested relations are wrapped at every level',
    path: '/api/authors/{{ada}}?fields[0]=name&populate[articles][fields][0]=title&populate[articles][populate][tags][fields][0]=name',
    headers: V4,
    status: 200,
    equal: one(
      v4('ada', {
        name: 'Ada Lovelace',
        articles: { data: [v4('a1', { title: 'Version four', tags: { data: [v4('js', { name: 'javascript' })] } })] },
      }),
    ),
  },
  {
    name: 'a relation inside a DZ item is wrapped, the item is not',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks][on][shared.quote][populate][author][fields][0]=name',
    headers: V4,
    status: 200,
    equal: one(
      v4('a1', {
        title: 'Version four',
        blocks: [
          {
            __component: 'shared.quote',
            id: anyId,
            title: 'v4 quote',
            body: null,
            author: { data: v4('ada', { name: 'Ada Lovelace' }) },
          },
        ],
      }),
    ),
  },
  {
    name: 'media inside a component is wrapped, the component is not',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][shareImage][fields][0]=name',
    headers: V4,
    status: 200,
    equal: one(
      v4('a1', {
        title: 'Version four',
        seo: {
          id: anyId,
          metaTitle: 'v4 seo',
          metaDescription: null,
          shareImage: { data: v4('cover', { name: 'v4.png' }) },
        },
      }),
    ),
  },
  {
    name: 'populate=*: every relation and media wrapped (localizations too), components flat',
    path: '/api/articles/{{a1}}?fields[0]=title&populate=*',
    headers: V4,
    status: 200,
    equal: one(
      v4('a1', {
        title: 'Version four',
        author: { data: v4('ada', ADA_ATTRIBUTES) },
        editor: { data: null },
        tags: { data: [v4('js', JS_ATTRIBUTES)] },
        cover: { data: v4('cover', COVER_ATTRIBUTES) },
        gallery: { data: [] },
        seo: { id: anyId, metaTitle: 'v4 seo', metaDescription: null },
        blocks: [{ __component: 'shared.quote', id: anyId, title: 'v4 quote', body: null }],
        localizations: { data: [] },
      }),
    ),
  },
  {
    name: 'count on a repeatable component stays {count: N}',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][keywords][count]=true',
    headers: V4,
    status: 200,
    equal: one(
      v4('a1', {
        title: 'Version four',
        seo: { id: anyId, metaTitle: 'v4 seo', metaDescription: null, keywords: { count: 1 } },
      }),
    ),
  },
  {
    name: 'a single type is wrapped too',
    path: '/api/global',
    method: 'PUT',
    body: { data: { siteName: 'v4 site', defaultSeo: { metaTitle: 'g' } } },
    headers: V4,
    status: 200,
    equal: one({
      id: anyId,
      documentId: expect.stringMatching(DOCUMENT_ID),
      attributes: { siteName: 'v4 site', createdAt: ts, updatedAt: ts, publishedAt: ts },
    }),
  },
  {
    name: 'a single type with populate=*: its component stays flat',
    method: 'PUT',
    path: '/api/global?populate=*',
    body: { data: { siteName: 'v4 site', defaultSeo: { metaTitle: 'g' } } },
    headers: V4,
    status: 200,
    equal: one({
      id: anyId,
      documentId: expect.stringMatching(DOCUMENT_ID),
      attributes: {
        siteName: 'v4 site',
        defaultSeo: { id: anyId, metaTitle: 'g', metaDescription: null },
        createdAt: ts,
        updatedAt: ts,
        publishedAt: ts,
      },
    }),
  },
  {
    name: 'GET of a single type',
    path: '/api/global?fields[0]=siteName',
    headers: V4,
    status: 200,
    equal: one({ id: anyId, documentId: expect.stringMatching(DOCUMENT_ID), attributes: { siteName: 'v4 site' } }),
  },
  {
    name: 'the header name is case-insensitive',
    path: '/api/articles/{{a2}}?fields[0]=title',
    headers: { 'STRAPI-RESPONSE-FORMAT': 'v4' },
    status: 200,
    equal: one(v4('a2', { title: 'Another one' })),
  },
  {
    name: 'the value is compared exactly, as Strapi does: V4 leaves the flat shape',
    path: '/api/articles/{{a2}}?fields[0]=title',
    headers: { 'Strapi-Response-Format': 'V4' },
    status: 200,
    equal: one({ id: '{{a2Id}}', documentId: '{{a2}}', title: 'Another one' }),
  },
  {
    name: "a relation's count is wrapped like an entry without id (Strapi's transform)",
    path: '/api/articles/{{a1}}?fields[0]=title&populate[tags][count]=true',
    headers: V4,
    status: 200,
    equal: one(v4('a1', { title: 'Version four', tags: { data: { attributes: { count: 1 } } } })),
  },
  {
    name: 'any other value leaves the flat shape',
    path: '/api/articles/{{a2}}?fields[0]=title',
    headers: { 'Strapi-Response-Format': 'v5' },
    status: 200,
    equal: one({ id: '{{a2Id}}', documentId: '{{a2}}', title: 'Another one' }),
  },

  // ── writes: flat v5 bodies in, v4 shape out ──────────────────────────────────────────────────
  {
    name: 'POST answers in v4 shape',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    headers: V4,
    body: { data: { name: 'from v4 client' } },
    status: 201,
    equal: one({ id: anyId, documentId: expect.stringMatching(DOCUMENT_ID), attributes: { name: 'from v4 client' } }),
  },
  {
    name: 'POST with flat relations by documentId, populated v4 answer',
    method: 'POST',
    path: '/api/articles?fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name',
    headers: V4,
    body: { data: { title: 'Posted in v4', author: '{{ada}}', tags: ['{{js}}'] } },
    status: 201,
    equal: one({
      id: anyId,
      documentId: expect.stringMatching(DOCUMENT_ID),
      attributes: {
        title: 'Posted in v4',
        author: { data: v4('ada', { name: 'Ada Lovelace' }) },
        tags: { data: [v4('js', { name: 'javascript' })] },
      },
    }),
  },
  {
    name: 'PUT with a flat body answers in v4 shape',
    method: 'PUT',
    path: '/api/articles/{{a2}}?fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name',
    headers: V4,
    body: { data: { title: 'Another one, edited', author: '{{ada}}' } },
    status: 200,
    equal: one({
      id: anyId,
      documentId: '{{a2}}',
      attributes: {
        title: 'Another one, edited',
        author: { data: v4('ada', { name: 'Ada Lovelace' }) },
        tags: { data: [] },
      },
    }),
  },
  {
    name: 'the write took effect (read back flat)',
    path: '/api/articles/{{a2}}?fields[0]=title&populate[author][fields][0]=name',
    status: 200,
    equal: one({
      id: anyId,
      documentId: '{{a2}}',
      title: 'Another one, edited',
      author: { id: '{{adaId}}', documentId: '{{ada}}', name: 'Ada Lovelace' },
    }),
  },

  // ── errors are unchanged ─────────────────────────────────────────────────────────────────────
  {
    name: '404 unchanged',
    path: '/api/articles/doesnotexist123',
    headers: V4,
    status: 404,
    equal: errorBody(404, 'NotFoundError', 'Not Found', {}),
  },
  {
    name: '400 unchanged',
    path: '/api/articles?populate=nope',
    headers: V4,
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key nope', {
      key: 'nope',
      param: 'populate',
      path: 'nope',
      source: 'query',
    }),
  },
]);
