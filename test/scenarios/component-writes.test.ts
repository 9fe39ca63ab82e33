import { expect } from 'vitest';
import { insertFile } from '../support/files.js';
import { errorBody, scenario, type Step, type Vars } from '../support/scenario.js';
import { DOCUMENT_ID, ISO } from '../support/shapes.js';
import type { TestServer } from '../support/test-server.js';

// Expectations come from recorded Strapi 5.54 sessions (/tmp/dump/15-components-dz-write.txt,
// 04-validation.txt, 02-single-type.txt, 16-media.txt) and the behaviour reference (§5, §7, §16).

const ID = expect.any(Number);
const DOC = expect.stringMatching(DOCUMENT_ID);
const TS = expect.stringMatching(ISO);

/** A populated file, as `insertFile(server, name)` stores it (Strapi's populated file keys). */
function file(idVar: string, name: string): Record<string, unknown> {
  const dot = name.lastIndexOf('.');
  const hash = `${name.slice(0, dot)}_abc123`;
  const ext = name.slice(dot);
  const stamp = '2024-01-01T00:00:00.000Z';
  return {
    id: `{{${idVar}}}`, documentId: DOC, name, alternativeText: null, caption: null, width: 64, height: 64, formats: null, hash, ext,
    mime: 'image/png', size: 1.5, url: `/uploads/${hash}${ext}`, previewUrl: null, provider: 'local', provider_metadata: null, focalPoint: null,
    createdAt: stamp, updatedAt: stamp, publishedAt: stamp,
  };
}

/** A populated author with default fields. */
function author(docVar: string, name: string): Record<string, unknown> {
  return { id: ID, documentId: `{{${docVar}}}`, name, email: null, bio: null, createdAt: TS, updatedAt: TS, publishedAt: TS };
}

/** One validation error, as Strapi's envelope carries it. */
function oneError(path: string[], message: string, value?: unknown): unknown {
  return errorBody(400, 'ValidationError', message, { errors: [{ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }] });
}

/** A type error whose message text was not recorded (Strapi prints the value oddly): path and value only. */
function typeError(path: string[], value: unknown): unknown {
  return {
    data: null,
    error: { status: 400, name: 'ValidationError', message: expect.stringContaining(path.join('.')), details: { errors: [{ path, value, name: 'ValidationError', message: expect.any(String) }] } },
  };
}

const invalidBodyKey = (key: string, path: string) => errorBody(400, 'ValidationError', `Invalid key ${key} at ${path}`, { key, path, source: 'body' });
const missingMetaTitle = oneError(['seo', 'metaTitle'], 'seo.metaTitle must be a `string` type, but the final value was: `null`.', null);
const MEDIA_MISSING = '1 relation(s) of type plugin::upload.file associated with this entity do not exist';
const NOT_RELATED = (attribute: string) => `Some of the provided components in ${attribute} are not related to the entity`;

/** Tables holding component rows, component links and media links of the blog example. */
const TABLES = [
  'components_shared_seos', 'components_shared_keywords', 'components_shared_quotes', 'components_shared_rich_texts', 'components_shared_media_blocks',
  'articles_cmps', 'globals_cmps', 'components_shared_seos_cmps', 'components_shared_quotes_author_lnk', 'files_related_mph', 'files',
] as const;
type Table = (typeof TABLES)[number];

async function query(server: TestServer, sql: string): Promise<Record<string, unknown>[]> {
  return server.app.db.all({ sql, params: [] });
}

async function count(server: TestServer, table: Table, where?: string): Promise<number> {
  const rows = await query(server, `select count(*) as n from ${table}${where ? ` where ${where}` : ''}`);
  return Number(rows[0]!.n);
}

async function counts(server: TestServer): Promise<Record<Table, number>> {
  const result = {} as Record<Table, number>;
  for (const table of TABLES) result[table] = await count(server, table);
  return result;
}

/** A step that only inspects the database (or seeds files) through `check`. */
function db(name: string, check: (context: { vars: Vars; server: TestServer }) => Promise<void>): Step {
  return { name, path: '/_health', status: 204, check: (_response, context) => check(context) };
}

/** Asserts that the row counts moved by exactly `delta` since the snapshot saved as `vars[base]` (others unchanged). */
function expectCounts(name: string, base: string, delta: Partial<Record<Table, number>>): Step {
  return db(name, async ({ vars, server }) => {
    const before = vars[base] as Record<Table, number>;
    const expected = Object.fromEntries(TABLES.map((t) => [t, before[t] + (delta[t] ?? 0)]));
    expect(await counts(server)).toEqual(expected);
  });
}

const saveCounts = (name: string, as: string): Step => db(name, async ({ vars, server }) => {
  vars[as] = await counts(server);
});

// ---------------------------------------------------------------------------------------------
// 1. Dump 15, step by step (the upload step is replaced by insertFile).
// ---------------------------------------------------------------------------------------------

const POP_ALL = 'populate[seo][populate]=*&populate[blocks][populate]=*';

