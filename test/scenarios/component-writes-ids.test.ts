import { expect } from 'vitest';
import { POP_ALL, storedFile } from '../support/components.js';
import { insertFile } from '../support/files.js';
import { countAll, countRows, expectCounts, queryRows } from '../support/row-counts.js';
import { dbStep, scenario } from '../support/scenario.js';
import { authorEntry, DOC, ID, single } from '../support/shapes.js';

// Component and dynamic-zone item ids: kept when sent, created when absent, deleted when not
// listed — checked in SQL. Expectations follow recorded Strapi 5.54 sessions
// (/tmp/dump/15-components-dz-write.txt) and the behaviour reference (§5, §7, §16).

const POP = `fields[0]=title&${POP_ALL}`;
const FULL_SEO = (keywords: unknown[]) => ({
  id: ID,
  metaTitle: 'Full',
  metaDescription: 'Everything',
  shareImage: storedFile('img1', 'one.png'),
  keywords,
});
const FULL_BLOCKS = [
  { __component: 'shared.quote', id: ID, title: 'Q', body: 'B', author: authorEntry('ada', 'Ada Lovelace') },
  { __component: 'shared.rich-text', id: ID, body: 'R' },
  { __component: 'shared.media-block', id: ID, file: storedFile('img2', 'two.png') },
];
const FULL = (documentId: unknown) =>
  single({
    id: ID,
    documentId,
    title: 'Full',
    seo: FULL_SEO([
      { id: ID, word: 'k1' },
      { id: ID, word: 'k2' },
      { id: ID, word: 'k3' },
    ]),
    blocks: FULL_BLOCKS,
  });
/** The draft row of article a as answered: `title` and the populated `fields`. */
const draftA = (title: string, fields: Record<string, unknown>) =>
  single({ id: '{{rowD}}', documentId: '{{a}}', title, ...fields });

