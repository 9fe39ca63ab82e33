import { expect } from 'vitest';
import {
  A1,
  A1_STAR,
  A1_TITLE,
  A2,
  A2_STAR,
  A2_TITLE,
  ADA,
  ADA_NAME,
  BLOCKS,
  COVER,
  DB,
  DB_NAME,
  GRACE,
  GRACE_NAME,
  JAVA,
  JAVA_NAME,
  JS,
  JS_NAME,
  KEYWORDS,
  NOTES,
  PHOTO,
  POPULATE_SEED,
  SEO,
  SHARE,
} from '../support/populate-fixture.js';
import { errorBody, scenario, type Step } from '../support/scenario.js';
import { ID, list, single, TS } from '../support/shapes.js';

// Expectations follow real Strapi 5.54 (/tmp/dump/10-populate.txt, 11-populate-components-dz.txt,
// 14-relations-write.txt and the behaviour reference §4): flat populated entries, unpopulated keys
// absent, relations in connection order, components with `id` only, DZ items with `__component`.
// The seeded content and the entries it populates to are in ../support/populate-fixture.ts.

/** GET `path`: 200 with exactly `expected`. */
const read = (name: string, path: string, expected: unknown): Step => ({ name, path, status: 200, equal: expected });
/** GET `path`: 400 with exactly `expected`. */
const refused = (name: string, path: string, expected: unknown): Step => ({ name, path, status: 400, equal: expected });

const invalidKey = (key: string, path: string | null, message = `Invalid key ${key}`) =>
  errorBody(400, 'ValidationError', message, { key, param: 'populate', path, source: 'query' });
const nestedDz = (found: string) =>
  errorBody(
    400,
    'ValidationError',
    `Invalid nested populate for article.blocks (api::article.article). Expected a fragment ("on") or "count" but found ${found}`,
    {},
  );