scenario('component and dynamic-zone writes, as recorded from Strapi', [
  { name: 'seed-grace', method: 'POST', path: '/api/authors?fields[0]=name', body: { data: { name: 'Grace Hopper' } }, status: 201, equal: { data: { id: ID, documentId: DOC, name: 'Grace Hopper' }, meta: {} }, save: { grace: 'data.documentId' } },
  db('seed a file (upload-img)', async ({ vars, server }) => {
    vars.imgId = await insertFile(server, 'kw.png');
  }),
  {
    name: 'create-with-components',
    method: 'POST',
    path: `/api/articles?fields[0]=title&${POP_ALL}`,
    body: { data: { title: 'Components', seo: { metaTitle: 'One', metaDescription: 'First', shareImage: '{{imgId}}', keywords: [{ word: 'a' }, { word: 'b' }] }, blocks: [{ __component: 'shared.quote', title: 'Q1', author: '{{grace}}' }, { __component: 'shared.rich-text', body: 'R1' }] } },
    status: 201,
    equal: {
      data: {
        id: ID, documentId: DOC, title: 'Components',
        seo: { id: ID, metaTitle: 'One', metaDescription: 'First', shareImage: file('imgId', 'kw.png'), keywords: [{ id: ID, word: 'a' }, { id: ID, word: 'b' }] },
        blocks: [
          { __component: 'shared.quote', id: ID, title: 'Q1', body: null, author: author('grace', 'Grace Hopper') },
          { __component: 'shared.rich-text', id: ID, body: 'R1' },
        ],
      },
      meta: {},
    },
    save: { a1: 'data.documentId', seoId: 'data.seo.id', kwA: 'data.seo.keywords.0.id', kwB: 'data.seo.keywords.1.id', q1: 'data.blocks.0.id' },
  },
  {
    name: 'get-draft-components (the draft has its own component rows)',
    path: '/api/articles/{{a1}}?status=draft&fields[0]=title&populate[seo][populate][0]=keywords&populate[blocks]=true',
    status: 200,
    equal: {
      data: {
        id: ID, documentId: '{{a1}}', title: 'Components',
        seo: { id: ID, metaTitle: 'One', metaDescription: 'First', keywords: [{ id: ID, word: 'a' }, { id: ID, word: 'b' }] },
        blocks: [{ __component: 'shared.quote', id: ID, title: 'Q1', body: null }, { __component: 'shared.rich-text', id: ID, body: 'R1' }],
      },
      meta: {},
    },
    check: ({ json }, { vars }) => {
      expect(json.data.seo.id).not.toBe(vars.seoId);
      expect([json.data.seo.keywords[0].id, json.data.seo.keywords[1].id]).not.toContain(vars.kwA);
      expect(json.data.blocks[0].id).not.toBe(vars.q1);
    },
  },
  {
    name: 'update-component-without-id-replaces',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate]=*',
    body: { data: { seo: { metaTitle: 'Two' } } },
    status: 200,
    equal: { data: { id: ID, documentId: '{{a1}}', title: 'Components', seo: { id: ID, keywords: [], metaDescription: null, metaTitle: 'Two', shareImage: null } }, meta: {} },
  },
  {
    name: 'seed-again',
    method: 'PUT',
    path: '/api/articles/{{a1}}?status=draft&fields[0]=title&populate[seo][populate][0]=keywords',
    body: { data: { seo: { metaTitle: 'Three', metaDescription: 'Desc', keywords: [{ word: 'x' }, { word: 'y' }, { word: 'z' }] } } },
    status: 200,
    equal: { data: { id: ID, documentId: '{{a1}}', title: 'Components', seo: { id: ID, metaTitle: 'Three', metaDescription: 'Desc', keywords: [{ id: ID, word: 'x' }, { id: ID, word: 'y' }, { id: ID, word: 'z' }] } }, meta: {} },
    save: { seo2: 'data.seo.id', kx: 'data.seo.keywords.0.id', ky: 'data.seo.keywords.1.id', kz: 'data.seo.keywords.2.id' },
  },
  {
    name: 'update-with-id-keeps-other-fields (ids kept, unlisted item deleted, new item created)',
    method: 'PUT',
    path: '/api/articles/{{a1}}?status=draft&fields[0]=title&populate[seo][populate][0]=keywords',
    body: { data: { seo: { id: '{{seo2}}', metaTitle: 'Three updated', keywords: [{ id: '{{kz}}', word: 'z' }, { id: '{{kx}}', word: 'x2' }, { word: 'new' }] } } },
    status: 200,
    equal: {
      data: { id: ID, documentId: '{{a1}}', title: 'Components', seo: { id: '{{seo2}}', metaTitle: 'Three updated', metaDescription: 'Desc', keywords: [{ id: '{{kz}}', word: 'z' }, { id: '{{kx}}', word: 'x2' }, { id: ID, word: 'new' }] } },
      meta: {},
    },
    check: ({ json }, { vars }) => expect([vars.kx, vars.ky, vars.kz]).not.toContain(json.data.seo.keywords[2].id),
  },
  db('the unlisted keyword row is gone, the kept one was updated in place', async ({ vars, server }) => {
    expect(await count(server, 'components_shared_keywords', `id = ${Number(vars.ky)}`)).toBe(0);
    expect(await query(server, `select word from components_shared_keywords where id = ${Number(vars.kx)}`)).toEqual([{ word: 'x2' }]);
    expect(await count(server, 'components_shared_seos_cmps', `entity_id = ${Number(vars.seo2)}`)).toBe(3);
  }),
  {
    name: 'publish-components',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][0]=keywords',
    body: { data: {} },
    status: 200,
    equal: { data: { id: ID, documentId: '{{a1}}', title: 'Components', seo: { id: ID, metaTitle: 'Three updated', metaDescription: 'Desc', keywords: [{ id: ID, word: 'z' }, { id: ID, word: 'x2' }, { id: ID, word: 'new' }] } }, meta: {} },
  },
  {
    name: 'repeatable-empty',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[seo][populate][0]=keywords',
    body: { data: { seo: { metaTitle: 'No keywords', keywords: [] } } },
    status: 200,
    equal: { data: { id: ID, documentId: '{{a1}}', title: 'Components', seo: { id: ID, metaTitle: 'No keywords', metaDescription: null, keywords: [] } }, meta: {} },
  },
  {
    name: 'component-null',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate=seo',
    body: { data: { seo: null } },
    status: 200,
    equal: { data: { id: ID, documentId: '{{a1}}', title: 'Components', seo: null }, meta: {} },
  },
  {
    name: 'dz-replace-and-reorder',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks][populate]=*',
    body: { data: { blocks: [{ __component: 'shared.rich-text', body: 'R2' }, { __component: 'shared.media-block', file: '{{imgId}}' }, { __component: 'shared.quote', title: 'Q2', body: 'second' }] } },
    status: 200,
    equal: {
      data: {
        id: ID, documentId: '{{a1}}', title: 'Components',
        blocks: [
          { __component: 'shared.rich-text', id: ID, body: 'R2' },
          { __component: 'shared.media-block', id: ID, file: file('imgId', 'kw.png') },
          { __component: 'shared.quote', id: ID, title: 'Q2', body: 'second', author: null },
        ],
      },
      meta: {},
    },
  },
  {
    name: 'dz-absent-untouched',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks]=true',
    body: { data: { title: 'Components renamed' } },
    status: 200,
    equal: {
      data: {
        id: ID, documentId: '{{a1}}', title: 'Components renamed',
        blocks: [{ __component: 'shared.rich-text', id: ID, body: 'R2' }, { __component: 'shared.media-block', id: ID }, { __component: 'shared.quote', id: ID, title: 'Q2', body: 'second' }],
      },
      meta: {},
    },
  },
  {
    name: 'dz-empty',
    method: 'PUT',
    path: '/api/articles/{{a1}}?fields[0]=title&populate[blocks]=true',
    body: { data: { blocks: [] } },
    status: 200,
    equal: { data: { id: ID, documentId: '{{a1}}', title: 'Components renamed', blocks: [] }, meta: {} },
  },
  {
    name: 'global-component-create',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate]=*',
    body: { data: { siteName: 'S', defaultSeo: { metaTitle: 'G', keywords: [{ word: 'k1' }], shareImage: '{{imgId}}' } } },
    status: 200,
    equal: {
      data: {
        id: ID, documentId: DOC, siteName: 'S', createdAt: TS, updatedAt: TS, publishedAt: TS,
        defaultSeo: { id: ID, metaTitle: 'G', metaDescription: null, keywords: [{ id: ID, word: 'k1' }], shareImage: file('imgId', 'kw.png') },
      },
      meta: {},
    },
  },
  { name: 'single-component-given-array-400', method: 'POST', path: '/api/articles', body: { data: { title: 'bad', seo: [{ metaTitle: 'x' }] } }, status: 400, equal: typeError(['seo'], [{ metaTitle: 'x' }]) },
  { name: 'repeatable-given-object-400', method: 'POST', path: '/api/articles', body: { data: { title: 'bad', seo: { metaTitle: 'x', keywords: { word: 'solo' } } } }, status: 400, equal: typeError(['seo', 'keywords'], { word: 'solo' }) },
  { name: 'dz-given-object-400', method: 'POST', path: '/api/articles', body: { data: { title: 'bad', blocks: { __component: 'shared.quote', title: 'x' } } }, status: 400, equal: typeError(['blocks'], { __component: 'shared.quote', title: 'x' }) },
  { name: 'dz-item-unknown-field-400', method: 'POST', path: '/api/articles', body: { data: { title: 'bad', blocks: [{ __component: 'shared.quote', title: 'x', nope: 1 }] } }, status: 400, equal: invalidBodyKey('nope', 'blocks') },
  {
    name: 'dz-item-bad-relation-400',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'bad', blocks: [{ __component: 'shared.quote', author: 'nosuchauthor000000000000' }] } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Document with id "nosuchauthor000000000000", locale "null" not found', {}),
  },
  {
    name: 'component-bad-media-id',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'bad media', seo: { metaTitle: 'm', shareImage: 999999 } } },
    status: 400,
    match: { data: null, error: { status: 400, name: 'ValidationError', message: MEDIA_MISSING } },
  },
  {
    name: 'nested-component-too-long',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'nested', seo: { metaTitle: 'm', keywords: [{ word: 123 }] } } },
    status: 400,
    equal: oneError(['seo', 'keywords', '0', 'word'], 'seo.keywords[0].word must be a `string` type, but the final value was: `123`.', 123),
  },
  {
    name: 'final-state',
    path: `/api/articles?status=draft&fields[0]=title&${POP_ALL}`,
    status: 200,
    equal: { data: [{ id: ID, documentId: '{{a1}}', title: 'Components renamed', seo: null, blocks: [] }], meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } } },
  },
]);

