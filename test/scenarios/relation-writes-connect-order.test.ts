import { expect } from 'vitest';
import { article, seedTags, TAGS } from '../support/blog-relations.js';
import { tagOrder } from '../support/link-rows.js';
import { created, DRAFT, nameRefs } from '../support/relations.js';
import { errorBody, scenario } from '../support/scenario.js';

/*
 * The connect array is applied in dependency order (Strapi's relations-orderer sorts it): an item
 * positioned relative to a document connected later in the same request comes after it. The same
 * document twice, or a cycle of positions, is a 400 and writes nothing.
 */

const duplicateConnect = (id: string) =>
  errorBody(
    400,
    'ValidationError',
    `The relation with id ${id} is already connected. You cannot connect the same relation twice.`,
    {},
  );
const x = article('x', 'X');

scenario('relation writes: connect order, duplicates and cycles', [
  ...seedTags(5),
  {
    name: 'article X with tags [t1, t2]',
    method: 'POST',
    path: `/api/articles?${TAGS}`,
    body: { data: { title: 'X', tags: ['{{t1}}', '{{t2}}'] } },
    status: 201,
    save: { x: 'data.documentId' },
    equal: created({ title: 'X', tags: nameRefs('t1', 't2') }),
  },
  {
    name: 'the same document twice in one connect',
    method: 'PUT',
    path: '/api/articles/{{x}}',
    body: { data: { title: 'changed', tags: { connect: ['{{t3}}', '{{t3}}'] } } },
    status: 400,
    equal: duplicateConnect('{{t3}}'),
  },
  {
    name: 'the same row id twice in one connect',
    method: 'PUT',
    path: '/api/articles/{{x}}',
    body: {
      data: {
        title: 'changed',
        tags: { connect: [{ id: '{{t3Id}}' }, { id: '{{t3Id}}', position: { start: true } }] },
      },
    },
    status: 400,
    equal: duplicateConnect('{{t3Id}}'),
  },
  x.getTags('the duplicates changed nothing', ['t1', 't2']),
  x.getTags('nor in the draft', ['t1', 't2'], DRAFT),
  {
    name: 'a cycle of positions: t3 before t4, t4 before t3',
    method: 'PUT',
    path: '/api/articles/{{x}}',
    body: {
      data: {
        title: 'changed',
        tags: {
          connect: [
            { documentId: '{{t3}}', position: { before: '{{t4}}' } },
            { documentId: '{{t4}}', position: { before: '{{t3}}' } },
          ],
        },
      },
    },
    status: 400,
    match: { data: null, error: { status: 400, name: 'ValidationError', details: {} } },
    check: ({ json }) => expect(json.error.message).toEqual(expect.stringMatching(/\S/)),
  },
  x.getTags('the cycle changed nothing', ['t1', 't2']),
  x.getTags('nor in the draft after the cycle', ['t1', 't2'], DRAFT),
  x.putTags(
    't3 before t4, where t4 is connected later at the start, is applied after it',
    {
      connect: [
        { documentId: '{{t3}}', position: { before: '{{t4}}' } },
        { documentId: '{{t4}}', position: { start: true } },
      ],
    },
    ['t3', 't4', 't1', 't2'],
  ),
  x.getTags('GET agrees', ['t3', 't4', 't1', 't2']),
  x.getTags('so does the draft', ['t3', 't4', 't1', 't2'], DRAFT),
  x.putTags(
    'an already linked t2 after t5, where t5 is connected later after t3, waits for t5',
    {
      connect: [
        { documentId: '{{t2}}', position: { after: '{{t5}}' } },
        { documentId: '{{t5}}', position: { after: '{{t3}}' } },
      ],
    },
    ['t3', 't5', 't2', 't4', 't1'],
  ),
  tagOrder('tag_ord is 1..n in list order on both rows', 'x', ['t3Id', 't5Id', 't2Id', 't4Id', 't1Id'], 2),
]);
