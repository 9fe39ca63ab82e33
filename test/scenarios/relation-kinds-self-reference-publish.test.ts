import { expect } from 'vitest';
import { relation, schemaFile, withFullAccess } from '../support/content-types.js';
import { documentAt, DRAFT, nameRef, nameRefs } from '../support/relations.js';
import { scenario, type Step } from '../support/scenario.js';
import type { TestServer } from '../support/test-server.js';

/*
 * A draft & publish document related to itself, through every kind of self relation of
 * api::category.category (at /api/categories):
 *
 * - parent (manyToOne, inversedBy children) ↔ children (oneToMany, mappedBy parent);
 * - related (manyToMany, inversedBy relatedBy) ↔ relatedBy (manyToMany, mappedBy related);
 * - next (oneToOne one-way) and seeAlso (oneToMany one-way).
 *
 * A self link is one row of the owner's `_lnk` table that both sides of a bidirectional relation
 * see. Publishing copies it once: the published row links itself (published), the draft keeps
 * its own self link (shared/reference/strapi5-behaviour.md §5: draft rows link drafts, published
 * rows published ones). The Public role has no permission on the new type, so every step uses the
 * full-access token.
 */

const CATEGORY = 'api::category.category';
const CATEGORIES = schemaFile({
  singularName: 'category',
  pluralName: 'categories',
  displayName: 'Category',
  draftAndPublish: true,
  attributes: {
    name: { type: 'string' },
    parent: relation('manyToOne', CATEGORY, { inversedBy: 'children' }),
    children: relation('oneToMany', CATEGORY, { mappedBy: 'parent' }),
    related: relation('manyToMany', CATEGORY, { inversedBy: 'relatedBy' }),
    relatedBy: relation('manyToMany', CATEGORY, { mappedBy: 'related' }),
    next: relation('oneToOne', CATEGORY),
    seeAlso: relation('oneToMany', CATEGORY),
  },
});
const RELATIONS = ['parent', 'children', 'related', 'relatedBy', 'next', 'seeAlso'];
const ALL = ['fields[0]=name', ...RELATIONS.map((name) => `populate[${name}][fields][0]=name`)].join('&');
const categories = (variable: string) => documentAt('categories', variable);

/** `a` linked to itself everywhere, `b` a second related document; `name` is the name of `a`. */
const selfLinked = (name: string) => ({
  name,
  parent: { ...nameRef('a'), name },
  children: [{ ...nameRef('a'), name }],
  related: [{ ...nameRef('a'), name }, nameRef('b')],
  relatedBy: [{ ...nameRef('a'), name }],
  next: { ...nameRef('a'), name },
  seeAlso: [{ ...nameRef('a'), name }, nameRef('b')],
});

/** Checks that the answer's self links all point at the answered row itself (same row id, so same status). */
const linksItself: Step['check'] = ({ json }) => {
  const { id, parent, children, related, relatedBy, next, seeAlso } = json.data;
  for (const target of [parent, children[0], related[0], relatedBy[0], next, seeAlso[0]]) expect(target.id).toBe(id);
};

/** GET `a` (`query`): linked to itself everywhere under `expectedName`, each self link to the answered row. */
const pointsAtItself = (name: string, query: string, expectedName: string): Step => ({
  ...categories('a').get(name, query, selfLinked(expectedName)),
  check: linksItself,
});

/** PUT `data` on `a` (publishing unless `query` says draft): answered as self-linked under `expectedName`. */
const putSelfLinked = (name: string, query: string, data: Record<string, unknown>, expectedName: string): Step => ({
  ...categories('a').put(name, query, data, selfLinked(expectedName)),
  check: linksItself,
});