// ---------------------------------------------------------------------------------------------
// 2. Item ids: kept when sent, created when absent, deleted when not listed — checked in SQL.
// ---------------------------------------------------------------------------------------------

const POP = `fields[0]=title&${POP_ALL}`;
const FULL_SEO = (keywords: unknown[]) => ({ id: ID, metaTitle: 'Full', metaDescription: 'Everything', shareImage: file('img1', 'one.png'), keywords });
const FULL_BLOCKS = [
  { __component: 'shared.quote', id: ID, title: 'Q', body: 'B', author: author('ada', 'Ada Lovelace') },
  { __component: 'shared.rich-text', id: ID, body: 'R' },
  { __component: 'shared.media-block', id: ID, file: file('img2', 'two.png') },
];
const FULL = (documentId: unknown) => ({
  data: { id: ID, documentId, title: 'Full', seo: FULL_SEO([{ id: ID, word: 'k1' }, { id: ID, word: 'k2' }, { id: ID, word: 'k3' }]), blocks: FULL_BLOCKS },
  meta: {},
});

scenario('component items: ids kept, new items created, unlisted items deleted, null and [] clear', [
  { name: 'seed an author', method: 'POST', path: '/api/authors', body: { data: { name: 'Ada Lovelace' } }, status: 201, save: { ada: 'data.documentId' } },
  db('seed two files and count rows', async ({ vars, server }) => {
    vars.img1 = await insertFile(server, 'one.png');
    vars.img2 = await insertFile(server, 'two.png');
    vars.base = await counts(server);
  }),
  {
    name: 'create with a single component, a nested repeatable one, media inside, and a dynamic zone of every component',
    method: 'POST',
    path: `/api/articles?${POP}`,
    body: {
      data: {
        title: 'Full',
        seo: { metaTitle: 'Full', metaDescription: 'Everything', shareImage: '{{img1}}', keywords: [{ word: 'k1' }, { word: 'k2' }, { word: 'k3' }] },
        blocks: [{ __component: 'shared.quote', title: 'Q', body: 'B', author: '{{ada}}' }, { __component: 'shared.rich-text', body: 'R' }, { __component: 'shared.media-block', file: '{{img2}}' }],
      },
    },
    status: 201,
    equal: FULL(DOC),
    save: { a: 'data.documentId', rowP: 'data.id', seoP: 'data.seo.id' },
  },
  expectCounts('draft and published rows each own a copy of every component, its links and its media', 'base', {
    components_shared_seos: 2, components_shared_keywords: 6, components_shared_quotes: 2, components_shared_rich_texts: 2, components_shared_media_blocks: 2,
    articles_cmps: 8, components_shared_seos_cmps: 6, components_shared_quotes_author_lnk: 2, files_related_mph: 4,
  }),
  {
    name: 'read back the draft',
    path: `/api/articles/{{a}}?status=draft&${POP}`,
    status: 200,
    equal: FULL('{{a}}'),
    check: ({ json }, { vars }) => {
      expect(json.data.id).not.toBe(vars.rowP);
      expect(json.data.seo.id).not.toBe(vars.seoP);
    },
    save: { rowD: 'data.id', seoD: 'data.seo.id', kD1: 'data.seo.keywords.0.id', kD2: 'data.seo.keywords.1.id', kD3: 'data.seo.keywords.2.id', quoteD: 'data.blocks.0.id', richD: 'data.blocks.1.id', mediaD: 'data.blocks.2.id' },
  },
  { name: 'read back the published version', path: `/api/articles/{{a}}?${POP}`, status: 200, equal: FULL('{{a}}'), check: ({ json }, { vars }) => expect(json.data.seo.id).toBe(vars.seoP) },
  {
    name: 'draft edit: seo sent with its id keeps it (absent fields untouched), keyword with id kept and updated, keyword without id created',
    method: 'PUT',
    path: `/api/articles/{{a}}?status=draft&${POP}`,
    body: { data: { seo: { id: '{{seoD}}', metaTitle: 'Full 2', keywords: [{ id: '{{kD2}}', word: 'k2b' }, { word: 'k4' }] } } },
    status: 200,
    equal: {
      data: {
        id: '{{rowD}}', documentId: '{{a}}', title: 'Full',
        seo: { id: '{{seoD}}', metaTitle: 'Full 2', metaDescription: 'Everything', shareImage: file('img1', 'one.png'), keywords: [{ id: '{{kD2}}', word: 'k2b' }, { id: ID, word: 'k4' }] },
        blocks: [
          { ...FULL_BLOCKS[0], id: '{{quoteD}}' },
          { ...FULL_BLOCKS[1], id: '{{richD}}' },
          { ...FULL_BLOCKS[2], id: '{{mediaD}}' },
        ],
      },
      meta: {},
    },
    check: ({ json }, { vars }) => expect([vars.kD1, vars.kD2, vars.kD3]).not.toContain(json.data.seo.keywords[1].id),
    save: { kD4: 'data.seo.keywords.1.id' },
  },
  db('the unlisted keywords are deleted; the seo links exactly the two kept ones', async ({ vars, server }) => {
    expect(await count(server, 'components_shared_keywords', `id in (${Number(vars.kD1)}, ${Number(vars.kD3)})`)).toBe(0);
    const links = await query(server, `select cmp_id from components_shared_seos_cmps where entity_id = ${Number(vars.seoD)}`);
    expect(links.map((r) => Number(r.cmp_id)).sort((x, y) => x - y)).toEqual([Number(vars.kD2), Number(vars.kD4)].sort((x, y) => x - y));
  }),
  expectCounts('no orphan rows after the keyword edit', 'base', {
    components_shared_seos: 2, components_shared_keywords: 5, components_shared_quotes: 2, components_shared_rich_texts: 2, components_shared_media_blocks: 2,
    articles_cmps: 8, components_shared_seos_cmps: 5, components_shared_quotes_author_lnk: 2, files_related_mph: 4,
  }),
  { name: 'the published version is untouched by the draft edit', path: `/api/articles/{{a}}?${POP}`, status: 200, equal: FULL('{{a}}') },
  {
    name: 'draft edit of the dynamic zone: items with id kept (reordered, other fields untouched), new item created, unlisted item deleted',
    method: 'PUT',
    path: `/api/articles/{{a}}?status=draft&fields[0]=title&populate[blocks][populate]=*&populate[seo][fields][0]=metaTitle`,
    body: { data: { blocks: [{ __component: 'shared.rich-text', id: '{{richD}}', body: 'R2' }, { __component: 'shared.quote', id: '{{quoteD}}', title: 'Q2' }, { __component: 'shared.rich-text', body: 'R3' }] } },
    status: 200,
    equal: {
      data: {
        id: '{{rowD}}', documentId: '{{a}}', title: 'Full',
        seo: { id: '{{seoD}}', metaTitle: 'Full 2' },
        blocks: [
          { __component: 'shared.rich-text', id: '{{richD}}', body: 'R2' },
          { __component: 'shared.quote', id: '{{quoteD}}', title: 'Q2', body: 'B', author: author('ada', 'Ada Lovelace') },
          { __component: 'shared.rich-text', id: ID, body: 'R3' },
        ],
      },
      meta: {},
    },
    check: ({ json }, { vars }) => expect([vars.richD, vars.quoteD, vars.mediaD]).not.toContain(json.data.blocks[2].id),
  },
  db('the unlisted media block and its file link are gone; the draft row links three blocks', async ({ vars, server }) => {
    expect(await count(server, 'components_shared_media_blocks', `id = ${Number(vars.mediaD)}`)).toBe(0);
    expect(await count(server, 'files_related_mph', `related_type = 'shared.media-block' and related_id = ${Number(vars.mediaD)}`)).toBe(0);
    expect(await count(server, 'articles_cmps', `entity_id = ${Number(vars.rowD)} and field = 'blocks'`)).toBe(3);
    expect(await count(server, 'articles_cmps', `entity_id = ${Number(vars.rowD)} and field = 'seo'`)).toBe(1);
  }),
  {
    name: 'keywords: [] clears the repeatable component (seo kept by id)',
    method: 'PUT',
    path: `/api/articles/{{a}}?status=draft&fields[0]=title&populate[seo][populate]=*`,
    body: { data: { seo: { id: '{{seoD}}', metaTitle: 'Full 3', keywords: [] } } },
    status: 200,
    equal: { data: { id: '{{rowD}}', documentId: '{{a}}', title: 'Full', seo: { id: '{{seoD}}', metaTitle: 'Full 3', metaDescription: 'Everything', shareImage: file('img1', 'one.png'), keywords: [] } }, meta: {} },
  },
  db('the cleared keywords and their links are gone', async ({ vars, server }) => {
    expect(await count(server, 'components_shared_keywords', `id in (${Number(vars.kD2)}, ${Number(vars.kD4)})`)).toBe(0);
    expect(await count(server, 'components_shared_seos_cmps', `entity_id = ${Number(vars.seoD)}`)).toBe(0);
  }),
  {
    name: 'an absent key is untouched',
    method: 'PUT',
    path: `/api/articles/{{a}}?status=draft&fields[0]=title&populate[seo][fields][0]=metaTitle&populate[blocks]=true`,
    body: { data: { title: 'Full renamed' } },
    status: 200,
    equal: {
      data: {
        id: '{{rowD}}', documentId: '{{a}}', title: 'Full renamed',
        seo: { id: '{{seoD}}', metaTitle: 'Full 3' },
        blocks: [{ __component: 'shared.rich-text', id: '{{richD}}', body: 'R2' }, { __component: 'shared.quote', id: '{{quoteD}}', title: 'Q2', body: 'B' }, { __component: 'shared.rich-text', id: ID, body: 'R3' }],
      },
      meta: {},
    },
  },
  { name: 'seo: null clears the component', method: 'PUT', path: '/api/articles/{{a}}?status=draft&fields[0]=title&populate=seo', body: { data: { seo: null } }, status: 200, equal: { data: { id: '{{rowD}}', documentId: '{{a}}', title: 'Full renamed', seo: null }, meta: {} } },
  db('the cleared seo row, its link and its media link are gone', async ({ vars, server }) => {
    expect(await count(server, 'components_shared_seos', `id = ${Number(vars.seoD)}`)).toBe(0);
    expect(await count(server, 'articles_cmps', `entity_id = ${Number(vars.rowD)} and field = 'seo'`)).toBe(0);
    expect(await count(server, 'files_related_mph', `related_type = 'shared.seo' and related_id = ${Number(vars.seoD)}`)).toBe(0);
  }),
  { name: 'blocks: [] clears the dynamic zone', method: 'PUT', path: '/api/articles/{{a}}?status=draft&fields[0]=title&populate=blocks', body: { data: { blocks: [] } }, status: 200, equal: { data: { id: '{{rowD}}', documentId: '{{a}}', title: 'Full renamed', blocks: [] }, meta: {} } },
  db('the cleared blocks, their links and the quote author link are gone', async ({ vars, server }) => {
    expect(await count(server, 'articles_cmps', `entity_id = ${Number(vars.rowD)}`)).toBe(0);
    expect(await count(server, 'components_shared_quotes', `id = ${Number(vars.quoteD)}`)).toBe(0);
    expect(await count(server, 'components_shared_rich_texts', `id = ${Number(vars.richD)}`)).toBe(0);
    expect(await count(server, 'components_shared_quotes_author_lnk', `quote_id = ${Number(vars.quoteD)}`)).toBe(0);
  }),
  {
    name: 'publish the emptied draft',
    method: 'PUT',
    path: `/api/articles/{{a}}?${POP}`,
    body: { data: {} },
    status: 200,
    equal: { data: { id: ID, documentId: '{{a}}', title: 'Full renamed', seo: null, blocks: [] }, meta: {} },
  },
  expectCounts('the old published components were removed too: every count is back to where it started', 'base', {}),
]);

