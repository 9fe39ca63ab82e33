import { expect } from 'vitest';
import { createAll, relation, schemaFile, withFullAccess } from '../support/content-types.js';
import { created, documentAt, nameRef, nameRefs, names, notFoundDocument, ref } from '../support/relations.js';
import { scenario } from '../support/scenario.js';
import type { TestServer } from '../support/test-server.js';

/*
 * Self-referencing bidirectional relation: category.parent (manyToOne, inversedBy children) ↔
 * category.children (oneToMany, mappedBy parent).
 *
 * The scenario writes genuinely new content types into its project copy, as the Content-Type
 * Builder would (see content-types.ts): api::category.category at /api/categories. The Public
 * role has no permission on the new types, so every step uses the full-access token.
 *
 * Expected answers follow Strapi 5 (shared/reference/strapi5-behaviour.md §5, §7, §15.2, §16, and
 * the relation rules of @strapi/database's entity manager: a bidirectional x-to-one or one-to-x
 * link is taken away from its previous holder; one-way links are not exclusive).
 */

const CATEGORY = 'api::category.category';
const CATEGORIES = schemaFile({
  singularName: 'category',
  pluralName: 'categories',
  displayName: 'Category',
  draftAndPublish: false,
  attributes: {
    name: { type: 'string', required: true },
    parent: relation('manyToOne', CATEGORY, { inversedBy: 'children' }),
    children: relation('oneToMany', CATEGORY, { mappedBy: 'parent' }),
  },
});
const CAT = 'fields[0]=name&populate[parent][fields][0]=name&populate[children][fields][0]=name';
const categories = (variable: string) => documentAt('categories', variable);

/** The self-relation link table's rows, as (child row id, parent row id, ord), with no duplicate child. */
async function categoryLinks(server: TestServer): Promise<{ child: number; parent: number }[]> {
  const rows = await server.app.db.all({
    sql: 'select category_id, inv_category_id from categories_parent_lnk',
    params: [],
  });
  return rows.map((row) => ({ child: Number(row.category_id), parent: Number(row.inv_category_id) }));
}