/** The link rows of every self relation table: none dangling, none twice, none across statuses. */
async function expectSoundLinks(server: TestServer): Promise<void> {
  const tables = [
    ['categories_parent_lnk', 'category_id', 'inv_category_id'],
    ['categories_related_lnk', 'category_id', 'inv_category_id'],
    ['categories_next_lnk', 'category_id', 'inv_category_id'],
    ['categories_see_also_lnk', 'category_id', 'inv_category_id'],
  ] as const;
  for (const [table, source, target] of tables) {
    const rows = await server.app.db.all({
      sql:
        `select l.${source} as s, l.${target} as t, case when a.published_at is null then 0 else 1 end as sp, case when b.published_at is null then 0 else 1 end as tp ` +
        `from ${table} l left join categories a on a.id = l.${source} left join categories b on b.id = l.${target}`,
      params: [],
    });
    const pairs = rows.map((row) => `${Number(row.s)}:${Number(row.t)}`);
    expect(new Set(pairs).size, table).toBe(pairs.length);
    for (const row of rows) expect(Number(row.sp), table).toBe(Number(row.tp));
    const dangling = await server.app.db.all({
      sql: `select count(*) as n from ${table} where ${source} not in (select id from categories) or ${target} not in (select id from categories)`,
      params: [],
    });
    expect(Number(dangling[0]!.n), table).toBe(0);
  }
}
const soundLinks = (name: string): Step => ({
  name,
  path: '/api/categories?pagination[pageSize]=1',
  status: 200,
  check: (_r, { server }) => expectSoundLinks(server),
});

scenario(
  'relation kinds: a draft & publish document related to itself',
  withFullAccess([
    {
      name: 'create b (published)',
      method: 'POST',
      path: '/api/categories?fields[0]=name',
      body: { data: { name: 'b' } },
      status: 201,
      save: { b: 'data.documentId' },
    },
    {
      name: 'create a as a draft',
      method: 'POST',
      path: '/api/categories?status=draft&fields[0]=name',
      body: { data: { name: 'a' } },
      status: 201,
      save: { a: 'data.documentId' },
    },
    putSelfLinked(
      'draft: a links itself through every self relation',
      `${DRAFT}${ALL}`,
      { parent: '{{a}}', related: ['{{a}}', '{{b}}'], next: '{{a}}', seeAlso: ['{{a}}', '{{b}}'] },
      'a',
    ),
    putSelfLinked('publish a: the published row links itself', ALL, {}, 'a'),
    putSelfLinked('publish again with an edit', ALL, { name: 'a2' }, 'a2'),
    pointsAtItself('the published a links its own published row', ALL, 'a2'),
    pointsAtItself('the draft a keeps its self links', `${DRAFT}${ALL}`, 'a2'),
    soundLinks('one link row per self link and status, none dangling'),
    putSelfLinked('republish: the published row changes again', ALL, { name: 'a3' }, 'a3'),
    pointsAtItself('the new published row links itself', ALL, 'a3'),
    categories('b').get('b is related from the published a', 'fields[0]=name&populate[relatedBy][fields][0]=name', {
      name: 'b',
      relatedBy: [{ ...nameRef('a'), name: 'a3' }],
    }),
    soundLinks('still one link row per self link and status after republishing'),
    categories('a').put(
      'draft: drop the self links',
      `${DRAFT}${ALL}`,
      { parent: null, related: ['{{b}}'], next: null, seeAlso: { disconnect: ['{{a}}'] } },
      {
        name: 'a3',
        parent: null,
        children: [],
        related: nameRefs('b'),
        relatedBy: [],
        next: null,
        seeAlso: nameRefs('b'),
      },
    ),
    pointsAtItself('the published a still links itself', ALL, 'a3'),
    categories('a').put(
      'publish without self links',
      ALL,
      {},
      {
        name: 'a3',
        parent: null,
        children: [],
        related: nameRefs('b'),
        relatedBy: [],
        next: null,
        seeAlso: nameRefs('b'),
      },
    ),
    soundLinks('no self link left behind'),
  ]),
  { files: CATEGORIES },
);
