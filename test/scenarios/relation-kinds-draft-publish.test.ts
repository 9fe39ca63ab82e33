import { expect } from 'vitest';
import { createAll, relation, schemaFile, withFullAccess } from '../support/content-types.js';
import { created, documentAt, DRAFT, notFoundDocument, ref } from '../support/relations.js';
import { scenario, type Step } from '../support/scenario.js';
import type { TestServer } from '../support/test-server.js';

/*
 * Draft & publish on both sides: page.sections (manyToMany, inversedBy pages) ↔ section.pages,
 * page.lead (manyToOne one-way) → section. Draft rows link drafts, published rows link published.
 *
 * The scenario writes genuinely new content types into its project copy, as the Content-Type
 * Builder would (see content-types.ts): api::page.page at /api/pages and api::section.section at
 * /api/sections. The Public role has no permission on the new types, so every step uses the
 * full-access token.
 *
 * Expected answers follow Strapi 5 (shared/reference/strapi5-behaviour.md §5, §7, §15.2, §16, and
 * the relation rules of @strapi/database's entity manager: a bidirectional x-to-one or one-to-x
 * link is taken away from its previous holder; one-way links are not exclusive).
 */

const PAGE_UID = 'api::page.page';
const SECTION_UID = 'api::section.section';
const PAGES_AND_SECTIONS = {
  ...schemaFile({
    singularName: 'page',
    pluralName: 'pages',
    displayName: 'Page',
    draftAndPublish: true,
    attributes: {
      title: { type: 'string', required: true },
      sections: relation('manyToMany', SECTION_UID, { inversedBy: 'pages' }),
      lead: relation('manyToOne', SECTION_UID),
    },
  }),
  ...schemaFile({
    singularName: 'section',
    pluralName: 'sections',
    displayName: 'Section',
    draftAndPublish: true,
    attributes: {
      heading: { type: 'string' },
      pages: relation('manyToMany', PAGE_UID, { mappedBy: 'sections' }),
    },
  }),
};
const PAGE = 'fields[0]=title&populate[sections][fields][0]=heading';
const PAGE_LEAD = 'fields[0]=title&populate[lead][fields][0]=heading';
const SECTION = 'fields[0]=heading&populate[pages][fields][0]=title';
const HEADING = 'fields[0]=heading';
const section = (variable: string, heading: string) => ref(variable, { heading });
const page = (variable: string, title: string) => ref(variable, { title });
const pages = (variable: string) => documentAt('pages', variable);
const sections = (variable: string) => documentAt('sections', variable);

/** Every link row pairs a draft page row with a draft section row, or a published one with a published one. */
async function expectSameStatusLinks(server: TestServer): Promise<void> {
  const rows = await server.app.db.all({
    sql:
      'select case when p.published_at is null then 1 else 0 end as page_draft, case when s.published_at is null then 1 else 0 end as section_draft ' +
      'from pages_sections_lnk l join pages p on p.id = l.page_id join sections s on s.id = l.section_id',
    params: [],
  });
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(Number(row.page_draft)).toBe(Number(row.section_draft));
}
/** A step checking `expectSameStatusLinks` (its request, GET /api/pages, only has to answer 200). */
const sameStatusLinks = (name: string): Step => ({
  name,
  path: '/api/pages?pagination[pageSize]=1',
  status: 200,
  check: async (_r, { server }) => expectSameStatusLinks(server),
});

