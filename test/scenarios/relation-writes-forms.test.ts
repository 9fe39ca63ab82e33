import { expect } from 'vitest';
import { ada, ALL_LINKS, article, EDITOR, grace, seedAuthors, seedTags, TAGS } from '../support/blog-relations.js';
import { expectTagOrder, linkCheck, tagOrder } from '../support/link-rows.js';
import { created, DRAFT, nameRefs } from '../support/relations.js';
import { scenario } from '../support/scenario.js';

/*
 * Every relation input form, positions and the to-one rules, on one blog article. Expected answers
 * follow recordings of Strapi 5.54 (/tmp/dump/14-relations-write.txt) and
 * shared/reference/strapi5-behaviour.md §5, §7 and §16.
 */

const forms = article('a', 'Forms');
const renamed = article('a', 'Forms renamed');

scenario('relation writes: input forms, positions and to-one rules', [
  ...seedAuthors,
  ...seedTags(5),
  {
    name: 'remember row ids as digit strings',
    path: '/api/tags?pagination[pageSize]=1',
    status: 200,
    check: (_r, { vars }) => {
      for (const name of ['t1Id', 't2Id', 't3Id', 'adaId', 'graceId']) vars[`${name}Str`] = String(vars[name]);
    },
  },
  {
    name: 'POST with longhand objects in a plain array (= set), in that order',
    method: 'POST',
    path: `/api/articles?${ALL_LINKS}`,
    body: {
      data: {
        title: 'Forms',
        tags: [{ documentId: '{{t3}}' }, { documentId: '{{t1}}' }],
        author: { documentId: '{{grace}}' },
      },
    },
    status: 201,
    save: { a: 'data.documentId' },
    equal: created({ title: 'Forms', author: grace, editor: null, tags: nameRefs('t3', 't1') }),
  },
  forms.get('the draft row got the same links', `${DRAFT}${ALL_LINKS}`, {
    author: grace,
    editor: null,
    tags: nameRefs('t3', 't1'),
  }),
  forms.putTags('digit-string row ids (= set)', ['{{t2IdStr}}', '{{t1IdStr}}'], ['t2', 't1']),
  forms.putTags('{id} objects in a plain array (= set)', [{ id: '{{t3Id}}' }, { id: '{{t2Id}}' }], ['t3', 't2']),
  forms.putTags('numeric ids in connect', { connect: ['{{t1Id}}'] }, ['t3', 't2', 't1']),
  forms.putTags('{id} objects in disconnect', { disconnect: [{ id: '{{t2Id}}' }] }, ['t3', 't1']),
  forms.putTags('digit strings in disconnect', { disconnect: ['{{t3IdStr}}'] }, ['t1']),
  forms.putTags('longhand objects in connect', { connect: [{ documentId: '{{t4}}' }, { documentId: '{{t5}}' }] }, [
    't1',
    't4',
    't5',
  ]),
  forms.putTags('longhand objects in disconnect', { disconnect: [{ documentId: '{{t4}}' }] }, ['t1', 't5']),
  forms.putTags('set mixing shorthand and longhand', { set: ['{{t2}}', { documentId: '{{t4}}' }, '{{t1}}'] }, [
    't2',
    't4',
    't1',
  ]),
  // positions: state [t2, t4, t1]
  forms.putTags(
    'several positioned connects apply in order',
    {
      connect: [
        { documentId: '{{t3}}', position: { start: true } },
        { documentId: '{{t5}}', position: { after: '{{t3}}' } },
      ],
    },
    ['t3', 't5', 't2', 't4', 't1'],
  ),
  forms.putTags(
    'position.before moves an already connected document',
    { connect: [{ documentId: '{{t1}}', position: { before: '{{t5}}' } }] },
    ['t3', 't1', 't5', 't2', 't4'],
  ),
  forms.putTags(
    'position.start moves an already connected document',
    { connect: [{ documentId: '{{t4}}', position: { start: true } }] },
    ['t4', 't3', 't1', 't5', 't2'],
  ),
  forms.putTags(
    'position.end moves an already connected document',
    { connect: [{ documentId: '{{t3}}', position: { end: true } }] },
    ['t4', 't1', 't5', 't2', 't3'],
  ),
  forms.putTags('position.after the last one', { connect: [{ documentId: '{{t4}}', position: { after: '{{t3}}' } }] }, [
    't1',
    't5',
    't2',
    't3',
    't4',
  ]),
  forms.getTags('the order survives a GET', ['t1', 't5', 't2', 't3', 't4']),
  forms.getTags('and a GET of the draft', ['t1', 't5', 't2', 't3', 't4'], DRAFT),
  {
    name: 'and a list GET',
    path: `/api/articles?${TAGS}&filters[title][$eq]=Forms`,
    status: 200,
    check: ({ json }) =>
      expect(json.data.map((a: { tags: { name: string }[] }) => a.tags.map((t) => t.name))).toEqual([
        ['t1', 't5', 't2', 't3', 't4'],
      ]),
  },
  tagOrder(
    'link table after the reorders: tag_ord 1..n in list order on both rows, no duplicate pair',
    'a',
    ['t1Id', 't5Id', 't2Id', 't3Id', 't4Id'],
    2,
  ),
  {
    name: 'connect + disconnect together keep the rest in order',
    method: 'PUT',
    path: `/api/articles/{{a}}?${TAGS}`,
    body: {
      data: {
        tags: { disconnect: ['{{t5}}', '{{t3}}'], connect: [{ documentId: '{{t3}}', position: { start: true } }] },
      },
    },
    status: 200,
    check: ({ json }) => {
      // whether t3 (both connected and disconnected) stays is not recorded; the others must keep their order
      const names = json.data.tags.map((t: { name: string }) => t.name);
      expect(names.filter((n: string) => n !== 't3')).toEqual(['t1', 't2', 't4']);
    },
  },
  forms.putTags('reset tags', ['{{t1}}', '{{t2}}', '{{t3}}'], ['t1', 't2', 't3']),
  tagOrder('link table after a set: 1..n again', 'a', ['t1Id', 't2Id', 't3Id'], 2),
  forms.putTags(
    'connecting an already connected document without position moves it to the end (position defaults to end)',
    { connect: ['{{t1}}'] },
    ['t2', 't3', 't1'],
  ),
  forms.putTags('reset tags again', ['{{t1}}', '{{t2}}', '{{t3}}'], ['t1', 't2', 't3']),
  forms.putTags('connect with an empty list changes nothing', { connect: [] }, ['t1', 't2', 't3']),
  forms.putTags('disconnect with an empty list changes nothing', { disconnect: [] }, ['t1', 't2', 't3']),
  forms.putTags('disconnecting a tag that is not linked is a no-op', { disconnect: ['{{t5}}'] }, ['t1', 't2', 't3']),
  // to-one
  forms.putAuthor('to-one shorthand documentId', '{{ada}}', ada),
  forms.putAuthor('to-one connect replaces the current one', { connect: ['{{grace}}'] }, grace),
  forms.putAuthor('to-one connect longhand', { connect: [{ documentId: '{{ada}}' }] }, ada),
  forms.putAuthor('to-one numeric row id', '{{graceId}}', grace),
  forms.putAuthor('to-one digit-string row id', '{{adaIdStr}}', ada),
  forms.putAuthor('to-one disconnect of another document is a no-op', { disconnect: ['{{grace}}'] }, ada),
  forms.putAuthor('to-one disconnect of the linked document clears it', { disconnect: ['{{ada}}'] }, null),
  forms.getAuthor('the draft row follows', null, DRAFT),
  forms.put(
    'oneToOne one-way connect of two from empty: the first connected one is kept (as recorded for author)',
    EDITOR,
    { editor: { connect: ['{{ada}}', '{{grace}}'] } },
    { editor: ada },
  ),
  forms.put('oneToOne one-way shorthand switch', EDITOR, { editor: '{{grace}}' }, { editor: grace }),
  forms.put(
    'oneToOne one-way disconnect of a non-linked one is a no-op',
    EDITOR,
    { editor: { disconnect: ['{{ada}}'] } },
    { editor: grace },
  ),
  forms.put(
    'link all three relations',
    ALL_LINKS,
    { author: '{{ada}}', tags: ['{{t2}}', '{{t1}}'] },
    { author: ada, editor: grace, tags: nameRefs('t2', 't1') },
  ),
  renamed.put(
    'an absent relation key leaves existing links untouched',
    ALL_LINKS,
    { title: 'Forms renamed', views: 4 },
    { author: ada, editor: grace, tags: nameRefs('t2', 't1') },
  ),
  renamed.put(
    'and an empty data object (publish) too',
    ALL_LINKS,
    {},
    { author: ada, editor: grace, tags: nameRefs('t2', 't1') },
  ),
  renamed.put(
    'touching one relation leaves the others',
    ALL_LINKS,
    { tags: { connect: ['{{t5}}'] } },
    { author: ada, editor: grace, tags: nameRefs('t2', 't1', 't5') },
  ),
  renamed.put(
    'null clears both to-ones, tags stay',
    ALL_LINKS,
    { author: null, editor: null },
    { author: null, editor: null, tags: nameRefs('t2', 't1', 't5') },
  ),
  renamed.get('the draft agrees', `${DRAFT}${ALL_LINKS}`, {
    author: null,
    editor: null,
    tags: nameRefs('t2', 't1', 't5'),
  }),
  {
    name: 'a second article may link the same tags and author (many-to-many, many-to-one)',
    method: 'POST',
    path: `/api/articles?${ALL_LINKS}`,
    body: { data: { title: 'Second', author: '{{ada}}', editor: '{{ada}}', tags: ['{{t1}}', '{{t2}}'] } },
    status: 201,
    save: { b: 'data.documentId' },
    equal: created({ title: 'Second', author: ada, editor: ada, tags: nameRefs('t1', 't2') }),
  },
  renamed.getTags('the first article kept its tags', ['t2', 't1', 't5']),
  {
    name: 'populate from the list endpoint shows each article its own links',
    path: `/api/articles?sort=title&${ALL_LINKS}`,
    status: 200,
    check: ({ json }) =>
      expect(
        json.data.map((a: { title: string; author: { name: string } | null; tags: { name: string }[] }) => [
          a.title,
          a.author?.name ?? null,
          a.tags.map((t) => t.name),
        ]),
      ).toEqual([
        ['Forms renamed', null, ['t2', 't1', 't5']],
        ['Second', 'Ada Lovelace', ['t1', 't2']],
      ]),
  },
  linkCheck('link table: each article row has its own ord sequence', async ({ server, vars }) => {
    await expectTagOrder(server, vars, 'a', ['t2Id', 't1Id', 't5Id'], 2);
    await expectTagOrder(server, vars, 'b', ['t1Id', 't2Id'], 2);
  }),
]);
