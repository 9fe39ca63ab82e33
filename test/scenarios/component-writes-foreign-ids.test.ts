import { expect } from 'vitest';
import { notRelated, oneError } from '../support/components.js';
import { expectCounts, saveCounts } from '../support/row-counts.js';
import { dbStep, scenario, type Step } from '../support/scenario.js';
import { ID, single } from '../support/shapes.js';

// A component id that does not belong to this document / attribute / version is refused (400)
// and changes nothing (behaviour reference §5, §7, §16); ids sent on create, or inside a replaced
// component, are ignored. One existing component listed twice in a value is refused too, before
// anything is written: Strapi's document service does not check it (components.ts updates the
// row twice); Cairn names the second occurrence rather than let the `_cmps` unique index answer.

/** A PUT of `data` on article a (`query`: '' or '?status=draft') refused because an id is not one of its `attribute` components. */
const refusedPut = (name: string, query: string, data: Record<string, unknown>, attribute: string): Step => ({
  name,
  method: 'PUT',
  path: `/api/articles/{{a}}${query}`,
  body: { data },
  status: 400,
  match: notRelated(attribute),
});
const A_DRAFT = single({
  id: '{{aRowD}}',
  documentId: '{{a}}',
  title: 'A',
  seo: { id: '{{aSeoD}}', metaTitle: 'A seo', metaDescription: null, keywords: [{ id: '{{aKwD}}', word: 'a1' }] },
  blocks: [{ __component: 'shared.rich-text', id: '{{aRichD}}', body: 'RA' }],
});
const A_PUBLISHED = single({
  id: '{{aRowP}}',
  documentId: '{{a}}',
  title: 'A',
  seo: { id: '{{aSeoP}}', metaTitle: 'A seo', metaDescription: null, keywords: [{ id: '{{aKwP}}', word: 'a1' }] },
  blocks: [{ __component: 'shared.rich-text', id: '{{aRichP}}', body: 'RA' }],
});
const B_DRAFT = single({
  id: ID,
  documentId: '{{b}}',
  title: 'B',
  seo: { id: '{{bSeoD}}', metaTitle: 'B seo', metaDescription: null, keywords: [{ id: '{{bKwD}}', word: 'b1' }] },
  blocks: [{ __component: 'shared.rich-text', id: '{{bRichD}}', body: 'RB' }],
});
/** The 400 for an existing component listed twice: `label` repeats the `uid` component `{{idVar}}` first listed at `first`. */
const repeated = (path: string[], label: string, uid: string, idVar: string, first: string) =>
  oneError(
    path,
    `${label} repeats the component ${uid} {{${idVar}}} already listed at ${first}: list each existing component once, or omit the id to create a new one`,
    `{{${idVar}}}`,
  );
const POP_AB = 'fields[0]=title&populate[seo][populate][0]=keywords&populate[blocks]=true';

