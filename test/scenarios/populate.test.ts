import { expect } from 'vitest';
import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import { insertFile } from '../support/files.js';
import { errorBody, scenario, type Step, type Vars } from '../support/scenario.js';
import { ISO } from '../support/shapes.js';
import type { TestServer } from '../support/test-server.js';

// Expectations follow real Strapi 5.54 (/tmp/dump/10-populate.txt, 11-populate-components-dz.txt,
// 14-relations-write.txt and the behaviour reference §4): flat populated entries, unpopulated keys
// absent, relations in connection order, components with `id` only, DZ items with `__component`.

const ts = expect.stringMatching(ISO);
const anyId = expect.any(Number);
const FILE_TS = '2024-01-01T00:00:00.000Z';

/** Stores a file row (no upload endpoint yet); saves its id as `<key>Id` and documentId as `<key>Doc`. */
function seedFile(key: string, name: string, options: Parameters<typeof insertFile>[2] = {}): Step {
  return {
    name: `seed file ${name}`,
    path: '/_health',
    status: 204,
    check: async (_r, { server, vars }: { server: TestServer; vars: Vars }) => {
      const id = await insertFile(server, name, options);
      const rows = await server.app.db.all({ sql: `select document_id from files where id = ${Number(id)}`, params: [] });
      vars[`${key}Id`] = id;
      vars[`${key}Doc`] = rows[0]?.document_id;
    },
  };
}

/** A populated media entry as stored by `seedFile` (no `isUrlSigned` inside content). */
function media(key: string, name: string, { mime = 'image/png', width = 64 as number | null, height = 64 as number | null } = {}) {
  const dot = name.lastIndexOf('.');
  const hash = `${name.slice(0, dot)}_abc123`;
  const ext = name.slice(dot);
  return {
    id: `{{${key}Id}}`, documentId: `{{${key}Doc}}`, name, alternativeText: null, caption: null, focalPoint: null,
    width, height, formats: null, hash, ext, mime, size: 1.5, url: `/uploads/${hash}${ext}`, previewUrl: null,
    provider: 'local', provider_metadata: null, createdAt: FILE_TS, updatedAt: FILE_TS, publishedAt: FILE_TS,
  };
}
const COVER = media('cover', 'cover.png');
const SHARE = media('share', 'share.png');
const PHOTO = media('photo', 'photo.png');
const NOTES = media('notes', 'notes.txt', { mime: 'text/plain', width: null, height: null });

/** Default-fields author / tag entries (variables `<key>` = documentId, `<key>Id` = id). */
const author = (key: string, name: string, email: string | null) => ({ id: `{{${key}Id}}`, documentId: `{{${key}}}`, name, email, bio: null, createdAt: ts, updatedAt: ts, publishedAt: ts });
const ADA = author('ada', 'Ada Lovelace', 'ada@example.com');
const GRACE = author('grace', 'Grace Hopper', null);
const tag = (key: string, name: string) => ({ id: `{{${key}Id}}`, documentId: `{{${key}}}`, name, createdAt: ts, updatedAt: ts, publishedAt: ts });
const JS = tag('js', 'javascript');
const DB = tag('db', 'databases');
const JAVA = tag('java', 'java');
/** `{id, documentId, <field>: value}` — an entry populated with `fields[0]=<field>`. */
const slim = (key: string, field: string, value: unknown, id: unknown = `{{${key}Id}}`) => ({ id, documentId: `{{${key}}}`, [field]: value });

/** A default-fields published article (blog example, scalar values left at their defaults). */
const article = (key: string, title: string, views: number) => ({
  id: `{{${key}Id}}`, documentId: `{{${key}}}`, title, slug: null, summary: null, body: null, content: null, views, rating: null, price: null, bigcount: null,
  isFeatured: false, publishDate: null, publishTime: null, eventAt: null, stamp: null, meta: null, category: null, contactEmail: null,
  createdAt: ts, updatedAt: ts, publishedAt: ts, locale: 'en',
});
const A1 = article('a1', 'Hello Strapi', 10);
const A2 = article('a2', 'Second post', 3);