// ---------------------------------------------------------------------------------------------
// 3. A component id that does not belong to this document / attribute.
// ---------------------------------------------------------------------------------------------

const notRelated = (attribute: string) => ({ data: null, error: { status: 400, message: NOT_RELATED(attribute) } });
const A_DRAFT = {
  data: {
    id: '{{aRowD}}', documentId: '{{a}}', title: 'A',
    seo: { id: '{{aSeoD}}', metaTitle: 'A seo', metaDescription: null, keywords: [{ id: '{{aKwD}}', word: 'a1' }] },
    blocks: [{ __component: 'shared.rich-text', id: '{{aRichD}}', body: 'RA' }],
  },
  meta: {},
};
const A_PUBLISHED = {
  data: {
    id: '{{aRowP}}', documentId: '{{a}}', title: 'A',
    seo: { id: '{{aSeoP}}', metaTitle: 'A seo', metaDescription: null, keywords: [{ id: '{{aKwP}}', word: 'a1' }] },
    blocks: [{ __component: 'shared.rich-text', id: '{{aRichP}}', body: 'RA' }],
  },
  meta: {},
};
const POP_AB = 'fields[0]=title&populate[seo][populate][0]=keywords&populate[blocks]=true';

scenario('a component id that is not this document\'s is refused and changes nothing', [
  { name: 'create article A', method: 'POST', path: `/api/articles?${POP_AB}`, body: { data: { title: 'A', seo: { metaTitle: 'A seo', keywords: [{ word: 'a1' }] }, blocks: [{ __component: 'shared.rich-text', body: 'RA' }] } }, status: 201, save: { a: 'data.documentId', aRowP: 'data.id', aSeoP: 'data.seo.id', aKwP: 'data.seo.keywords.0.id', aRichP: 'data.blocks.0.id' } },
  { name: 'read A\'s draft', path: `/api/articles/{{a}}?status=draft&${POP_AB}`, status: 200, save: { aRowD: 'data.id', aSeoD: 'data.seo.id', aKwD: 'data.seo.keywords.0.id', aRichD: 'data.blocks.0.id' } },
  { name: 'create article B', method: 'POST', path: `/api/articles?${POP_AB}`, body: { data: { title: 'B', seo: { metaTitle: 'B seo', keywords: [{ word: 'b1' }] }, blocks: [{ __component: 'shared.rich-text', body: 'RB' }] } }, status: 201, save: { b: 'data.documentId' } },
  { name: 'read B\'s draft', path: `/api/articles/{{b}}?status=draft&${POP_AB}`, status: 200, save: { bSeoD: 'data.seo.id', bKwD: 'data.seo.keywords.0.id', bRichD: 'data.blocks.0.id' } },
  { name: 'the published and draft versions of A have different component ids', path: `/api/articles/{{a}}?${POP_AB}`, status: 200, equal: A_PUBLISHED, check: (_r, { vars }) => expect(vars.aSeoP).not.toBe(vars.aSeoD) },
  saveCounts('count rows', 'before'),
  { name: 'another document\'s seo id (publishing PUT)', method: 'PUT', path: '/api/articles/{{a}}', body: { data: { title: 'A hijacked', seo: { id: '{{bSeoD}}', metaTitle: 'hijack' } } }, status: 400, match: notRelated('seo') },
  { name: 'another document\'s seo id (draft PUT)', method: 'PUT', path: '/api/articles/{{a}}?status=draft', body: { data: { seo: { id: '{{bSeoD}}', metaTitle: 'hijack' } } }, status: 400, match: notRelated('seo') },
  { name: 'the published version\'s own seo id, on a draft write', method: 'PUT', path: '/api/articles/{{a}}?status=draft', body: { data: { seo: { id: '{{aSeoP}}', metaTitle: 'wrong version' } } }, status: 400, match: notRelated('seo') },
  {
    name: 'another document\'s keyword id inside this document\'s seo',
    method: 'PUT',
    path: '/api/articles/{{a}}?status=draft',
    body: { data: { seo: { id: '{{aSeoD}}', metaTitle: 'A seo', keywords: [{ id: '{{bKwD}}', word: 'stolen' }] } } },
    status: 400,
    match: notRelated('keywords'),
  },
  { name: 'another document\'s dynamic-zone item id', method: 'PUT', path: '/api/articles/{{a}}?status=draft', body: { data: { blocks: [{ __component: 'shared.rich-text', id: '{{bRichD}}', body: 'stolen' }] } }, status: 400, match: notRelated('blocks') },
  { name: 'this document\'s dynamic-zone item id under another component type', method: 'PUT', path: '/api/articles/{{a}}?status=draft', body: { data: { blocks: [{ __component: 'shared.quote', id: '{{aRichD}}', title: 'retyped' }] } }, status: 400, match: notRelated('blocks') },
  { name: 'A\'s draft is unchanged', path: `/api/articles/{{a}}?status=draft&${POP_AB}`, status: 200, equal: A_DRAFT },
  { name: 'A\'s published version is unchanged', path: `/api/articles/{{a}}?${POP_AB}`, status: 200, equal: A_PUBLISHED },
  {
    name: 'B is unchanged',
    path: `/api/articles/{{b}}?status=draft&${POP_AB}`,
    status: 200,
    equal: { data: { id: ID, documentId: '{{b}}', title: 'B', seo: { id: '{{bSeoD}}', metaTitle: 'B seo', metaDescription: null, keywords: [{ id: '{{bKwD}}', word: 'b1' }] }, blocks: [{ __component: 'shared.rich-text', id: '{{bRichD}}', body: 'RB' }] }, meta: {} },
  },
  expectCounts('no row was added or removed by the refused writes', 'before', {}),
  {
    name: 'ids sent on create are ignored: new components are made, B keeps its own',
    method: 'POST',
    path: `/api/articles?status=draft&${POP_AB}`,
    body: { data: { title: 'C', seo: { id: '{{bSeoD}}', metaTitle: 'C seo', keywords: [{ id: '{{bKwD}}', word: 'c1' }] }, blocks: [{ __component: 'shared.rich-text', id: '{{bRichD}}', body: 'RC' }] } },
    status: 201,
    check: ({ json }, { vars }) => {
      expect(json.data.seo).toMatchObject({ metaTitle: 'C seo', keywords: [{ word: 'c1' }] });
      expect(json.data.seo.id).not.toBe(vars.bSeoD);
      expect(json.data.seo.keywords[0].id).not.toBe(vars.bKwD);
      expect(json.data.blocks[0].id).not.toBe(vars.bRichD);
    },
  },
  {
    name: 'ids inside a replaced (id-less) component are ignored too',
    method: 'PUT',
    path: `/api/articles/{{a}}?status=draft&${POP_AB}`,
    body: { data: { seo: { metaTitle: 'A fresh seo', keywords: [{ id: '{{bKwD}}', word: 'fresh' }] } } },
    status: 200,
    check: ({ json }, { vars }) => {
      expect(json.data.seo).toMatchObject({ metaTitle: 'A fresh seo', keywords: [{ word: 'fresh' }] });
      expect(json.data.seo.keywords[0].id).not.toBe(vars.bKwD);
    },
  },
  {
    name: 'B is still unchanged',
    path: `/api/articles/{{b}}?status=draft&${POP_AB}`,
    status: 200,
    equal: { data: { id: ID, documentId: '{{b}}', title: 'B', seo: { id: '{{bSeoD}}', metaTitle: 'B seo', metaDescription: null, keywords: [{ id: '{{bKwD}}', word: 'b1' }] }, blocks: [{ __component: 'shared.rich-text', id: '{{bRichD}}', body: 'RB' }] }, meta: {} },
  },
]);