scenario('populate: forms, shapes, order, draft & publish, errors', [
  ...POPULATE_SEED,

  // ── shapes without and with populate=* ────────────────────────────────────────────────────────
  read('without populate, relation/media/component/DZ keys are absent', '/api/articles/{{a2}}', single(A2)),
  {
    name: 'populate=* populates every relation, media, component and DZ one level deep, plus localizations',
    path: '/api/articles/{{a1}}?populate=*',
    status: 200,
    equal: single({ ...A1, ...A1_STAR }),
    check: ({ json }) => {
      expect(json.data).not.toHaveProperty('createdBy');
      expect(json.data).not.toHaveProperty('updatedBy');
      expect(json.data.cover).not.toHaveProperty('isUrlSigned');
      expect(json.data.seo).not.toHaveProperty('documentId');
    },
  },
  read(
    'populate=* with nothing set: to-one null, to-many [], media null / [], component null, DZ []',
    '/api/articles/{{a2}}?populate=*',
    single({ ...A2, ...A2_STAR }),
  ),
  read(
    'populate=* on a list: each article gets its own relations, pagination unchanged',
    '/api/articles?populate=*&sort=title&fields[0]=title',
    list([
      { ...A1_TITLE, ...A1_STAR },
      { ...A2_TITLE, ...A2_STAR },
    ]),
  ),
  read(
    'pagination counts parents, not related rows',
    '/api/articles?fields[0]=title&sort=title&pagination[pageSize]=1&populate[tags][fields][0]=name',
    {
      data: [{ ...A1_TITLE, tags: [JAVA_NAME, JS_NAME, DB_NAME] }],
      meta: { pagination: { page: 1, pageSize: 1, pageCount: 2, total: 2 } },
    },
  ),

  // ── the populate forms ────────────────────────────────────────────────────────────────────────
  read('populate=author', '/api/articles/{{a1}}?populate=author&fields[0]=title', single({ ...A1_TITLE, author: ADA })),
  read(
    'populate=author,editor (comma list)',
    '/api/articles/{{a1}}?populate=author,editor&fields[0]=title',
    single({ ...A1_TITLE, author: ADA, editor: GRACE }),
  ),
  read(
    'populate[0]=author&populate[1]=tags',
    '/api/articles/{{a1}}?populate[0]=author&populate[1]=tags&fields[0]=title',
    single({ ...A1_TITLE, author: ADA, tags: [JAVA, JS, DB] }),
  ),
  read(
    'populate[0]=tags&populate[1]=seo (relation and component)',
    '/api/articles/{{a1}}?populate[0]=tags&populate[1]=seo&fields[0]=title',
    single({ ...A1_TITLE, tags: [JAVA, JS, DB], seo: SEO }),
  ),
  read(
    'populate[author]=true&populate[tags]=false',
    '/api/articles/{{a1}}?populate[author]=true&populate[tags]=false&fields[0]=title',
    single({ ...A1_TITLE, author: ADA }),
  ),
  read(
    'populate[author]=1',
    '/api/articles/{{a2}}?populate[author]=1&fields[0]=title',
    single({ ...A2_TITLE, author: ADA }),
  ),
  read(
    'populate[author]=t',
    '/api/articles/{{a2}}?populate[author]=t&fields[0]=title',
    single({ ...A2_TITLE, author: ADA }),
  ),
  read(
    'populate[author]=false populates nothing',
    '/api/articles/{{a2}}?populate[author]=false&fields[0]=title',
    single(A2_TITLE),
  ),
  read(
    'dot path author.articles populates the inverse side with default fields (published)',
    '/api/articles/{{a1}}?populate=author.articles&fields[0]=title',
    single({ ...A1_TITLE, author: { ...ADA, articles: [A1, A2] } }),
  ),
  read(
    'nested object populate with fields and sort at each level',
    '/api/articles/{{a1}}?fields[0]=title&populate[author][fields][0]=name&populate[author][populate][articles][fields][0]=title&populate[author][populate][articles][sort][0]=title:desc',
    single({ ...A1_TITLE, author: { ...ADA_NAME, articles: [A2_TITLE, A1_TITLE] } }),
  ),
  read(
    "populate[author][populate]=*: the author's media and relations",
    '/api/articles/{{a2}}?fields[0]=title&populate[author][populate]=*',
    single({ ...A2_TITLE, author: { ...ADA, avatar: null, articles: [A1, A2] } }),
  ),
  read(
    'populate[tags][populate][articles][fields][0]=title',
    '/api/articles/{{a2}}?fields[0]=title&populate[tags][fields][0]=name&populate[tags][populate][articles][fields][0]=title',
    single({ ...A2_TITLE, tags: [{ ...JAVA_NAME, articles: [A1_TITLE, A2_TITLE] }] }),
  ),
  read(
    'populate[x][populate]=* under a relation (tags → articles → everything)',
    '/api/tags?fields[0]=name&sort=name&populate[articles][populate]=*&populate[articles][fields][0]=title',
    list([
      { ...DB_NAME, articles: [{ ...A1_TITLE, ...A1_STAR }] },
      {
        ...JAVA_NAME,
        articles: [
          { ...A1_TITLE, ...A1_STAR },
          { ...A2_TITLE, ...A2_STAR },
        ],
      },
      { ...JS_NAME, articles: [{ ...A1_TITLE, ...A1_STAR }] },
    ]),
  ),

  // ── relations: order, fields, sort, filters, count ────────────────────────────────────────────
  read(
    'to-many relations come back in connection order, fields keep id and documentId',
    '/api/articles/{{a1}}?fields[0]=title&populate[tags][fields][0]=name',
    single({ ...A1_TITLE, tags: [JAVA_NAME, JS_NAME, DB_NAME] }),
  ),
  read(
    'populate[tags][sort] orders the related entries',
    '/api/articles/{{a1}}?fields[0]=title&populate[tags][fields][0]=name&populate[tags][sort][0]=name:desc',
    single({ ...A1_TITLE, tags: [JS_NAME, JAVA_NAME, DB_NAME] }),
  ),
  read(
    'populate[tags][filters] keeps only matching related entries, per parent',
    '/api/articles?fields[0]=title&sort=title&populate[tags][fields][0]=name&populate[tags][sort][0]=name:desc&populate[tags][filters][name][$startsWith]=java',
    list([
      { ...A1_TITLE, tags: [JS_NAME, JAVA_NAME] },
      { ...A2_TITLE, tags: [JAVA_NAME] },
    ]),
  ),
  read(
    'a filter matching nothing gives []',
    '/api/articles/{{a2}}?fields[0]=title&populate[tags][filters][name][$eq]=databases',
    single({ ...A2_TITLE, tags: [] }),
  ),
  read(
    'populate[tags][count]=true',
    '/api/articles?fields[0]=title&sort=title&populate[tags][count]=true',
    list([
      { ...A1_TITLE, tags: { count: 3 } },
      { ...A2_TITLE, tags: { count: 1 } },
    ]),
  ),
  read(
    'count on the inverse side counts published articles only',
    '/api/authors?fields[0]=name&sort=name&populate[articles][count]=true',
    list([
      { ...ADA_NAME, articles: { count: 2 } },
      { ...GRACE_NAME, articles: { count: 0 } },
    ]),
  ),
  read(
    'oneToOne editor, empty to-one null, empty media null / []',
    '/api/articles?fields[0]=title&sort=title&populate[editor][fields][0]=name&populate[cover]=true&populate[gallery]=true',
    list([
      { ...A1_TITLE, editor: GRACE_NAME, cover: COVER, gallery: [PHOTO, NOTES] },
      { ...A2_TITLE, editor: null, cover: null, gallery: [] },
    ]),
  ),
  read(
    'media with fields keeps id and documentId',
    '/api/articles/{{a1}}?fields[0]=title&populate[cover][fields][0]=name&populate[gallery][fields][0]=name',
    single({
      ...A1_TITLE,
      cover: { id: '{{coverId}}', documentId: '{{coverDoc}}', name: 'cover.png' },
      gallery: [
        { id: '{{photoId}}', documentId: '{{photoDoc}}', name: 'photo.png' },
        { id: '{{notesId}}', documentId: '{{notesDoc}}', name: 'notes.txt' },
      ],
    }),
  ),

  // ── components ────────────────────────────────────────────────────────────────────────────────
  read(
    'populate[seo]=true: component scalars with id, no documentId, nested keys absent',
    '/api/articles/{{a1}}?fields[0]=title&populate[seo]=true',
    single({ ...A1_TITLE, seo: SEO }),
  ),
  read(
    'an unset component is null',
    '/api/articles/{{a2}}?fields[0]=title&populate[seo]=true',
    single({ ...A2_TITLE, seo: null }),
  ),
  read(
    'populate[seo][populate]=*: repeatable component in written order and media',
    '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate]=*',
    single({ ...A1_TITLE, seo: { ...SEO, keywords: KEYWORDS, shareImage: SHARE } }),
  ),
  read(
    'dot paths seo.keywords,seo.shareImage',
    '/api/articles/{{a1}}?fields[0]=title&populate=seo.keywords,seo.shareImage',
    single({ ...A1_TITLE, seo: { ...SEO, keywords: KEYWORDS, shareImage: SHARE } }),
  ),
  read(
    'dot path seo.keywords alone',
    '/api/articles/{{a1}}?fields[0]=title&populate=seo.keywords',
    single({ ...A1_TITLE, seo: { ...SEO, keywords: KEYWORDS } }),
  ),
  read(
    'populate[seo][fields] keeps id only',
    '/api/articles/{{a1}}?fields[0]=title&populate[seo][fields][0]=metaTitle',
    single({ ...A1_TITLE, seo: { id: ID, metaTitle: 'Hello SEO' } }),
  ),
  read(
    'fields on media inside a component',
    '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][shareImage][fields][0]=name&populate[seo][populate][shareImage][fields][1]=mime',
    single({
      ...A1_TITLE,
      seo: {
        ...SEO,
        shareImage: { id: '{{shareId}}', documentId: '{{shareDoc}}', name: 'share.png', mime: 'image/png' },
      },
    }),
  ),
  read(
    'count on a repeatable component',
    '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][keywords][count]=true',
    single({ ...A1_TITLE, seo: { ...SEO, keywords: { count: 3 } } }),
  ),
  read(
    'sort inside a repeatable component',
    '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][keywords][sort]=word:desc',
    single({
      ...A1_TITLE,
      seo: {
        ...SEO,
        keywords: [
          { id: ID, word: 'strapi' },
          { id: ID, word: 'cms' },
          { id: ID, word: 'api' },
        ],
      },
    }),
  ),
  read(
    'filters inside a repeatable component',
    '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][keywords][filters][word][$ne]=cms',
    single({
      ...A1_TITLE,
      seo: {
        ...SEO,
        keywords: [
          { id: ID, word: 'strapi' },
          { id: ID, word: 'api' },
        ],
      },
    }),
  ),

  // ── dynamic zone ──────────────────────────────────────────────────────────────────────────────
  read(
    'populate[blocks]=true: DZ items in written order with __component and id',
    '/api/articles/{{a1}}?fields[0]=title&populate[blocks]=true',
    single({ ...A1_TITLE, blocks: BLOCKS }),
  ),
  read(
    'populate=blocks',
    '/api/articles/{{a1}}?fields[0]=title&populate=blocks',
    single({ ...A1_TITLE, blocks: BLOCKS }),
  ),
  read(
    'an empty DZ is []',
    '/api/articles/{{a2}}?fields[0]=title&populate=blocks',
    single({ ...A2_TITLE, blocks: [] }),
  ),
  read(
    'populate[blocks][populate]=* populates relations and media inside every component',
    '/api/articles/{{a1}}?fields[0]=title&populate[blocks][populate]=*',
    single({
      ...A1_TITLE,
      blocks: [
        { ...BLOCKS[0], author: GRACE },
        BLOCKS[1],
        { ...BLOCKS[2], file: NOTES },
        { ...BLOCKS[3], author: null },
      ],
    }),
  ),
  read(
    'dot path blocks.author reaches through the DZ',
    '/api/articles/{{a1}}?fields[0]=title&populate=blocks.author',
    single({
      ...A1_TITLE,
      blocks: [{ ...BLOCKS[0], author: GRACE }, BLOCKS[1], BLOCKS[2], { ...BLOCKS[3], author: null }],
    }),
  ),
  read(
    'on fragments: listed components only, each with its own populate',
    '/api/articles/{{a1}}?fields[0]=title&populate[blocks][on][shared.quote][populate][author][fields][0]=name&populate[blocks][on][shared.media-block][populate]=*',
    single({
      ...A1_TITLE,
      blocks: [
        { ...BLOCKS[0], author: GRACE_NAME },
        { ...BLOCKS[2], file: NOTES },
        { ...BLOCKS[3], author: null },
      ],
    }),
  ),
  read(
    'on fragment with fields',
    '/api/articles/{{a1}}?fields[0]=title&populate[blocks][on][shared.quote][fields][0]=title',
    single({
      ...A1_TITLE,
      blocks: [
        { __component: 'shared.quote', id: ID, title: 'Q1' },
        { __component: 'shared.quote', id: ID, title: 'Q2' },
      ],
    }),
  ),
  read(
    'on fragment =true',
    '/api/articles/{{a1}}?fields[0]=title&populate[blocks][on][shared.rich-text]=true',
    single({ ...A1_TITLE, blocks: [BLOCKS[1]] }),
  ),
  read(
    'on fragments on a list',
    '/api/articles?fields[0]=title&sort=title&populate[blocks][on][shared.quote][fields][0]=title',
    list([
      {
        ...A1_TITLE,
        blocks: [
          { __component: 'shared.quote', id: ID, title: 'Q1' },
          { __component: 'shared.quote', id: ID, title: 'Q2' },
        ],
      },
      { ...A2_TITLE, blocks: [] },
    ]),
  ),

  // ── draft & publish ───────────────────────────────────────────────────────────────────────────
  read(
    'a published article populates non-D&P targets by default',
    '/api/articles/{{a1}}?fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name',
    single({ ...A1_TITLE, author: ADA_NAME, tags: [JAVA_NAME, JS_NAME, DB_NAME] }),
  ),
  {
    name: 'and its draft version with status=draft (same relations, draft row)',
    path: '/api/articles/{{a1}}?status=draft&fields[0]=title&fields[1]=publishedAt&populate[author][fields][0]=name&populate[tags][fields][0]=name',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{a1}}',
      title: 'Hello Strapi',
      publishedAt: null,
      author: ADA_NAME,
      tags: [JAVA_NAME, JS_NAME, DB_NAME],
    }),
    check: ({ json }, { vars }) => expect(json.data.id).not.toBe(vars.a1Id),
  },
  read(
    'status=draft lists drafts with their relations',
    '/api/articles?status=draft&fields[0]=title&sort=title&populate[author][fields][0]=name',
    list([
      { id: ID, documentId: '{{a3}}', title: 'Draft only post', author: GRACE_NAME },
      { id: ID, documentId: '{{a1}}', title: 'Hello Strapi', author: ADA_NAME },
      { id: ID, documentId: '{{a2}}', title: 'Second post', author: ADA_NAME },
    ]),
  ),
  read(
    'a non-D&P author populates the published versions of its articles by default',
    '/api/authors?fields[0]=name&sort=name&populate[articles][fields][0]=title&populate[articles][fields][1]=publishedAt',
    list([
      {
        ...ADA_NAME,
        articles: [
          { ...A1_TITLE, publishedAt: TS },
          { ...A2_TITLE, publishedAt: TS },
        ],
      },
      { ...GRACE_NAME, articles: [] },
    ]),
  ),
  read(
    'and the draft versions with status=draft',
    '/api/authors?status=draft&fields[0]=name&sort=name&populate[articles][fields][0]=title&populate[articles][fields][1]=publishedAt&populate[articles][sort]=title',
    list([
      {
        ...ADA_NAME,
        articles: [
          { id: ID, documentId: '{{a1}}', title: 'Hello Strapi', publishedAt: null },
          { id: ID, documentId: '{{a2}}', title: 'Second post', publishedAt: null },
        ],
      },
      { ...GRACE_NAME, articles: [{ id: ID, documentId: '{{a3}}', title: 'Draft only post', publishedAt: null }] },
    ]),
  ),
  read(
    'one author, published view: a draft-only article is not there',
    '/api/authors/{{grace}}?fields[0]=name&populate[articles][fields][0]=title&populate[articles][sort]=title',
    single({ ...GRACE_NAME, articles: [] }),
  ),
  read(
    'one author, draft view: it is',
    '/api/authors/{{grace}}?status=draft&fields[0]=name&populate[articles][fields][0]=title&populate[articles][sort]=title',
    single({ ...GRACE_NAME, articles: [{ id: ID, documentId: '{{a3}}', title: 'Draft only post' }] }),
  ),

  // ── errors ────────────────────────────────────────────────────────────────────────────────────
  refused('400 populate=nope', '/api/articles?populate=nope', invalidKey('nope', 'nope')),
  refused('400 populate[nope]=true (path null)', '/api/articles?populate[nope]=true', invalidKey('nope', null)),
  refused('400 populate[0]=*', '/api/articles?populate[0]=*', invalidKey('*', '*')),
  refused('400 populate=*&populate=author', '/api/articles?populate=*&populate=author', invalidKey('*', '*')),
  refused('400 populate=title (not populatable)', '/api/articles?populate=title', invalidKey('title', 'title')),
  refused('400 populate=createdBy (private)', '/api/articles?populate=createdBy', invalidKey('createdBy', 'createdBy')),
  refused(
    '400 populate=author.nope',
    '/api/articles?populate=author.nope',
    invalidKey('nope', 'author.nope', 'Invalid key nope at author.nope'),
  ),
  refused(
    '400 populate=cover.related (media sub-path)',
    '/api/articles?populate=cover.related',
    invalidKey('cover', 'cover'),
  ),
  refused(
    '400 populate[tags]=* (wildcard under a relation)',
    '/api/articles?populate[tags]=*',
    errorBody(400, 'ValidationError', 'Invalid key articles at tags.articles', {
      key: 'articles',
      path: 'tags.articles',
    }),
  ),
  refused(
    '400 populate[seo]=* (wildcard under a component reaching media)',
    '/api/articles/{{a1}}?fields[0]=title&populate[seo]=*',
    errorBody(400, 'ValidationError', 'Invalid key shareImage at seo.shareImage', {
      key: 'shareImage',
      path: 'seo.shareImage',
    }),
  ),
  refused(
    '400 populate[tags][limit]=1',
    '/api/articles?populate[tags][limit]=1',
    invalidKey('limit', 'tags', 'Invalid key limit at tags'),
  ),
  refused(
    '400 populate[author][nope]=1',
    '/api/articles?populate[author][nope]=1',
    invalidKey('nope', 'author', 'Invalid key nope at author'),
  ),
  refused(
    '400 populate[author][on][x]=true',
    '/api/articles?populate[author][on][x]=true',
    invalidKey('x', 'author.on.x', 'Invalid key x at author.on.x'),
  ),
  refused(
    '400 populate[seo][populate][nope]=true',
    '/api/articles/{{a1}}?populate[seo][populate][nope]=true',
    invalidKey('nope', 'seo', 'Invalid key nope at seo'),
  ),
  refused('400 populate[blocks]=*', '/api/articles/{{a1}}?fields[0]=title&populate[blocks]=*', nestedDz('"*"')),
  refused(
    '400 populate[blocks][fields][0]=title',
    '/api/articles/{{a1}}?fields[0]=title&populate[blocks][fields][0]=title',
    nestedDz('{"fields":["title"]}'),
  ),
  refused(
    '400 populate[blocks][on][shared.nope]=true',
    '/api/articles/{{a1}}?fields[0]=title&populate[blocks][on][shared.nope]=true',
    invalidKey('shared.nope', 'blocks.on.shared.nope', 'Invalid key shared.nope at blocks.on.shared.nope'),
  ),
]);