/** a1's dynamic zone with no nested populate: relations and media inside components absent. */
const BLOCKS = [
  { __component: 'shared.quote', id: anyId, title: 'Q1', body: 'To be' },
  { __component: 'shared.rich-text', id: anyId, body: 'Rich **text**' },
  { __component: 'shared.media-block', id: anyId },
  { __component: 'shared.quote', id: anyId, title: 'Q2', body: null },
];
const SEO = { id: anyId, metaTitle: 'Hello SEO', metaDescription: 'About hello' };
const KEYWORDS = [{ id: anyId, word: 'cms' }, { id: anyId, word: 'strapi' }, { id: anyId, word: 'api' }];

/** What `populate=*` adds to a1 / a2 (one level deep). */
const A1_STAR = { author: ADA, editor: GRACE, tags: [JAVA, JS, DB], cover: COVER, gallery: [PHOTO, NOTES], seo: SEO, blocks: BLOCKS, localizations: [] };
const A2_STAR = { author: ADA, editor: null, tags: [JAVA], cover: null, gallery: [], seo: null, blocks: [], localizations: [] };

const title = (key: string, value: string) => ({ id: `{{${key}Id}}`, documentId: `{{${key}}}`, title: value });
const one = (data: unknown) => ({ data, meta: {} });
const list = (data: unknown[], pagination: Record<string, number> = {}) => ({ data, meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: data.length, ...pagination } } });

const invalidKey = (key: string, path: string | null, message = `Invalid key ${key}`) =>
  errorBody(400, 'ValidationError', message, { key, param: 'populate', path, source: 'query' });
const nestedDz = (found: string) =>
  errorBody(400, 'ValidationError', `Invalid nested populate for article.blocks (api::article.article). Expected a fragment ("on") or "count" but found ${found}`, {});

const SEED: Step[] = [
  { name: 'seed author Ada', method: 'POST', path: '/api/authors?fields[0]=name', body: { data: { name: 'Ada Lovelace', email: 'ada@example.com' } }, status: 201, save: { ada: 'data.documentId', adaId: 'data.id' } },
  { name: 'seed author Grace', method: 'POST', path: '/api/authors?fields[0]=name', body: { data: { name: 'Grace Hopper' } }, status: 201, save: { grace: 'data.documentId', graceId: 'data.id' } },
  { name: 'seed tag javascript', method: 'POST', path: '/api/tags?fields[0]=name', body: { data: { name: 'javascript' } }, status: 201, save: { js: 'data.documentId', jsId: 'data.id' } },
  { name: 'seed tag databases', method: 'POST', path: '/api/tags?fields[0]=name', body: { data: { name: 'databases' } }, status: 201, save: { db: 'data.documentId', dbId: 'data.id' } },
  { name: 'seed tag java', method: 'POST', path: '/api/tags?fields[0]=name', body: { data: { name: 'java' } }, status: 201, save: { java: 'data.documentId', javaId: 'data.id' } },
  seedFile('cover', 'cover.png'),
  seedFile('share', 'share.png'),
  seedFile('notes', 'notes.txt', { mime: 'text/plain', width: null, height: null }),
  seedFile('photo', 'photo.png'),
  {
    name: 'seed article a1 with every kind of relation, media, component and DZ item',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: {
      data: {
        title: 'Hello Strapi', views: 10, author: '{{ada}}', editor: '{{grace}}', tags: ['{{java}}', '{{js}}', '{{db}}'],
        cover: '{{coverId}}', gallery: ['{{photoId}}', '{{notesId}}'],
        seo: { metaTitle: 'Hello SEO', metaDescription: 'About hello', shareImage: '{{shareId}}', keywords: [{ word: 'cms' }, { word: 'strapi' }, { word: 'api' }] },
        blocks: [
          { __component: 'shared.quote', title: 'Q1', body: 'To be', author: '{{grace}}' },
          { __component: 'shared.rich-text', body: 'Rich **text**' },
          { __component: 'shared.media-block', file: '{{notesId}}' },
          { __component: 'shared.quote', title: 'Q2' },
        ],
      },
    },
    status: 201,
    save: { a1: 'data.documentId' },
  },
  { name: 'seed article a2', method: 'POST', path: '/api/articles?fields[0]=title', body: { data: { title: 'Second post', views: 3, author: '{{ada}}', tags: ['{{java}}'] } }, status: 201, save: { a2: 'data.documentId' } },
  { name: 'seed draft-only article a3', method: 'POST', path: '/api/articles?status=draft&fields[0]=title', body: { data: { title: 'Draft only post', author: '{{grace}}', tags: ['{{js}}'] } }, status: 201, save: { a3: 'data.documentId' } },
  { name: 'remember the published id of a1', path: '/api/articles/{{a1}}?fields[0]=title', status: 200, save: { a1Id: 'data.id' } },
  { name: 'remember the published id of a2', path: '/api/articles/{{a2}}?fields[0]=title', status: 200, save: { a2Id: 'data.id' } },
];