// ---------------------------------------------------------------------------------------------
// 4. Validation of component and dynamic-zone payloads (exact envelopes where recorded).
// ---------------------------------------------------------------------------------------------

scenario('component and dynamic-zone validation answers 400 with Strapi details', [
  { name: 'seed an article', method: 'POST', path: '/api/articles?fields[0]=title', body: { data: { title: 'Valid article', seo: { metaTitle: 'Valid', keywords: [{ word: 'ok' }] } } }, status: 201, save: { a: 'data.documentId' } },
  saveCounts('count rows', 'before'),
  { name: 'required component field missing (component-missing-required)', method: 'POST', path: '/api/articles', body: { data: { title: 'bad component', seo: { metaDescription: 'no metaTitle' } } }, status: 400, equal: missingMetaTitle },
  { name: 'required component field null', method: 'POST', path: '/api/articles', body: { data: { title: 'bad component', seo: { metaTitle: null } } }, status: 400, equal: missingMetaTitle },
  { name: 'unknown key in a component (component-unknown-key)', method: 'POST', path: '/api/articles', body: { data: { title: 'bad key', seo: { metaTitle: 'ok', nope: true } } }, status: 400, equal: invalidBodyKey('nope', 'seo') },
  { name: 'unknown key in a repeatable item (repeatable-component-item-invalid)', method: 'POST', path: '/api/articles', body: { data: { title: 'bad keyword', seo: { metaTitle: 'ok', keywords: [{ word: 'fine' }, { word: 42, extra: 1 }] } } }, status: 400, equal: invalidBodyKey('extra', 'seo.keywords') },
  { name: 'unknown key in a dynamic-zone item', method: 'POST', path: '/api/articles', body: { data: { title: 'bad block', blocks: [{ __component: 'shared.rich-text', body: 'x' }, { __component: 'shared.quote', nope: 1 }] } }, status: 400, equal: invalidBodyKey('nope', 'blocks') },
  { name: 'nested type error in a repeatable item', method: 'POST', path: '/api/articles', body: { data: { title: 'nested', seo: { metaTitle: 'm', keywords: [{ word: 123 }] } } }, status: 400, equal: oneError(['seo', 'keywords', '0', 'word'], 'seo.keywords[0].word must be a `string` type, but the final value was: `123`.', 123) },
  { name: 'nested type error on update', method: 'PUT', path: '/api/articles/{{a}}', body: { data: { seo: { metaTitle: 'm', keywords: [{ word: 'ok' }, { word: 123 }] } } }, status: 400, equal: oneError(['seo', 'keywords', '1', 'word'], 'seo.keywords[1].word must be a `string` type, but the final value was: `123`.', 123) },
  { name: 'type error in a component field', method: 'POST', path: '/api/articles', body: { data: { title: 'typed', seo: { metaTitle: 12345 } } }, status: 400, equal: oneError(['seo', 'metaTitle'], 'seo.metaTitle must be a `string` type, but the final value was: `12345`.', 12345) },
  { name: 'type error in a dynamic-zone item', method: 'POST', path: '/api/articles', body: { data: { title: 'typed', blocks: [{ __component: 'shared.quote', title: 77 }] } }, status: 400, equal: oneError(['blocks', '0', 'title'], 'blocks[0].title must be a `string` type, but the final value was: `77`.', 77) },
  { name: 'single component given an array', method: 'POST', path: '/api/articles', body: { data: { title: 'bad', seo: [{ metaTitle: 'x' }] } }, status: 400, equal: typeError(['seo'], [{ metaTitle: 'x' }]) },
  { name: 'repeatable component given an object', method: 'POST', path: '/api/articles', body: { data: { title: 'bad', seo: { metaTitle: 'x', keywords: { word: 'solo' } } } }, status: 400, equal: typeError(['seo', 'keywords'], { word: 'solo' }) },
  { name: 'dynamic zone given an object', method: 'POST', path: '/api/articles', body: { data: { title: 'bad', blocks: { __component: 'shared.quote', title: 'x' } } }, status: 400, equal: typeError(['blocks'], { __component: 'shared.quote', title: 'x' }) },
  {
    name: 'dynamic-zone item without __component (dz-missing-component-key)',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'bad dz 2', blocks: [{ title: 'no type' }] } },
    status: 400,
    match: { data: null, error: { status: 400, name: 'ValidationError', details: { errors: expect.arrayContaining([{ path: ['blocks', '0', '__component'], message: 'blocks[0].__component is a required field', name: 'ValidationError' }]) } } },
  },
  {
    name: 'dynamic-zone item with an unknown __component (dz-unknown-component)',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'bad dz', blocks: [{ __component: 'shared.nope', x: 1 }] } },
    status: 400,
    match: {
      data: null,
      error: { status: 400, name: 'ValidationError', details: { errors: expect.arrayContaining([{ path: ['blocks', '0', '__component'], value: 'shared.nope', name: 'ValidationError', message: expect.stringMatching(/^blocks\[0\]\.__component must be one of the following values: /) }]) } },
    },
  },
  {
    name: 'several problems at once are all reported',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 12345, seo: { metaTitle: 'ok', keywords: [{ word: 123 }, { word: 'fine' }, { word: 456 }] } } },
    status: 400,
    check: ({ json }) => {
      expect(json.error).toMatchObject({ status: 400, name: 'ValidationError', message: '3 errors occurred' });
      expect(json.error.details.errors).toHaveLength(3);
      expect(json.error.details.errors).toEqual(expect.arrayContaining([
        { path: ['title'], name: 'ValidationError', value: 12345, message: 'title must be a `string` type, but the final value was: `12345`.' },
        { path: ['seo', 'keywords', '0', 'word'], name: 'ValidationError', value: 123, message: 'seo.keywords[0].word must be a `string` type, but the final value was: `123`.' },
        { path: ['seo', 'keywords', '2', 'word'], name: 'ValidationError', value: 456, message: 'seo.keywords[2].word must be a `string` type, but the final value was: `456`.' },
      ]));
    },
  },
  {
    name: 'an unknown author in a dynamic-zone quote',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'bad', blocks: [{ __component: 'shared.quote', author: 'nosuchauthor000000000000' }] } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Document with id "nosuchauthor000000000000", locale "null" not found', {}),
  },
  expectCounts('failed writes left no component rows behind', 'before', {}),
  { name: 'the seeded article is unchanged', path: '/api/articles/{{a}}?fields[0]=title&populate[seo][populate][0]=keywords', status: 200, equal: { data: { id: ID, documentId: '{{a}}', title: 'Valid article', seo: { id: ID, metaTitle: 'Valid', metaDescription: null, keywords: [{ id: ID, word: 'ok' }] } }, meta: {} } },
  {
    name: 'a draft may miss a required component field',
    method: 'POST',
    path: '/api/articles?status=draft&fields[0]=title&populate=seo',
    body: { data: { title: 'Draft seo', seo: { metaDescription: 'no title yet' } } },
    status: 201,
    equal: { data: { id: ID, documentId: DOC, title: 'Draft seo', seo: { id: ID, metaTitle: null, metaDescription: 'no title yet' } }, meta: {} },
    save: { d: 'data.documentId' },
  },
  { name: 'publishing that draft fails with the same error', method: 'PUT', path: '/api/articles/{{d}}', body: { data: {} }, status: 400, equal: missingMetaTitle },
  { name: 'the draft was not published', path: '/api/articles/{{d}}', status: 404 },
  { name: 'fixing the field publishes it', method: 'PUT', path: '/api/articles/{{d}}?fields[0]=title&populate=seo', body: { data: { seo: { metaTitle: 'Now titled' } } }, status: 200, equal: { data: { id: ID, documentId: '{{d}}', title: 'Draft seo', seo: { id: ID, metaTitle: 'Now titled', metaDescription: null } }, meta: {} } },
  {
    name: 'no partial document was left behind',
    path: '/api/articles?status=draft&fields[0]=title&sort=title',
    status: 200,
    check: ({ json }) => expect(json.data.map((a: { title: string }) => a.title)).toEqual(['Draft seo', 'Valid article']),
  },
]);