scenario(
  'relation kinds: self-referencing parent/children',
  withFullAccess([
    ...createAll('categories', 'name', { root: 'root', a: 'a', b: 'b', c: 'c', other: 'other' }),
    categories('a').put(
      'owner side: a.parent = root',
      CAT,
      { parent: '{{root}}' },
      { name: 'a', parent: nameRef('root'), children: [] },
    ),
    categories('b').put(
      'owner side: b.parent connect root',
      CAT,
      { parent: { connect: ['{{root}}'] } },
      { name: 'b', parent: nameRef('root'), children: [] },
    ),
    categories('root').get('root.children = [a, b], in link order', CAT, {
      name: 'root',
      parent: null,
      children: nameRefs('a', 'b'),
    }),
    categories('root').put(
      'inverse side: root.children connect c',
      CAT,
      { children: { connect: ['{{c}}'] } },
      { name: 'root', parent: null, children: nameRefs('a', 'b', 'c') },
    ),
    categories('c').get('c.parent = root', CAT, { name: 'c', parent: nameRef('root'), children: [] }),
    categories('root').put(
      'inverse side reorder: c to the start',
      CAT,
      { children: { connect: [{ documentId: '{{c}}', position: { start: true } }] } },
      { name: 'root', parent: null, children: nameRefs('c', 'a', 'b') },
    ),
    categories('root').put(
      'inverse side reorder: a after b',
      CAT,
      { children: { connect: [{ documentId: '{{a}}', position: { after: '{{b}}' } }] } },
      { name: 'root', parent: null, children: nameRefs('c', 'b', 'a') },
    ),
    categories('root').get('the order is kept on GET', CAT, {
      name: 'root',
      parent: null,
      children: nameRefs('c', 'b', 'a'),
    }),
    {
      name: 'the list shows every parent/children pair',
      path: `/api/categories?sort=name&${CAT}`,
      status: 200,
      check: ({ json }) =>
        expect(
          json.data.map((c: { name: string; parent: { name: string } | null; children: { name: string }[] }) => [
            c.name,
            c.parent?.name ?? null,
            names(c.children),
          ]),
        ).toEqual([
          ['a', 'root', []],
          ['b', 'root', []],
          ['c', 'root', []],
          ['other', null, []],
          ['root', null, ['c', 'b', 'a']],
        ]),
    },
    categories('root').put(
      'inverse side set [b] drops a and c',
      CAT,
      { children: ['{{b}}'] },
      { name: 'root', parent: null, children: nameRefs('b') },
    ),
    categories('a').get('a has no parent', CAT, { name: 'a', parent: null, children: [] }),
    categories('c').get('c has no parent', CAT, { name: 'c', parent: null, children: [] }),
    categories('other').put(
      'inverse side: other.children = [b] moves b',
      CAT,
      { children: ['{{b}}'] },
      { name: 'other', parent: null, children: nameRefs('b') },
    ),
    categories('root').get('root has no children left', CAT, { name: 'root', parent: null, children: [] }),
    categories('b').get('b.parent = other', CAT, { name: 'b', parent: nameRef('other'), children: [] }),
    categories('a').put(
      'a chain: a.parent = b',
      CAT,
      { parent: '{{b}}' },
      { name: 'a', parent: nameRef('b'), children: [] },
    ),
    categories('b').get('b has a parent and a child', CAT, {
      name: 'b',
      parent: nameRef('other'),
      children: nameRefs('a'),
    }),
    categories('a').get(
      'deep populate along the chain',
      'fields[0]=name&populate[parent][fields][0]=name&populate[parent][populate][parent][fields][0]=name',
      { name: 'a', parent: ref('b', { name: 'b', parent: nameRef('other') }) },
    ),
    {
      name: 'create with both sides at once',
      method: 'POST',
      path: `/api/categories?${CAT}`,
      body: { data: { name: 'mid', parent: '{{root}}', children: ['{{c}}', '{{a}}'] } },
      status: 201,
      save: { mid: 'data.documentId' },
      equal: created({ name: 'mid', parent: nameRef('root'), children: nameRefs('c', 'a') }),
    },
    categories('b').get('a moved from b to mid', CAT, { name: 'b', parent: nameRef('other'), children: [] }),
    categories('root').get('root lists mid', CAT, {
      name: 'root',
      parent: null,
      children: [ref('mid', { name: 'mid' })],
    }),
    {
      name: 'one parent link per child in the link table',
      path: '/api/categories?pagination[pageSize]=1',
      status: 200,
      check: async (_r, { server }) => {
        const links = await categoryLinks(server);
        expect(links).toHaveLength(4); // mid→root, c→mid, a→mid, b→other
        expect(new Set(links.map((l) => l.child)).size).toBe(links.length);
      },
    },
    categories('c').put(
      'owner side disconnect',
      CAT,
      { parent: { disconnect: ['{{mid}}'] } },
      { name: 'c', parent: null, children: [] },
    ),
    categories('mid').get('mid keeps a', CAT, { name: 'mid', parent: nameRef('root'), children: nameRefs('a') }),
    { name: 'delete mid', method: 'DELETE', path: '/api/categories/{{mid}}', status: 204 },
    categories('a').get('a has no parent after the delete', CAT, { name: 'a', parent: null, children: [] }),
    categories('root').get('root has no children after the delete', CAT, { name: 'root', parent: null, children: [] }),
    {
      name: 'unknown parent',
      method: 'PUT',
      path: '/api/categories/{{a}}',
      body: { data: { parent: '{{mid}}' } },
      status: 400,
      equal: notFoundDocument('{{mid}}'),
    },
    {
      name: 'position before a child that is not linked',
      method: 'PUT',
      path: '/api/categories/{{other}}',
      body: { data: { children: { connect: [{ documentId: '{{a}}', position: { before: '{{c}}' } }] } } },
      status: 400,
      match: { data: null, error: { status: 400, name: 'ValidationError' } },
    },
    categories('other').get('other still has only b', CAT, { name: 'other', parent: null, children: nameRefs('b') }),
  ]),
  { files: CATEGORIES },
);
