import { ALL_LINKS, article, articlesOf, EDITOR, grace, seedAuthors, seedTags } from '../support/blog-relations.js';
import { noOrphanLinks } from '../support/link-rows.js';
import { DRAFT, notFoundDocument, ref } from '../support/relations.js';
import { scenario } from '../support/scenario.js';

/*
 * Deleting documents that relations point at, or that point at others: the links go with them,
 * on both versions (shared/reference/strapi5-behaviour.md §5, §7 and §16).
 */

const adaArticles = articlesOf('authors', 'ada', 'Ada Lovelace');
const articleB = article('b', 'B');
const [A, B, C] = [ref('a', { title: 'A' }), ref('b', { title: 'B' }), ref('c', { title: 'C' })];

scenario('relation writes: deleting linked documents', [
  ...seedAuthors,
  ...seedTags(3),
  {
    name: 'article A: Ada, editor Grace, tags t1 t2 t3',
    method: 'POST',
    path: `/api/articles?${ALL_LINKS}`,
    body: { data: { title: 'A', author: '{{ada}}', editor: '{{grace}}', tags: ['{{t1}}', '{{t2}}', '{{t3}}'] } },
    status: 201,
    save: { a: 'data.documentId' },
  },
  {
    name: 'article B: Ada, tags t2 t1',
    method: 'POST',
    path: `/api/articles?${ALL_LINKS}`,
    body: { data: { title: 'B', author: '{{ada}}', tags: ['{{t2}}', '{{t1}}'] } },
    status: 201,
    save: { b: 'data.documentId' },
  },
  {
    name: 'draft-only article C: Ada, tag t1',
    method: 'POST',
    path: `/api/articles?status=draft&${ALL_LINKS}`,
    body: { data: { title: 'C', author: '{{ada}}', tags: ['{{t1}}'] } },
    status: 201,
    save: { c: 'data.documentId' },
  },
  adaArticles.get('Ada lists A and B', [A, B]),
  { name: 'delete article A', method: 'DELETE', path: '/api/articles/{{a}}', status: 204 },
  adaArticles.get('Ada lists only B', [B]),
  adaArticles.get('Ada lists B and C in the draft view', [B, C], DRAFT),
  articlesOf('tags', 't3', 't3').get('t3 lists nothing', []),
  articlesOf('tags', 't2', 't2').get('t2 lists only B', [B]),
  noOrphanLinks('no link rows of A remain'),
  { name: 'delete tag t2', method: 'DELETE', path: '/api/tags/{{t2}}', status: 204 },
  articleB.getTags('B lists only t1', ['t1']),
  articleB.getTags('so does the draft of B', ['t1'], DRAFT),
  noOrphanLinks('no link rows to t2 remain'),
  articleB.putTags(
    'B can still be reordered after the delete',
    { connect: [{ documentId: '{{t3}}', position: { before: '{{t1}}' } }] },
    ['t3', 't1'],
  ),
  { name: 'delete author Ada', method: 'DELETE', path: '/api/authors/{{ada}}', status: 204 },
  articleB.getAuthor('B has no author', null),
  article('c', 'C').getAuthor('C has no author', null, DRAFT),
  articleB.put('an editor link goes with the deleted author', EDITOR, { editor: '{{grace}}' }, { editor: grace }),
  { name: 'delete author Grace', method: 'DELETE', path: '/api/authors/{{grace}}', status: 204 },
  articleB.get('B has no editor', EDITOR, { editor: null }),
  noOrphanLinks('the link tables hold nothing dangling'),
  {
    name: 'a deleted author cannot be linked',
    method: 'PUT',
    path: '/api/articles/{{b}}',
    body: { data: { author: '{{ada}}' } },
    status: 400,
    equal: notFoundDocument('{{ada}}'),
  },
]);
