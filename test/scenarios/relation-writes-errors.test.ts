import { expect } from 'vitest';
import { ada, ALL_LINKS, article, articlesOf, seedAuthors, seedTags, TAGS } from '../support/blog-relations.js';
import { tagOrder } from '../support/link-rows.js';
import { created, DRAFT, nameRefs, notFoundDocument } from '../support/relations.js';
import { scenario, type Step } from '../support/scenario.js';

/*
 * Refused relation writes answer 400 and leave the documents as they were. Exact envelopes where
 * recorded from Strapi 5.54 (/tmp/dump/14-relations-write.txt); otherwise the ValidationError of
 * shared/reference/strapi5-behaviour.md §5, §7 and §16.
 */

const validationError = { data: null, error: { status: 400, name: 'ValidationError', message: expect.any(String) } };
const articleA = article('a', 'A');
/** Article A with its links as created: Ada, no editor, tags t1 t2. */
const unchanged = (name: string, status = '') =>
  articleA.get(name, `${status}${ALL_LINKS}`, { author: ada, editor: null, tags: nameRefs('t1', 't2') });
/** PUT `{ data }` on article A, refused with exactly `expected`. */
const refusedWith = (name: string, data: Record<string, unknown>, expected: unknown): Step => ({
  name,
  method: 'PUT',
  path: '/api/articles/{{a}}',
  body: { data },
  status: 400,
  equal: expected,
});
/** PUT `{ data }` on article A, refused with a ValidationError (message not recorded). */
const malformed = (name: string, data: Record<string, unknown>): Step => ({
  name,
  method: 'PUT',
  path: '/api/articles/{{a}}',
  body: { data },
  status: 400,
  match: validationError,
});

scenario('relation writes: errors leave documents unchanged', [
  ...seedAuthors,
  ...seedTags(4),
  {
    name: 'article A: Ada, tags t1 t2',
    method: 'POST',
    path: `/api/articles?${ALL_LINKS}`,
    body: { data: { title: 'A', author: '{{ada}}', tags: ['{{t1}}', '{{t2}}'] } },
    status: 201,
    save: { a: 'data.documentId' },
    equal: created({ title: 'A', author: ada, editor: null, tags: nameRefs('t1', 't2') }),
  },
  refusedWith(
    'unknown documentId as to-one shorthand',
    { title: 'changed', author: 'nosuchdocument0000000000' },
    notFoundDocument('nosuchdocument0000000000'),
  ),
  refusedWith(
    'unknown documentId in a to-many shorthand array',
    { title: 'changed', tags: ['{{t3}}', 'nosuchtag000000000000000'] },
    notFoundDocument('nosuchtag000000000000000'),
  ),
  refusedWith(
    'unknown documentId in connect',
    { title: 'changed', tags: { connect: ['{{t3}}', 'nosuchtag000000000000000'] } },
    notFoundDocument('nosuchtag000000000000000'),
  ),
  refusedWith(
    'unknown documentId in set',
    { title: 'changed', tags: { set: ['nosuchtag000000000000000'] } },
    notFoundDocument('nosuchtag000000000000000'),
  ),
  refusedWith(
    'unknown documentId in a longhand connect item',
    { title: 'changed', tags: { connect: [{ documentId: 'nosuchtag000000000000000' }] } },
    notFoundDocument('nosuchtag000000000000000'),
  ),
  refusedWith(
    'wrong target type: an author as tag',
    { title: 'changed', tags: { connect: ['{{ada}}'] } },
    notFoundDocument('{{ada}}'),
  ),
  refusedWith('wrong target type: a tag as editor', { title: 'changed', editor: '{{t1}}' }, notFoundDocument('{{t1}}')),
  {
    // the recorded message names locale "null" for targets without i18n; articles are localized, so only the id is asserted
    name: 'wrong target type on the inverse side: a tag as article',
    method: 'PUT',
    path: '/api/authors/{{grace}}',
    body: { data: { articles: ['{{t1}}'] } },
    status: 400,
    match: validationError,
    check: ({ json }, { vars }) => expect(json.error.message).toContain(`Document with id "${String(vars.t1)}"`),
  },
  {
    name: 'position.before a document that is not connected',
    method: 'PUT',
    path: '/api/articles/{{a}}',
    body: { data: { title: 'changed', tags: { connect: [{ documentId: '{{t3}}', position: { before: '{{t4}}' } }] } } },
    status: 400,
    match: { ...validationError, error: { ...validationError.error, details: {} } },
  },
  malformed('position.after a document that is not connected', {
    title: 'changed',
    tags: { connect: [{ documentId: '{{t3}}', position: { after: '{{t4}}' } }] },
  }),
  unchanged('after all of that: title and links unchanged'),
  unchanged('and the draft too', DRAFT),
  malformed('malformed: tags: true', { title: 'changed', tags: true }),
  malformed('malformed: tags: {foo: 1}', { title: 'changed', tags: { foo: 1 } }),
  malformed('malformed: author: {}', { title: 'changed', author: {} }),
  malformed('malformed: tags: [[1]]', { title: 'changed', tags: [['{{t1Id}}']] }),
  malformed('malformed: position with both before and after', {
    title: 'changed',
    tags: { connect: [{ documentId: '{{t3}}', position: { before: '{{t1}}', after: '{{t2}}' } }] },
  }),
  {
    name: 'malformed on the inverse side: articles: true',
    method: 'PUT',
    path: '/api/authors/{{grace}}',
    body: { data: { articles: true } },
    status: 400,
    match: validationError,
  },
  {
    name: 'malformed on create: tags: {foo: 1}',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'never created', tags: { foo: 1 } } },
    status: 400,
    match: validationError,
  },
  {
    name: 'unknown documentId on create',
    method: 'POST',
    path: '/api/articles?status=draft',
    body: { data: { title: 'never created', tags: ['{{t1}}', 'nosuchtag000000000000000'] } },
    status: 400,
    equal: notFoundDocument('nosuchtag000000000000000'),
  },
  unchanged('title and links still unchanged'),
  unchanged('draft still unchanged', DRAFT),
  {
    name: 'no document was created by the failed creates',
    path: '/api/articles?status=draft&fields[0]=title',
    status: 200,
    check: ({ json }) => expect(json.data.map((a: { title: string }) => a.title)).toEqual(['A']),
  },
  articlesOf('authors', 'grace', 'Grace Hopper').get('no author was changed by the failed inverse writes', []),
  tagOrder('tag_ord still 1..n on both rows', 'a', ['t1Id', 't2Id'], 2),
  article('a', 'A2').put(
    'a good write still works afterwards',
    TAGS,
    { title: 'A2', tags: { connect: [{ documentId: '{{t3}}', position: { before: '{{t2}}' } }] } },
    { tags: nameRefs('t1', 't3', 't2') },
  ),
]);