scenario("a component id that is not this document's is refused and changes nothing", [
  {
    name: 'create article A',
    method: 'POST',
    path: `/api/articles?${POP_AB}`,
    body: {
      data: {
        title: 'A',
        seo: { metaTitle: 'A seo', keywords: [{ word: 'a1' }] },
        blocks: [{ __component: 'shared.rich-text', body: 'RA' }],
      },
    },
    status: 201,
    save: {
      a: 'data.documentId',
      aRowP: 'data.id',
      aSeoP: 'data.seo.id',
      aKwP: 'data.seo.keywords.0.id',
      aRichP: 'data.blocks.0.id',
    },
  },
  {
    name: "read A's draft",
    path: `/api/articles/{{a}}?status=draft&${POP_AB}`,
    status: 200,
    save: { aRowD: 'data.id', aSeoD: 'data.seo.id', aKwD: 'data.seo.keywords.0.id', aRichD: 'data.blocks.0.id' },
  },
  {
    name: 'create article B',
    method: 'POST',
    path: `/api/articles?${POP_AB}`,
    body: {
      data: {
        title: 'B',
        seo: { metaTitle: 'B seo', keywords: [{ word: 'b1' }] },
        blocks: [{ __component: 'shared.rich-text', body: 'RB' }],
      },
    },
    status: 201,
    save: { b: 'data.documentId' },
  },
  {
    name: "read B's draft",
    path: `/api/articles/{{b}}?status=draft&${POP_AB}`,
    status: 200,
    save: { bSeoD: 'data.seo.id', bKwD: 'data.seo.keywords.0.id', bRichD: 'data.blocks.0.id' },
  },
  {
    name: 'the published and draft versions of A have different component ids',
    path: `/api/articles/{{a}}?${POP_AB}`,
    status: 200,
    equal: A_PUBLISHED,
    check: (_r, { vars }) => expect(vars.aSeoP).not.toBe(vars.aSeoD),
  },
  saveCounts('count rows', 'before'),
  refusedPut(
    "another document's seo id (publishing PUT)",
    '',
    { title: 'A hijacked', seo: { id: '{{bSeoD}}', metaTitle: 'hijack' } },
    'seo',
  ),
  refusedPut(
    "another document's seo id (draft PUT)",
    '?status=draft',
    { seo: { id: '{{bSeoD}}', metaTitle: 'hijack' } },
    'seo',
  ),
  refusedPut(
    "the published version's own seo id, on a draft write",
    '?status=draft',
    { seo: { id: '{{aSeoP}}', metaTitle: 'wrong version' } },
    'seo',
  ),
  refusedPut(
    "another document's keyword id inside this document's seo",
    '?status=draft',
    { seo: { id: '{{aSeoD}}', metaTitle: 'A seo', keywords: [{ id: '{{bKwD}}', word: 'stolen' }] } },
    'keywords',
  ),
  refusedPut(
    "another document's dynamic-zone item id",
    '?status=draft',
    { blocks: [{ __component: 'shared.rich-text', id: '{{bRichD}}', body: 'stolen' }] },
    'blocks',
  ),
  refusedPut(
    "this document's dynamic-zone item id under another component type",
    '?status=draft',
    { blocks: [{ __component: 'shared.quote', id: '{{aRichD}}', title: 'retyped' }] },
    'blocks',
  ),
  dbStep('forget the statements so far', ({ server }) => server.resetQueries()),
  {
    name: 'the same dynamic-zone item id twice (publishing PUT): 400 at the second occurrence',
    method: 'PUT',
    path: '/api/articles/{{a}}',
    body: {
      data: {
        blocks: [
          { __component: 'shared.rich-text', id: '{{aRichD}}', body: 'one' },
          { __component: 'shared.rich-text', id: '{{aRichD}}', body: 'two' },
        ],
      },
    },
    status: 400,
    equal: repeated(['blocks', '1', 'id'], 'blocks[1].id', 'shared.rich-text', 'aRichD', 'blocks[0]'),
  },
  {
    name: 'the same repeatable component id twice, nested in the seo (draft PUT): 400 at the second occurrence',
    method: 'PUT',
    path: '/api/articles/{{a}}?status=draft',
    body: {
      data: {
        seo: {
          id: '{{aSeoD}}',
          metaTitle: 'A seo',
          keywords: [{ word: 'new' }, { id: '{{aKwD}}', word: 'one' }, { id: '{{aKwD}}', word: 'two' }],
        },
      },
    },
    status: 400,
    equal: repeated(['seo', 'keywords', '2', 'id'], 'seo.keywords[2].id', 'shared.keyword', 'aKwD', 'seo.keywords[1]'),
  },
  dbStep('the repeated ids were refused before any write statement', ({ server }) => {
    const writes = server.queries.filter((query) => /^\s*(insert|update|delete)\b/i.test(query.sql));
    expect(writes.map((query) => query.sql)).toEqual([]);
  }),
  { name: "A's draft is unchanged", path: `/api/articles/{{a}}?status=draft&${POP_AB}`, status: 200, equal: A_DRAFT },
  {
    name: "A's published version is unchanged",
    path: `/api/articles/{{a}}?${POP_AB}`,
    status: 200,
    equal: A_PUBLISHED,
  },
  { name: 'B is unchanged', path: `/api/articles/{{b}}?status=draft&${POP_AB}`, status: 200, equal: B_DRAFT },
  expectCounts('no row was added or removed by the refused writes', 'before', {}),
  {
    name: 'ids sent on create are ignored: new components are made, B keeps its own',
    method: 'POST',
    path: `/api/articles?status=draft&${POP_AB}`,
    body: {
      data: {
        title: 'C',
        seo: { id: '{{bSeoD}}', metaTitle: 'C seo', keywords: [{ id: '{{bKwD}}', word: 'c1' }] },
        blocks: [{ __component: 'shared.rich-text', id: '{{bRichD}}', body: 'RC' }],
      },
    },
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
  { name: 'B is still unchanged', path: `/api/articles/{{b}}?status=draft&${POP_AB}`, status: 200, equal: B_DRAFT },
]);