scenario('populate: forms, shapes, order, draft & publish, errors', [
  ...SEED,

  // ── shapes without and with populate=* ────────────────────────────────────────────────────────
  { name: 'without populate, relation/media/component/DZ keys are absent', path: '/api/articles/{{a2}}', status: 200, equal: one(A2) },
  {
    name: 'populate=* populates every relation, media, component and DZ one level deep, plus localizations',
    path: '/api/articles/{{a1}}?populate=*',
    status: 200,
    equal: one({ ...A1, ...A1_STAR }),
    check: ({ json }) => {
      expect(json.data).not.toHaveProperty('createdBy');
      expect(json.data).not.toHaveProperty('updatedBy');
      expect(json.data.cover).not.toHaveProperty('isUrlSigned');
      expect(json.data.seo).not.toHaveProperty('documentId');
    },
  },
  { name: 'populate=* with nothing set: to-one null, to-many [], media null / [], component null, DZ []', path: '/api/articles/{{a2}}?populate=*', status: 200, equal: one({ ...A2, ...A2_STAR }) },
  {
    name: 'populate=* on a list: each article gets its own relations, pagination unchanged',
    path: '/api/articles?populate=*&sort=title&fields[0]=title',
    status: 200,
    equal: list([{ ...title('a1', 'Hello Strapi'), ...A1_STAR }, { ...title('a2', 'Second post'), ...A2_STAR }]),
  },
  {
    name: 'pagination counts parents, not related rows',
    path: '/api/articles?fields[0]=title&sort=title&pagination[pageSize]=1&populate[tags][fields][0]=name',
    status: 200,
    equal: { data: [{ ...title('a1', 'Hello Strapi'), tags: [slim('java', 'name', 'java'), slim('js', 'name', 'javascript'), slim('db', 'name', 'databases')] }], meta: { pagination: { page: 1, pageSize: 1, pageCount: 2, total: 2 } } },
  },

  // ── the populate forms ────────────────────────────────────────────────────────────────────────
  { name: 'populate=author', path: '/api/articles/{{a1}}?populate=author&fields[0]=title', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), author: ADA }) },
  { name: 'populate=author,editor (comma list)', path: '/api/articles/{{a1}}?populate=author,editor&fields[0]=title', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), author: ADA, editor: GRACE }) },
  { name: 'populate[0]=author&populate[1]=tags', path: '/api/articles/{{a1}}?populate[0]=author&populate[1]=tags&fields[0]=title', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), author: ADA, tags: [JAVA, JS, DB] }) },
  { name: 'populate[0]=tags&populate[1]=seo (relation and component)', path: '/api/articles/{{a1}}?populate[0]=tags&populate[1]=seo&fields[0]=title', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), tags: [JAVA, JS, DB], seo: SEO }) },
  { name: 'populate[author]=true&populate[tags]=false', path: '/api/articles/{{a1}}?populate[author]=true&populate[tags]=false&fields[0]=title', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), author: ADA }) },
  { name: 'populate[author]=1', path: '/api/articles/{{a2}}?populate[author]=1&fields[0]=title', status: 200, equal: one({ ...title('a2', 'Second post'), author: ADA }) },
  { name: 'populate[author]=t', path: '/api/articles/{{a2}}?populate[author]=t&fields[0]=title', status: 200, equal: one({ ...title('a2', 'Second post'), author: ADA }) },
  { name: 'populate[author]=false populates nothing', path: '/api/articles/{{a2}}?populate[author]=false&fields[0]=title', status: 200, equal: one(title('a2', 'Second post')) },
  {
    name: 'dot path author.articles populates the inverse side with default fields (published)',
    path: '/api/articles/{{a1}}?populate=author.articles&fields[0]=title',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), author: { ...ADA, articles: [A1, A2] } }),
  },
  {
    name: 'nested object populate with fields and sort at each level',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[author][fields][0]=name&populate[author][populate][articles][fields][0]=title&populate[author][populate][articles][sort][0]=title:desc',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), author: { ...slim('ada', 'name', 'Ada Lovelace'), articles: [title('a2', 'Second post'), title('a1', 'Hello Strapi')] } }),
  },
  {
    name: 'populate[author][populate]=*: the author\'s media and relations',
    path: '/api/articles/{{a2}}?fields[0]=title&populate[author][populate]=*',
    status: 200,
    equal: one({ ...title('a2', 'Second post'), author: { ...ADA, avatar: null, articles: [A1, A2] } }),
  },
  {
    name: 'populate[tags][populate][articles][fields][0]=title',
    path: '/api/articles/{{a2}}?fields[0]=title&populate[tags][fields][0]=name&populate[tags][populate][articles][fields][0]=title',
    status: 200,
    equal: one({ ...title('a2', 'Second post'), tags: [{ ...slim('java', 'name', 'java'), articles: [title('a1', 'Hello Strapi'), title('a2', 'Second post')] }] }),
  },
  {
    name: 'populate[x][populate]=* under a relation (tags → articles → everything)',
    path: '/api/tags?fields[0]=name&sort=name&populate[articles][populate]=*&populate[articles][fields][0]=title',
    status: 200,
    equal: list([
      { ...slim('db', 'name', 'databases'), articles: [{ ...title('a1', 'Hello Strapi'), ...A1_STAR }] },
      { ...slim('java', 'name', 'java'), articles: [{ ...title('a1', 'Hello Strapi'), ...A1_STAR }, { ...title('a2', 'Second post'), ...A2_STAR }] },
      { ...slim('js', 'name', 'javascript'), articles: [{ ...title('a1', 'Hello Strapi'), ...A1_STAR }] },
    ]),
  },

  // ── relations: order, fields, sort, filters, count ────────────────────────────────────────────
  {
    name: 'to-many relations come back in connection order, fields keep id and documentId',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[tags][fields][0]=name',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), tags: [slim('java', 'name', 'java'), slim('js', 'name', 'javascript'), slim('db', 'name', 'databases')] }),
  },
  {
    name: 'populate[tags][sort] orders the related entries',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[tags][fields][0]=name&populate[tags][sort][0]=name:desc',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), tags: [slim('js', 'name', 'javascript'), slim('java', 'name', 'java'), slim('db', 'name', 'databases')] }),
  },
  {
    name: 'populate[tags][filters] keeps only matching related entries, per parent',
    path: '/api/articles?fields[0]=title&sort=title&populate[tags][fields][0]=name&populate[tags][sort][0]=name:desc&populate[tags][filters][name][$startsWith]=java',
    status: 200,
    equal: list([
      { ...title('a1', 'Hello Strapi'), tags: [slim('js', 'name', 'javascript'), slim('java', 'name', 'java')] },
      { ...title('a2', 'Second post'), tags: [slim('java', 'name', 'java')] },
    ]),
  },
  {
    name: 'a filter matching nothing gives []',
    path: '/api/articles/{{a2}}?fields[0]=title&populate[tags][filters][name][$eq]=databases',
    status: 200,
    equal: one({ ...title('a2', 'Second post'), tags: [] }),
  },
  {
    name: 'populate[tags][count]=true',
    path: '/api/articles?fields[0]=title&sort=title&populate[tags][count]=true',
    status: 200,
    equal: list([{ ...title('a1', 'Hello Strapi'), tags: { count: 3 } }, { ...title('a2', 'Second post'), tags: { count: 1 } }]),
  },
  {
    name: 'count on the inverse side counts published articles only',
    path: '/api/authors?fields[0]=name&sort=name&populate[articles][count]=true',
    status: 200,
    equal: list([{ ...slim('ada', 'name', 'Ada Lovelace'), articles: { count: 2 } }, { ...slim('grace', 'name', 'Grace Hopper'), articles: { count: 0 } }]),
  },
  {
    name: 'oneToOne editor, empty to-one null, empty media null / []',
    path: '/api/articles?fields[0]=title&sort=title&populate[editor][fields][0]=name&populate[cover]=true&populate[gallery]=true',
    status: 200,
    equal: list([
      { ...title('a1', 'Hello Strapi'), editor: slim('grace', 'name', 'Grace Hopper'), cover: COVER, gallery: [PHOTO, NOTES] },
      { ...title('a2', 'Second post'), editor: null, cover: null, gallery: [] },
    ]),
  },
  {
    name: 'media with fields keeps id and documentId',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[cover][fields][0]=name&populate[gallery][fields][0]=name',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), cover: { id: '{{coverId}}', documentId: '{{coverDoc}}', name: 'cover.png' }, gallery: [{ id: '{{photoId}}', documentId: '{{photoDoc}}', name: 'photo.png' }, { id: '{{notesId}}', documentId: '{{notesDoc}}', name: 'notes.txt' }] }),
  },

  // ── components ────────────────────────────────────────────────────────────────────────────────
  { name: 'populate[seo]=true: component scalars with id, no documentId, nested keys absent', path: '/api/articles/{{a1}}?fields[0]=title&populate[seo]=true', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), seo: SEO }) },
  { name: 'an unset component is null', path: '/api/articles/{{a2}}?fields[0]=title&populate[seo]=true', status: 200, equal: one({ ...title('a2', 'Second post'), seo: null }) },
  {
    name: 'populate[seo][populate]=*: repeatable component in written order and media',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate]=*',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), seo: { ...SEO, keywords: KEYWORDS, shareImage: SHARE } }),
  },
  {
    name: 'dot paths seo.keywords,seo.shareImage',
    path: '/api/articles/{{a1}}?fields[0]=title&populate=seo.keywords,seo.shareImage',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), seo: { ...SEO, keywords: KEYWORDS, shareImage: SHARE } }),
  },
  { name: 'dot path seo.keywords alone', path: '/api/articles/{{a1}}?fields[0]=title&populate=seo.keywords', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), seo: { ...SEO, keywords: KEYWORDS } }) },
  { name: 'populate[seo][fields] keeps id only', path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][fields][0]=metaTitle', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), seo: { id: anyId, metaTitle: 'Hello SEO' } }) },
  {
    name: 'fields on media inside a component',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][shareImage][fields][0]=name&populate[seo][populate][shareImage][fields][1]=mime',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), seo: { ...SEO, shareImage: { id: '{{shareId}}', documentId: '{{shareDoc}}', name: 'share.png', mime: 'image/png' } } }),
  },
  { name: 'count on a repeatable component', path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][keywords][count]=true', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), seo: { ...SEO, keywords: { count: 3 } } }) },
  {
    name: 'sort inside a repeatable component',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][keywords][sort]=word:desc',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), seo: { ...SEO, keywords: [{ id: anyId, word: 'strapi' }, { id: anyId, word: 'cms' }, { id: anyId, word: 'api' }] } }),
  },
  {
    name: 'filters inside a repeatable component',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][keywords][filters][word][$ne]=cms',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), seo: { ...SEO, keywords: [{ id: anyId, word: 'strapi' }, { id: anyId, word: 'api' }] } }),
  },

  // ── dynamic zone ──────────────────────────────────────────────────────────────────────────────
  { name: 'populate[blocks]=true: DZ items in written order with __component and id', path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks]=true', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), blocks: BLOCKS }) },
  { name: 'populate=blocks', path: '/api/articles/{{a1}}?fields[0]=title&populate=blocks', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), blocks: BLOCKS }) },
  { name: 'an empty DZ is []', path: '/api/articles/{{a2}}?fields[0]=title&populate=blocks', status: 200, equal: one({ ...title('a2', 'Second post'), blocks: [] }) },
  {
    name: 'populate[blocks][populate]=* populates relations and media inside every component',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks][populate]=*',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), blocks: [{ ...BLOCKS[0], author: GRACE }, BLOCKS[1], { ...BLOCKS[2], file: NOTES }, { ...BLOCKS[3], author: null }] }),
  },
  {
    name: 'dot path blocks.author reaches through the DZ',
    path: '/api/articles/{{a1}}?fields[0]=title&populate=blocks.author',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), blocks: [{ ...BLOCKS[0], author: GRACE }, BLOCKS[1], BLOCKS[2], { ...BLOCKS[3], author: null }] }),
  },
  {
    name: 'on fragments: listed components only, each with its own populate',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks][on][shared.quote][populate][author][fields][0]=name&populate[blocks][on][shared.media-block][populate]=*',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), blocks: [{ ...BLOCKS[0], author: slim('grace', 'name', 'Grace Hopper') }, { ...BLOCKS[2], file: NOTES }, { ...BLOCKS[3], author: null }] }),
  },
  {
    name: 'on fragment with fields',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks][on][shared.quote][fields][0]=title',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), blocks: [{ __component: 'shared.quote', id: anyId, title: 'Q1' }, { __component: 'shared.quote', id: anyId, title: 'Q2' }] }),
  },
  { name: 'on fragment =true', path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks][on][shared.rich-text]=true', status: 200, equal: one({ ...title('a1', 'Hello Strapi'), blocks: [BLOCKS[1]] }) },
  {
    name: 'on fragments on a list',
    path: '/api/articles?fields[0]=title&sort=title&populate[blocks][on][shared.quote][fields][0]=title',
    status: 200,
    equal: list([{ ...title('a1', 'Hello Strapi'), blocks: [{ __component: 'shared.quote', id: anyId, title: 'Q1' }, { __component: 'shared.quote', id: anyId, title: 'Q2' }] }, { ...title('a2', 'Second post'), blocks: [] }]),
  },

  // ── draft & publish ───────────────────────────────────────────────────────────────────────────
  {
    name: 'a published article populates non-D&P targets by default',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name',
    status: 200,
    equal: one({ ...title('a1', 'Hello Strapi'), author: slim('ada', 'name', 'Ada Lovelace'), tags: [slim('java', 'name', 'java'), slim('js', 'name', 'javascript'), slim('db', 'name', 'databases')] }),
  },
  {
    name: 'and its draft version with status=draft (same relations, draft row)',
    path: '/api/articles/{{a1}}?status=draft&fields[0]=title&fields[1]=publishedAt&populate[author][fields][0]=name&populate[tags][fields][0]=name',
    status: 200,
    equal: one({ id: anyId, documentId: '{{a1}}', title: 'Hello Strapi', publishedAt: null, author: slim('ada', 'name', 'Ada Lovelace'), tags: [slim('java', 'name', 'java'), slim('js', 'name', 'javascript'), slim('db', 'name', 'databases')] }),
    check: ({ json }, { vars }) => expect(json.data.id).not.toBe(vars.a1Id),
  },
  {
    name: 'status=draft lists drafts with their relations',
    path: '/api/articles?status=draft&fields[0]=title&sort=title&populate[author][fields][0]=name',
    status: 200,
    equal: list([
      { id: anyId, documentId: '{{a3}}', title: 'Draft only post', author: slim('grace', 'name', 'Grace Hopper') },
      { id: anyId, documentId: '{{a1}}', title: 'Hello Strapi', author: slim('ada', 'name', 'Ada Lovelace') },
      { id: anyId, documentId: '{{a2}}', title: 'Second post', author: slim('ada', 'name', 'Ada Lovelace') },
    ]),
  },
  {
    name: 'a non-D&P author populates the published versions of its articles by default',
    path: '/api/authors?fields[0]=name&sort=name&populate[articles][fields][0]=title&populate[articles][fields][1]=publishedAt',
    status: 200,
    equal: list([
      { ...slim('ada', 'name', 'Ada Lovelace'), articles: [{ ...title('a1', 'Hello Strapi'), publishedAt: ts }, { ...title('a2', 'Second post'), publishedAt: ts }] },
      { ...slim('grace', 'name', 'Grace Hopper'), articles: [] },
    ]),
  },
  {
    name: 'and the draft versions with status=draft',
    path: '/api/authors?status=draft&fields[0]=name&sort=name&populate[articles][fields][0]=title&populate[articles][fields][1]=publishedAt&populate[articles][sort]=title',
    status: 200,
    equal: list([
      { ...slim('ada', 'name', 'Ada Lovelace'), articles: [{ id: anyId, documentId: '{{a1}}', title: 'Hello Strapi', publishedAt: null }, { id: anyId, documentId: '{{a2}}', title: 'Second post', publishedAt: null }] },
      { ...slim('grace', 'name', 'Grace Hopper'), articles: [{ id: anyId, documentId: '{{a3}}', title: 'Draft only post', publishedAt: null }] },
    ]),
  },
  { name: 'one author, published view: a draft-only article is not there', path: '/api/authors/{{grace}}?fields[0]=name&populate[articles][fields][0]=title&populate[articles][sort]=title', status: 200, equal: one({ ...slim('grace', 'name', 'Grace Hopper'), articles: [] }) },
  { name: 'one author, draft view: it is', path: '/api/authors/{{grace}}?status=draft&fields[0]=name&populate[articles][fields][0]=title&populate[articles][sort]=title', status: 200, equal: one({ ...slim('grace', 'name', 'Grace Hopper'), articles: [{ id: anyId, documentId: '{{a3}}', title: 'Draft only post' }] }) },

  // ── errors ────────────────────────────────────────────────────────────────────────────────────
  { name: '400 populate=nope', path: '/api/articles?populate=nope', status: 400, equal: invalidKey('nope', 'nope') },
  { name: '400 populate[nope]=true (path null)', path: '/api/articles?populate[nope]=true', status: 400, equal: invalidKey('nope', null) },
  { name: '400 populate[0]=*', path: '/api/articles?populate[0]=*', status: 400, equal: invalidKey('*', '*') },
  { name: '400 populate=*&populate=author', path: '/api/articles?populate=*&populate=author', status: 400, equal: invalidKey('*', '*') },
  { name: '400 populate=title (not populatable)', path: '/api/articles?populate=title', status: 400, equal: invalidKey('title', 'title') },
  { name: '400 populate=createdBy (private)', path: '/api/articles?populate=createdBy', status: 400, equal: invalidKey('createdBy', 'createdBy') },
  { name: '400 populate=author.nope', path: '/api/articles?populate=author.nope', status: 400, equal: invalidKey('nope', 'author.nope', 'Invalid key nope at author.nope') },
  { name: '400 populate=cover.related (media sub-path)', path: '/api/articles?populate=cover.related', status: 400, equal: invalidKey('cover', 'cover') },
  {
    name: '400 populate[tags]=* (wildcard under a relation)',
    path: '/api/articles?populate[tags]=*',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key articles at tags.articles', { key: 'articles', path: 'tags.articles' }),
  },
  {
    name: '400 populate[seo]=* (wildcard under a component reaching media)',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo]=*',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key shareImage at seo.shareImage', { key: 'shareImage', path: 'seo.shareImage' }),
  },
  { name: '400 populate[tags][limit]=1', path: '/api/articles?populate[tags][limit]=1', status: 400, equal: invalidKey('limit', 'tags', 'Invalid key limit at tags') },
  { name: '400 populate[author][nope]=1', path: '/api/articles?populate[author][nope]=1', status: 400, equal: invalidKey('nope', 'author', 'Invalid key nope at author') },
  { name: '400 populate[author][on][x]=true', path: '/api/articles?populate[author][on][x]=true', status: 400, equal: invalidKey('x', 'author.on.x', 'Invalid key x at author.on.x') },
  { name: '400 populate[seo][populate][nope]=true', path: '/api/articles/{{a1}}?populate[seo][populate][nope]=true', status: 400, equal: invalidKey('nope', 'seo', 'Invalid key nope at seo') },
  { name: '400 populate[blocks]=*', path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks]=*', status: 400, equal: nestedDz('"*"') },
  { name: '400 populate[blocks][fields][0]=title', path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks][fields][0]=title', status: 400, equal: nestedDz('{"fields":["title"]}') },
  {
    name: '400 populate[blocks][on][shared.nope]=true',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks][on][shared.nope]=true',
    status: 400,
    equal: invalidKey('shared.nope', 'blocks.on.shared.nope', 'Invalid key shared.nope at blocks.on.shared.nope'),
  },
]);