// ---------------------------------------------------------------------------------------------
// 5. Media attributes: forms, order, clearing, unknown ids, media inside components, cleanup.
// ---------------------------------------------------------------------------------------------

const MEDIA_POP = 'fields[0]=title&populate[cover][fields][0]=name&populate[gallery][fields][0]=name';
const named = (idVar: string, name: string) => ({ id: `{{${idVar}}}`, documentId: DOC, name });
const withMedia = (cover: unknown, gallery: unknown[]) => ({ data: { id: ID, documentId: '{{m}}', title: 'With media', cover, gallery }, meta: {} });

scenario('media attributes: ids in every form, order kept, clearing, unknown ids, cleanup on delete', [
  db('seed three files', async ({ vars, server }) => {
    vars.g1 = await insertFile(server, 'g1.png');
    vars.g2 = await insertFile(server, 'g2.png');
    vars.g3 = await insertFile(server, 'g3.png');
    vars.base = await counts(server);
  }),
  {
    name: 'create with a cover id and gallery ids (order kept)',
    method: 'POST',
    path: `/api/articles?${MEDIA_POP}`,
    body: { data: { title: 'With media', cover: '{{g1}}', gallery: ['{{g3}}', '{{g1}}', '{{g2}}'] } },
    status: 201,
    equal: { data: { id: ID, documentId: DOC, title: 'With media', cover: named('g1', 'g1.png'), gallery: [named('g3', 'g3.png'), named('g1', 'g1.png'), named('g2', 'g2.png')] }, meta: {} },
    save: { m: 'data.documentId' },
  },
  { name: 'full populated file shape', path: '/api/articles/{{m}}?fields[0]=title&populate[0]=cover', status: 200, equal: { data: { id: ID, documentId: '{{m}}', title: 'With media', cover: file('g1', 'g1.png') }, meta: {} } },
  { name: 'the draft carries the same media', path: `/api/articles/{{m}}?status=draft&${MEDIA_POP}`, status: 200, equal: withMedia(named('g1', 'g1.png'), [named('g3', 'g3.png'), named('g1', 'g1.png'), named('g2', 'g2.png')]) },
  expectCounts('one link per file per version', 'base', { files_related_mph: 8 }),
  { name: 'cover as [id], gallery as [{id}] (gallery-reorder)', method: 'PUT', path: `/api/articles/{{m}}?${MEDIA_POP}`, body: { data: { cover: ['{{g2}}'], gallery: [{ id: '{{g2}}' }, { id: '{{g3}}' }] } }, status: 200, equal: withMedia(named('g2', 'g2.png'), [named('g2', 'g2.png'), named('g3', 'g3.png')]) },
  { name: 'cover as {id} (cover-replace)', method: 'PUT', path: `/api/articles/{{m}}?${MEDIA_POP}`, body: { data: { cover: { id: '{{g3}}' } } }, status: 200, equal: withMedia(named('g3', 'g3.png'), [named('g2', 'g2.png'), named('g3', 'g3.png')]) },
  { name: 'gallery reordered by ids', method: 'PUT', path: `/api/articles/{{m}}?${MEDIA_POP}`, body: { data: { gallery: ['{{g3}}', '{{g1}}', '{{g2}}'] } }, status: 200, equal: withMedia(named('g3', 'g3.png'), [named('g3', 'g3.png'), named('g1', 'g1.png'), named('g2', 'g2.png')]) },
  { name: 'an unknown cover id (media-unknown-id-400)', method: 'PUT', path: '/api/articles/{{m}}', body: { data: { cover: 999999 } }, status: 400, match: { data: null, error: { status: 400, name: 'ValidationError', message: MEDIA_MISSING } } },
  { name: 'an unknown id among known gallery ids', method: 'PUT', path: '/api/articles/{{m}}', body: { data: { gallery: ['{{g1}}', 999999] } }, status: 400, match: { data: null, error: { status: 400, name: 'ValidationError', message: MEDIA_MISSING } } },
  { name: 'an unknown file on create', method: 'POST', path: '/api/articles', body: { data: { title: 'bad media', gallery: [999998] } }, status: 400, match: { data: null, error: { status: 400, name: 'ValidationError', message: MEDIA_MISSING } } },
  { name: 'the failed writes changed nothing', path: `/api/articles/{{m}}?${MEDIA_POP}`, status: 200, equal: withMedia(named('g3', 'g3.png'), [named('g3', 'g3.png'), named('g1', 'g1.png'), named('g2', 'g2.png')]) },
  { name: 'cover: null and gallery: [] clear', method: 'PUT', path: `/api/articles/{{m}}?${MEDIA_POP}`, body: { data: { cover: null, gallery: [] } }, status: 200, equal: withMedia(null, []) },
  expectCounts('no media links are left for the article', 'base', {}),
  {
    name: 'media inside components (seo.shareImage, media-block.file)',
    method: 'PUT',
    path: '/api/articles/{{m}}?fields[0]=title&populate[seo][populate][shareImage][fields][0]=name&populate[blocks][on][shared.media-block][populate][file][fields][0]=name',
    body: { data: { cover: '{{g1}}', seo: { metaTitle: 'Media seo', shareImage: '{{g2}}' }, blocks: [{ __component: 'shared.media-block', file: '{{g3}}' }, { __component: 'shared.media-block' }] } },
    status: 200,
    equal: {
      data: {
        id: ID, documentId: '{{m}}', title: 'With media',
        seo: { id: ID, metaTitle: 'Media seo', metaDescription: null, shareImage: named('g2', 'g2.png') },
        blocks: [{ __component: 'shared.media-block', id: ID, file: named('g3', 'g3.png') }, { __component: 'shared.media-block', id: ID, file: null }],
      },
      meta: {},
    },
  },
  {
    name: 'media inside components on the draft too',
    path: '/api/articles/{{m}}?status=draft&fields[0]=title&populate[seo][populate]=*&populate[blocks][populate]=*',
    status: 200,
    equal: {
      data: {
        id: ID, documentId: '{{m}}', title: 'With media',
        seo: { id: ID, metaTitle: 'Media seo', metaDescription: null, keywords: [], shareImage: file('g2', 'g2.png') },
        blocks: [{ __component: 'shared.media-block', id: ID, file: file('g3', 'g3.png') }, { __component: 'shared.media-block', id: ID, file: null }],
      },
      meta: {},
    },
  },
  expectCounts('cover, shareImage and the media-block file are linked once per version', 'base', {
    files_related_mph: 6, components_shared_seos: 2, components_shared_media_blocks: 4, articles_cmps: 6,
  }),
  { name: 'delete the article', method: 'DELETE', path: '/api/articles/{{m}}', status: 204 },
  expectCounts('no media link, component row or component link is left; the files remain', 'base', {}),
  db('the files themselves were not deleted', async ({ vars, server }) => {
    expect(await count(server, 'files', `id in (${Number(vars.g1)}, ${Number(vars.g2)}, ${Number(vars.g3)})`)).toBe(3);
  }),
]);