scenario('component items: ids kept, new items created, unlisted items deleted, null and [] clear', [
  {
    name: 'seed an author',
    method: 'POST',
    path: '/api/authors',
    body: { data: { name: 'Ada Lovelace' } },
    status: 201,
    save: { ada: 'data.documentId' },
  },
  dbStep('seed two files and count rows', async ({ vars, server }) => {
    vars.img1 = await insertFile(server, 'one.png');
    vars.img2 = await insertFile(server, 'two.png');
    vars.base = await countAll(server);
  }),
  {
    name: 'create with a single component, a nested repeatable one, media inside, and a dynamic zone of every component',
    method: 'POST',
    path: `/api/articles?${POP}`,
    body: {
      data: {
        title: 'Full',
        seo: {
          metaTitle: 'Full',
          metaDescription: 'Everything',
          shareImage: '{{img1}}',
          keywords: [{ word: 'k1' }, { word: 'k2' }, { word: 'k3' }],
        },
        blocks: [
          { __component: 'shared.quote', title: 'Q', body: 'B', author: '{{ada}}' },
          { __component: 'shared.rich-text', body: 'R' },
          { __component: 'shared.media-block', file: '{{img2}}' },
        ],
      },
    },
    status: 201,
    equal: FULL(DOC),
    save: { a: 'data.documentId', rowP: 'data.id', seoP: 'data.seo.id' },
  },
  expectCounts('draft and published rows each own a copy of every component, its links and its media', 'base', {
    components_shared_seos: 2,
    components_shared_keywords: 6,
    components_shared_quotes: 2,
    components_shared_rich_texts: 2,
    components_shared_media_blocks: 2,
    articles_cmps: 8,
    components_shared_seos_cmps: 6,
    components_shared_quotes_author_lnk: 2,
    files_related_mph: 4,
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
    save: {
      rowD: 'data.id',
      seoD: 'data.seo.id',
      kD1: 'data.seo.keywords.0.id',
      kD2: 'data.seo.keywords.1.id',
      kD3: 'data.seo.keywords.2.id',
      quoteD: 'data.blocks.0.id',
      richD: 'data.blocks.1.id',
      mediaD: 'data.blocks.2.id',
    },
  },
  {
    name: 'read back the published version',
    path: `/api/articles/{{a}}?${POP}`,
    status: 200,
    equal: FULL('{{a}}'),
    check: ({ json }, { vars }) => expect(json.data.seo.id).toBe(vars.seoP),
  },
  {
    name: 'draft edit: seo sent with its id keeps it (absent fields untouched), keyword with id kept and updated, keyword without id created',
    method: 'PUT',
    path: `/api/articles/{{a}}?status=draft&${POP}`,
    body: {
      data: {
        seo: { id: '{{seoD}}', metaTitle: 'Full 2', keywords: [{ id: '{{kD2}}', word: 'k2b' }, { word: 'k4' }] },
      },
    },
    status: 200,
    equal: draftA('Full', {
      seo: {
        id: '{{seoD}}',
        metaTitle: 'Full 2',
        metaDescription: 'Everything',
        shareImage: storedFile('img1', 'one.png'),
        keywords: [
          { id: '{{kD2}}', word: 'k2b' },
          { id: ID, word: 'k4' },
        ],
      },
      blocks: [
        { ...FULL_BLOCKS[0], id: '{{quoteD}}' },
        { ...FULL_BLOCKS[1], id: '{{richD}}' },
        { ...FULL_BLOCKS[2], id: '{{mediaD}}' },
      ],
    }),
    check: ({ json }, { vars }) => expect([vars.kD1, vars.kD2, vars.kD3]).not.toContain(json.data.seo.keywords[1].id),
    save: { kD4: 'data.seo.keywords.1.id' },
  },
  dbStep('the unlisted keywords are deleted; the seo links exactly the two kept ones', async ({ vars, server }) => {
    expect(
      await countRows(server, 'components_shared_keywords', `id in (${Number(vars.kD1)}, ${Number(vars.kD3)})`),
    ).toBe(0);
    const links = await queryRows(
      server,
      `select cmp_id from components_shared_seos_cmps where entity_id = ${Number(vars.seoD)}`,
    );
    expect(links.map((r) => Number(r.cmp_id)).sort((x, y) => x - y)).toEqual(
      [Number(vars.kD2), Number(vars.kD4)].sort((x, y) => x - y),
    );
  }),
  expectCounts('no orphan rows after the keyword edit', 'base', {
    components_shared_seos: 2,
    components_shared_keywords: 5,
    components_shared_quotes: 2,
    components_shared_rich_texts: 2,
    components_shared_media_blocks: 2,
    articles_cmps: 8,
    components_shared_seos_cmps: 5,
    components_shared_quotes_author_lnk: 2,
    files_related_mph: 4,
  }),
  {
    name: 'the published version is untouched by the draft edit',
    path: `/api/articles/{{a}}?${POP}`,
    status: 200,
    equal: FULL('{{a}}'),
  },
  {
    name: 'draft edit of the dynamic zone: items with id kept (reordered, other fields untouched), new item created, unlisted item deleted',
    method: 'PUT',
    path: `/api/articles/{{a}}?status=draft&fields[0]=title&populate[blocks][populate]=*&populate[seo][fields][0]=metaTitle`,
    body: {
      data: {
        blocks: [
          { __component: 'shared.rich-text', id: '{{richD}}', body: 'R2' },
          { __component: 'shared.quote', id: '{{quoteD}}', title: 'Q2' },
          { __component: 'shared.rich-text', body: 'R3' },
        ],
      },
    },
    status: 200,
    equal: draftA('Full', {
      seo: { id: '{{seoD}}', metaTitle: 'Full 2' },
      blocks: [
        { __component: 'shared.rich-text', id: '{{richD}}', body: 'R2' },
        {
          __component: 'shared.quote',
          id: '{{quoteD}}',
          title: 'Q2',
          body: 'B',
          author: authorEntry('ada', 'Ada Lovelace'),
        },
        { __component: 'shared.rich-text', id: ID, body: 'R3' },
      ],
    }),
    check: ({ json }, { vars }) => expect([vars.richD, vars.quoteD, vars.mediaD]).not.toContain(json.data.blocks[2].id),
  },
  dbStep(
    'the unlisted media block and its file link are gone; the draft row links three blocks',
    async ({ vars, server }) => {
      expect(await countRows(server, 'components_shared_media_blocks', `id = ${Number(vars.mediaD)}`)).toBe(0);
      expect(
        await countRows(
          server,
          'files_related_mph',
          `related_type = 'shared.media-block' and related_id = ${Number(vars.mediaD)}`,
        ),
      ).toBe(0);
      expect(await countRows(server, 'articles_cmps', `entity_id = ${Number(vars.rowD)} and field = 'blocks'`)).toBe(3);
      expect(await countRows(server, 'articles_cmps', `entity_id = ${Number(vars.rowD)} and field = 'seo'`)).toBe(1);
    },
  ),
  {
    name: 'keywords: [] clears the repeatable component (seo kept by id)',
    method: 'PUT',
    path: `/api/articles/{{a}}?status=draft&fields[0]=title&populate[seo][populate]=*`,
    body: { data: { seo: { id: '{{seoD}}', metaTitle: 'Full 3', keywords: [] } } },
    status: 200,
    equal: draftA('Full', {
      seo: {
        id: '{{seoD}}',
        metaTitle: 'Full 3',
        metaDescription: 'Everything',
        shareImage: storedFile('img1', 'one.png'),
        keywords: [],
      },
    }),
  },
  dbStep('the cleared keywords and their links are gone', async ({ vars, server }) => {
    expect(
      await countRows(server, 'components_shared_keywords', `id in (${Number(vars.kD2)}, ${Number(vars.kD4)})`),
    ).toBe(0);
    expect(await countRows(server, 'components_shared_seos_cmps', `entity_id = ${Number(vars.seoD)}`)).toBe(0);
  }),
  {
    name: 'an absent key is untouched',
    method: 'PUT',
    path: `/api/articles/{{a}}?status=draft&fields[0]=title&populate[seo][fields][0]=metaTitle&populate[blocks]=true`,
    body: { data: { title: 'Full renamed' } },
    status: 200,
    equal: draftA('Full renamed', {
      seo: { id: '{{seoD}}', metaTitle: 'Full 3' },
      blocks: [
        { __component: 'shared.rich-text', id: '{{richD}}', body: 'R2' },
        { __component: 'shared.quote', id: '{{quoteD}}', title: 'Q2', body: 'B' },
        { __component: 'shared.rich-text', id: ID, body: 'R3' },
      ],
    }),
  },
  {
    name: 'seo: null clears the component',
    method: 'PUT',
    path: '/api/articles/{{a}}?status=draft&fields[0]=title&populate=seo',
    body: { data: { seo: null } },
    status: 200,
    equal: draftA('Full renamed', { seo: null }),
  },
  dbStep('the cleared seo row, its link and its media link are gone', async ({ vars, server }) => {
    expect(await countRows(server, 'components_shared_seos', `id = ${Number(vars.seoD)}`)).toBe(0);
    expect(await countRows(server, 'articles_cmps', `entity_id = ${Number(vars.rowD)} and field = 'seo'`)).toBe(0);
    expect(
      await countRows(server, 'files_related_mph', `related_type = 'shared.seo' and related_id = ${Number(vars.seoD)}`),
    ).toBe(0);
  }),
  {
    name: 'blocks: [] clears the dynamic zone',
    method: 'PUT',
    path: '/api/articles/{{a}}?status=draft&fields[0]=title&populate=blocks',
    body: { data: { blocks: [] } },
    status: 200,
    equal: draftA('Full renamed', { blocks: [] }),
  },
  dbStep('the cleared blocks, their links and the quote author link are gone', async ({ vars, server }) => {
    expect(await countRows(server, 'articles_cmps', `entity_id = ${Number(vars.rowD)}`)).toBe(0);
    expect(await countRows(server, 'components_shared_quotes', `id = ${Number(vars.quoteD)}`)).toBe(0);
    expect(await countRows(server, 'components_shared_rich_texts', `id = ${Number(vars.richD)}`)).toBe(0);
    expect(await countRows(server, 'components_shared_quotes_author_lnk', `quote_id = ${Number(vars.quoteD)}`)).toBe(0);
  }),
  {
    name: 'publish the emptied draft',
    method: 'PUT',
    path: `/api/articles/{{a}}?${POP}`,
    body: { data: {} },
    status: 200,
    equal: single({ id: ID, documentId: '{{a}}', title: 'Full renamed', seo: null, blocks: [] }),
  },
  expectCounts('the old published components were removed too: every count is back to where it started', 'base', {}),
]);