// ── permissions: relations whose target the caller may not `find` are silently not populated ────

/** Creates a custom API token with these permissions and remembers its key as `vars[name]`. */
function token(name: string, permissions: string[]): Step {
  return {
    name: `create token ${name}: ${permissions.join(', ')}`,
    path: '/_health',
    status: 204,
    check: async (_r, { server, vars }: { server: TestServer; vars: Vars }) => {
      const { config } = server.app.project;
      vars[name] = await createApiToken(server.app.db, { salt: config.admin.apiTokenSalt, encryptionKey: config.admin.encryptionKey }, { name, type: 'custom', permissions }, new Date());
    },
  };
}
const bearer = (name: string) => ({ authorization: `Bearer {{${name}}}` });
const QUOTE = { __component: 'shared.quote', id: anyId, title: 'Q1', body: 'To be' };

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
    equal: list([{ ...title('a1', 'Hello Strapi'), author: ADA, tags: [JS] }]),
  },
  { name: 'without tag/author find: neither key, no error', path: '/api/articles?fields[0]=title&populate=author,tags', headers: bearer('articlesOnly'), status: 200, equal: list([title('a1', 'Hello Strapi')]) },
  { name: 'with tag find: tags present, author absent', path: '/api/articles?fields[0]=title&populate=author,tags', headers: bearer('withTags'), status: 200, equal: list([{ ...title('a1', 'Hello Strapi'), tags: [JS] }]) },
  { name: 'object form is pruned the same way', path: '/api/articles?fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name', headers: bearer('withTags'), status: 200, equal: list([{ ...title('a1', 'Hello Strapi'), tags: [slim('js', 'name', 'javascript')] }]) },
  { name: 'a dot path through a forbidden relation is dropped whole', path: '/api/articles?fields[0]=title&populate=author.articles', headers: bearer('articlesOnly'), status: 200, equal: list([title('a1', 'Hello Strapi')]) },
  {
    name: 'populate=* leaves out forbidden relations only (media, components, DZ, localizations stay)',
    path: '/api/articles?fields[0]=title&populate=*',
    headers: bearer('articlesOnly'),
    status: 200,
    equal: list([{ ...title('a1', 'Hello Strapi'), cover: null, gallery: [], seo: null, blocks: [{ __component: 'shared.quote', id: anyId, title: 'Q1', body: 'To be' }], localizations: [] }]),
  },
  { name: 'relations inside a DZ are pruned too', path: '/api/articles?fields[0]=title&populate[blocks][populate]=*', headers: bearer('articlesOnly'), status: 200, equal: list([{ ...title('a1', 'Hello Strapi'), blocks: [QUOTE] }]) },
  { name: 'and through an on fragment', path: '/api/articles?fields[0]=title&populate[blocks][on][shared.quote][populate][author][fields][0]=name', headers: bearer('withTags'), status: 200, equal: list([{ ...title('a1', 'Hello Strapi'), blocks: [QUOTE] }]) },
  { name: 'with author find the quote author is populated', path: '/api/articles?fields[0]=title&populate[blocks][populate]=*', headers: bearer('withAuthors'), status: 200, equal: list([{ ...title('a1', 'Hello Strapi'), blocks: [{ ...QUOTE, author: ADA }] }]) },
]);