// ---------------------------------------------------------------------------------------------
// 6. Publishing copies components; DELETE removes every component row of both versions.
// ---------------------------------------------------------------------------------------------

const PUB_POP = 'fields[0]=title&populate[seo][populate]=*&populate[blocks][populate]=*&populate[cover][fields][0]=name';
const PUBLISHED_V1 = {
  data: {
    id: ID, documentId: '{{p}}', title: 'Versioned', cover: named('img', 'pub.png'),
    seo: { id: ID, metaTitle: 'Pub', metaDescription: null, shareImage: file('img', 'pub.png'), keywords: [{ id: ID, word: 'p1' }] },
    blocks: [{ __component: 'shared.quote', id: ID, title: 'PQ', body: null, author: author('grace', 'Grace Hopper') }, { __component: 'shared.media-block', id: ID, file: file('img', 'pub.png') }],
  },
  meta: {},
};
const DRAFT_V2 = {
  data: {
    id: ID, documentId: '{{p}}', title: 'Versioned', cover: named('img', 'pub.png'),
    seo: { id: ID, metaTitle: 'Draft', metaDescription: null, shareImage: null, keywords: [{ id: ID, word: 'd1' }, { id: ID, word: 'd2' }] },
    blocks: [{ __component: 'shared.rich-text', id: ID, body: 'DR' }],
  },
  meta: {},
};