scenario(
  'relation kinds: draft & publish on both sides',
  withFullAccess([
    ...createAll('sections', 'heading', { s1: 'S1', s2: 'S2', s3: 'S3' }),
    {
      name: 'create page P (published) with sections [S1, S2] and lead S1',
      method: 'POST',
      path: `/api/pages?${PAGE}&populate[lead][fields][0]=heading`,
      body: { data: { title: 'P', sections: ['{{s1}}', '{{s2}}'], lead: '{{s1}}' } },
      status: 201,
      save: { p: 'data.documentId' },
      equal: created({ title: 'P', sections: [section('s1', 'S1'), section('s2', 'S2')], lead: section('s1', 'S1') }),
    },
    pages('p').get('the draft of P has the same links', `${DRAFT}${PAGE}`, {
      title: 'P',
      sections: [section('s1', 'S1'), section('s2', 'S2')],
    }),
    sections('s1').get('S1 lists P (published)', SECTION, { heading: 'S1', pages: [page('p', 'P')] }),
    sections('s1').get('S1 lists P (draft)', `${DRAFT}${SECTION}`, { heading: 'S1', pages: [page('p', 'P')] }),
    sameStatusLinks('draft rows link draft rows, published rows published rows'),
    pages('p').put(
      'draft edit: connect S3 at the start, disconnect S1',
      `${DRAFT}${PAGE}`,
      { sections: { connect: [{ documentId: '{{s3}}', position: { start: true } }], disconnect: ['{{s1}}'] } },
      { title: 'P', sections: [section('s3', 'S3'), section('s2', 'S2')] },
    ),
    pages('p').get('the published P is unchanged', PAGE, {
      title: 'P',
      sections: [section('s1', 'S1'), section('s2', 'S2')],
    }),
    sections('s1').get('S1 published still lists P', SECTION, { heading: 'S1', pages: [page('p', 'P')] }),
    sections('s1').get('S1 draft no longer lists P', `${DRAFT}${SECTION}`, { heading: 'S1', pages: [] }),
    sections('s3').get('S3 draft lists P', `${DRAFT}${SECTION}`, { heading: 'S3', pages: [page('p', 'P')] }),
    sections('s3').get('S3 published does not', SECTION, { heading: 'S3', pages: [] }),
    sections('s2').put(
      'draft-only edit of S2 heading',
      `${DRAFT}${HEADING}`,
      { heading: 'S2 edited' },
      { heading: 'S2 edited' },
    ),
    pages('p').get('the draft P shows the draft S2', `${DRAFT}${PAGE}`, {
      title: 'P',
      sections: [section('s3', 'S3'), section('s2', 'S2 edited')],
    }),
    pages('p').get('the published P shows the published S2', PAGE, {
      title: 'P',
      sections: [section('s1', 'S1'), section('s2', 'S2')],
    }),
    sameStatusLinks('still no link across statuses'),
    pages('p').put('publish P', PAGE, {}, { title: 'P', sections: [section('s3', 'S3'), section('s2', 'S2')] }),
    sections('s1').get('S1 published no longer lists P', SECTION, { heading: 'S1', pages: [] }),
    sections('s3').get('S3 published lists P', SECTION, { heading: 'S3', pages: [page('p', 'P')] }),
    sameStatusLinks('links still pair same statuses after the publish'),
    // the inverse side, draft only
    sections('s2').put(
      'inverse draft edit: S2.pages = []',
      `${DRAFT}${SECTION}`,
      { pages: [] },
      { heading: 'S2 edited', pages: [] },
    ),
    pages('p').get('the draft P lost S2', `${DRAFT}${PAGE}`, { title: 'P', sections: [section('s3', 'S3')] }),
    pages('p').get('the published P still has S2', PAGE, {
      title: 'P',
      sections: [section('s3', 'S3'), section('s2', 'S2')],
    }),
    sections('s1').put(
      'inverse draft edit: S1.pages connect P',
      `${DRAFT}${SECTION}`,
      { pages: { connect: ['{{p}}'] } },
      { heading: 'S1', pages: [page('p', 'P')] },
    ),
    pages('p').get('the draft P now has S3 and S1', `${DRAFT}${PAGE}`, {
      title: 'P',
      sections: [section('s3', 'S3'), section('s1', 'S1')],
    }),
    pages('p').put('publish P again', PAGE, {}, { title: 'P', sections: [section('s3', 'S3'), section('s1', 'S1')] }),
    pages('p').put(
      'reorder in the draft only',
      `${DRAFT}${PAGE}`,
      { sections: { connect: [{ documentId: '{{s1}}', position: { before: '{{s3}}' } }] } },
      { title: 'P', sections: [section('s1', 'S1'), section('s3', 'S3')] },
    ),
    pages('p').get('published order unchanged', PAGE, {
      title: 'P',
      sections: [section('s3', 'S3'), section('s1', 'S1')],
    }),
    pages('p').put(
      'publishing takes the draft order',
      PAGE,
      { title: 'P2' },
      { title: 'P2', sections: [section('s1', 'S1'), section('s3', 'S3')] },
    ),
    // manyToOne one-way between two draft & publish types
    pages('p').get('lead: published P has S1', PAGE_LEAD, { title: 'P2', lead: section('s1', 'S1') }),
    pages('p').put(
      'lead: draft edit to S2',
      `${DRAFT}${PAGE_LEAD}`,
      { lead: '{{s2}}' },
      { title: 'P2', lead: section('s2', 'S2 edited') },
    ),
    pages('p').get('lead: published P still has S1', PAGE_LEAD, { title: 'P2', lead: section('s1', 'S1') }),
    pages('p').put(
      'lead: publish takes S2 (its published version)',
      PAGE_LEAD,
      {},
      { title: 'P2', lead: section('s2', 'S2') },
    ),
    // republishing a target keeps what links to it (bidirectional: from its draft's own links,
    // in the other side's order; one-way: the links pointing at it are moved to the new row)
    sections('s3').put('republish S3 with a new heading', HEADING, { heading: 'S3 v2' }, { heading: 'S3 v2' }),
    pages('p').get('published P keeps S3, in its place', PAGE, {
      title: 'P2',
      sections: [section('s1', 'S1'), section('s3', 'S3 v2')],
    }),
    sections('s2').put('republish S2', HEADING, {}, { heading: 'S2 edited' }),
    pages('p').get('the one-way lead follows the new published S2', PAGE_LEAD, {
      title: 'P2',
      lead: section('s2', 'S2 edited'),
    }),
    sameStatusLinks('links still pair same statuses after the republishes'),
    // deleting a section
    { name: 'delete S1', method: 'DELETE', path: '/api/sections/{{s1}}', status: 204 },
    pages('p').get('published P lost S1', PAGE, { title: 'P2', sections: [section('s3', 'S3 v2')] }),
    pages('p').get('draft P lost S1', `${DRAFT}${PAGE}`, { title: 'P2', sections: [section('s3', 'S3 v2')] }),
    {
      name: 'an unknown section',
      method: 'PUT',
      path: '/api/pages/{{p}}',
      body: { data: { sections: { connect: ['{{s1}}'] } } },
      status: 400,
      equal: notFoundDocument('{{s1}}'),
    },
    // an inverse-side draft edit reaches the published rows when that side is published
    sections('s3').put(
      'inverse draft edit: S3.pages = []',
      `${DRAFT}${SECTION}`,
      { pages: [] },
      { heading: 'S3 v2', pages: [] },
    ),
    pages('p').get('the published P still has S3', PAGE, { title: 'P2', sections: [section('s3', 'S3 v2')] }),
    sections('s3').put('publish S3', SECTION, {}, { heading: 'S3 v2', pages: [] }),
    pages('p').get('the published P no longer has S3', PAGE, { title: 'P2', sections: [] }),
    // a draft-only target
    {
      name: 'a draft-only section S4',
      method: 'POST',
      path: '/api/sections?status=draft&fields[0]=heading',
      body: { data: { heading: 'S4' } },
      status: 201,
      save: { s4: 'data.documentId' },
    },
    {
      name: 'a draft page Q linking S4',
      method: 'POST',
      path: `/api/pages?status=draft&${PAGE}`,
      body: { data: { title: 'Q', sections: ['{{s4}}'] } },
      status: 201,
      save: { q: 'data.documentId' },
      equal: created({ title: 'Q', sections: [section('s4', 'S4')] }),
    },
    sections('s4').get('S4 draft lists Q', `${DRAFT}${SECTION}`, { heading: 'S4', pages: [page('q', 'Q')] }),
    pages('q').put('publishing Q: S4 has no published version to link', PAGE, {}, { title: 'Q', sections: [] }),
    pages('q').get('the draft Q keeps S4', `${DRAFT}${PAGE}`, { title: 'Q', sections: [section('s4', 'S4')] }),
    sections('s4').put(
      'publishing S4 links the published Q and S4',
      SECTION,
      {},
      { heading: 'S4', pages: [page('q', 'Q')] },
    ),
    pages('q').get('the published Q lists S4 now', PAGE, { title: 'Q', sections: [section('s4', 'S4')] }),
    sameStatusLinks('still no link across statuses at the end'),
  ]),
  { files: PAGES_AND_SECTIONS },
);