scenario('publishing copies components; a draft edit leaves the published components alone; DELETE removes all', [
  { name: 'seed an author', method: 'POST', path: '/api/authors', body: { data: { name: 'Grace Hopper' } }, status: 201, save: { grace: 'data.documentId' } },
  db('seed a file and count rows', async ({ vars, server }) => {
    vars.img = await insertFile(server, 'pub.png');
    vars.base = await counts(server);
  }),
  {
    name: 'create and publish',
    method: 'POST',
    path: `/api/articles?${PUB_POP}`,
    body: { data: { title: 'Versioned', cover: '{{img}}', seo: { metaTitle: 'Pub', keywords: [{ word: 'p1' }], shareImage: '{{img}}' }, blocks: [{ __component: 'shared.quote', title: 'PQ', author: '{{grace}}' }, { __component: 'shared.media-block', file: '{{img}}' }] } },
    status: 201,
    equal: { ...PUBLISHED_V1, data: { ...PUBLISHED_V1.data, documentId: DOC } },
    save: { p: 'data.documentId' },
  },
  {
    name: 'edit the draft only',
    method: 'PUT',
    path: `/api/articles/{{p}}?status=draft&${PUB_POP}`,
    body: { data: { seo: { metaTitle: 'Draft', keywords: [{ word: 'd1' }, { word: 'd2' }] }, blocks: [{ __component: 'shared.rich-text', body: 'DR' }] } },
    status: 200,
    equal: DRAFT_V2,
  },
  { name: 'the published version keeps the old component values', path: `/api/articles/{{p}}?${PUB_POP}`, status: 200, equal: PUBLISHED_V1 },
  { name: 'the draft has the new ones', path: `/api/articles/{{p}}?status=draft&${PUB_POP}`, status: 200, equal: DRAFT_V2 },
  {
    name: 'lists show each version\'s component',
    path: '/api/articles?fields[0]=title&populate[seo][fields][0]=metaTitle',
    status: 200,
    equal: { data: [{ id: ID, documentId: '{{p}}', title: 'Versioned', seo: { id: ID, metaTitle: 'Pub' } }], meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } } },
  },
  expectCounts('both versions hold their own rows', 'base', {
    components_shared_seos: 2, components_shared_keywords: 3, components_shared_quotes: 1, components_shared_media_blocks: 1, components_shared_rich_texts: 1,
    articles_cmps: 5, components_shared_seos_cmps: 3, components_shared_quotes_author_lnk: 1, files_related_mph: 4,
  }),
  { name: 'publish the draft', method: 'PUT', path: `/api/articles/{{p}}?${PUB_POP}`, body: { data: {} }, status: 200, equal: DRAFT_V2 },
  { name: 'the published version now has the new values', path: `/api/articles/{{p}}?${PUB_POP}`, status: 200, equal: DRAFT_V2 },
  expectCounts('the old published components are gone, the new ones copied', 'base', {
    components_shared_seos: 2, components_shared_keywords: 4, components_shared_rich_texts: 2, articles_cmps: 4, components_shared_seos_cmps: 4, files_related_mph: 2,
  }),
  { name: 'delete the document', method: 'DELETE', path: '/api/articles/{{p}}', status: 204 },
  expectCounts('every component row, link and media link of both versions is gone', 'base', {}),
  { name: 'the published version is gone', path: '/api/articles/{{p}}', status: 404 },
  { name: 'the draft is gone', path: '/api/articles/{{p}}?status=draft', status: 404 },
]);

// ---------------------------------------------------------------------------------------------
// 7. The single type `global` (no draft & publish): defaultSeo created, updated, ids stable.
// ---------------------------------------------------------------------------------------------

const GLOBAL = (siteName: string, defaultSeo: unknown) => ({ data: { id: ID, documentId: '{{g}}', siteName, createdAt: TS, updatedAt: TS, publishedAt: TS, defaultSeo }, meta: {} });

scenario('single type without draft & publish: defaultSeo created and updated, component ids stable', [
  db('seed a file and count rows', async ({ vars, server }) => {
    vars.img = await insertFile(server, 'site.png');
    vars.base = await counts(server);
  }),
  {
    name: 'PUT creates the single type with its component (global-component-create)',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate]=*',
    body: { data: { siteName: 'S', defaultSeo: { metaTitle: 'G', keywords: [{ word: 'k1' }], shareImage: '{{img}}' } } },
    status: 200,
    equal: { data: { id: ID, documentId: DOC, siteName: 'S', createdAt: TS, updatedAt: TS, publishedAt: TS, defaultSeo: { id: ID, metaTitle: 'G', metaDescription: null, keywords: [{ id: ID, word: 'k1' }], shareImage: file('img', 'site.png') } }, meta: {} },
    save: { g: 'data.documentId', seoId: 'data.defaultSeo.id', k1: 'data.defaultSeo.keywords.0.id' },
  },
  { name: 'GET returns the same ids', path: '/api/global?populate[defaultSeo][populate]=*', status: 200, equal: GLOBAL('S', { id: '{{seoId}}', metaTitle: 'G', metaDescription: null, keywords: [{ id: '{{k1}}', word: 'k1' }], shareImage: file('img', 'site.png') }) },
  expectCounts('one row of each (no draft copy)', 'base', { components_shared_seos: 1, components_shared_keywords: 1, globals_cmps: 1, components_shared_seos_cmps: 1, files_related_mph: 1 }),
  {
    name: 'component sent back with its id: id kept, keyword id kept, new keyword created, shareImage untouched',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate]=*',
    body: { data: { defaultSeo: { id: '{{seoId}}', metaTitle: 'G2', metaDescription: 'Site wide', keywords: [{ id: '{{k1}}', word: 'k1b' }, { word: 'k2' }] } } },
    status: 200,
    equal: GLOBAL('S', { id: '{{seoId}}', metaTitle: 'G2', metaDescription: 'Site wide', keywords: [{ id: '{{k1}}', word: 'k1b' }, { id: ID, word: 'k2' }], shareImage: file('img', 'site.png') }),
    save: { k2: 'data.defaultSeo.keywords.1.id' },
  },
  {
    name: 'component with id and no keywords key keeps its keywords (put-update-component-with-id)',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate][0]=keywords',
    body: { data: { defaultSeo: { id: '{{seoId}}', metaTitle: 'Updated default' } } },
    status: 200,
    equal: GLOBAL('S', { id: '{{seoId}}', metaTitle: 'Updated default', metaDescription: 'Site wide', keywords: [{ id: '{{k1}}', word: 'k1b' }, { id: '{{k2}}', word: 'k2' }] }),
  },
  {
    name: 'another attribute alone keeps the component (put-siteName-keeps-component)',
    method: 'PUT',
    path: '/api/global?populate[0]=defaultSeo',
    body: { data: { siteName: 'Renamed site' } },
    status: 200,
    equal: GLOBAL('Renamed site', { id: '{{seoId}}', metaTitle: 'Updated default', metaDescription: 'Site wide' }),
  },
  { name: 'an article\'s component id is refused', method: 'POST', path: '/api/articles?populate=seo', body: { data: { title: 'Owner', seo: { metaTitle: 'Article seo' } } }, status: 201, save: { foreignSeo: 'data.seo.id' } },
  { name: 'sending it as defaultSeo', method: 'PUT', path: '/api/global', body: { data: { defaultSeo: { id: '{{foreignSeo}}', metaTitle: 'stolen' } } }, status: 400, match: notRelated('defaultSeo') },
  { name: 'global unchanged', path: '/api/global?populate[defaultSeo][fields][0]=metaTitle', status: 200, equal: GLOBAL('Renamed site', { id: '{{seoId}}', metaTitle: 'Updated default' }) },
  {
    name: 'component without id replaces it',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate]=*',
    body: { data: { defaultSeo: { metaTitle: 'Fresh' } } },
    status: 200,
    equal: GLOBAL('Renamed site', { id: ID, metaTitle: 'Fresh', metaDescription: null, keywords: [], shareImage: null }),
    check: ({ json }, { vars }) => expect(json.data.defaultSeo.id).not.toBe(vars.seoId),
  },
  db('the replaced component, its keywords and its media link are gone', async ({ vars, server }) => {
    expect(await count(server, 'components_shared_seos', `id = ${Number(vars.seoId)}`)).toBe(0);
    expect(await count(server, 'components_shared_keywords', `id in (${Number(vars.k1)}, ${Number(vars.k2)})`)).toBe(0);
    expect(await count(server, 'files_related_mph', `related_type = 'shared.seo' and related_id = ${Number(vars.seoId)}`)).toBe(0);
    expect(await count(server, 'globals_cmps')).toBe(1);
  }),
  { name: 'defaultSeo: null clears', method: 'PUT', path: '/api/global?populate=defaultSeo', body: { data: { defaultSeo: null } }, status: 200, equal: GLOBAL('Renamed site', null) },
  { name: 'delete the single type', method: 'DELETE', path: '/api/global', status: 204 },
  db('no global component rows remain', async ({ server }) => {
    expect(await count(server, 'globals_cmps')).toBe(0);
  }),
]);
