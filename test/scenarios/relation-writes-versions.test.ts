import { expect } from 'vitest';
import {
  ada,
  ALL_LINKS,
  article,
  articlesOf,
  AUTHOR,
  grace,
  LINKED_ARTICLES,
  seedAuthors,
  seedTags,
  TAGS,
  TAGS_AND_AUTHOR,
} from '../support/blog-relations.js';
import { linkCheck, noOrphanLinks, tagLinks, tagOrder } from '../support/link-rows.js';
import { created, documentAt, DRAFT, nameRefs, ref } from '../support/relations.js';
import { scenario } from '../support/scenario.js';

/*
 * Relation writes and draft & publish: which rows (draft, published) the links belong to. Expected
 * answers follow the relation parts of /tmp/dump/20-locale-status-relations.txt (recorded from
 * Strapi 5.54, without the locale parts) and shared/reference/strapi5-behaviour.md §5, §7 and §16.
 */

const adaArticles = articlesOf('authors', 'ada', 'Ada Lovelace');
const graceArticles = articlesOf('authors', 'grace', 'Grace Hopper');
const t1Articles = articlesOf('tags', 't1', 't1');
const t2Articles = articlesOf('tags', 't2', 't2');
const t3Articles = articlesOf('tags', 't3', 't3');
const t4Articles = articlesOf('tags', 't4', 't4');
const published = article('p', 'Published');
const secondDraft = article('d2', 'Second draft');
const statusItems = article('s', 'Status items');
const D = ref('d', { title: 'Draft first' });
const P = ref('p', { title: 'Published' });
const P2 = ref('p', { title: 'Republished' });
const D2 = ref('d2', { title: 'Second draft' });

scenario('relation writes: draft & publish', [
  ...seedAuthors,
  ...seedTags(4),
  {
    name: 'draft-only article linking Ada',
    method: 'POST',
    path: `/api/articles?status=draft&${AUTHOR}`,
    body: { data: { title: 'Draft first', author: '{{ada}}' } },
    status: 201,
    save: { d: 'data.documentId' },
    equal: created({ title: 'Draft first', author: ada }),
  },
  adaArticles.get('Ada lists it in the draft view', [D], DRAFT),
  adaArticles.get('but not in the published view', []),
  article('d', 'Draft first').put('publishing it (PUT without status)', AUTHOR, {}, { author: ada }),
  adaArticles.get('now in the published view', [D]),
  adaArticles.get('and still in the draft view', [D], DRAFT),
  // dump 20, without the locale parts
  {
    name: 'published article with author and tags',
    method: 'POST',
    path: `/api/articles?${ALL_LINKS}`,
    body: { data: { title: 'Published', author: '{{ada}}', tags: ['{{t1}}'] } },
    status: 201,
    save: { p: 'data.documentId' },
    equal: created({ title: 'Published', author: ada, editor: null, tags: nameRefs('t1') }),
  },
  published.put(
    'draft-edit-relations: PUT ?status=draft',
    `${DRAFT}${TAGS_AND_AUTHOR}`,
    { tags: [], author: '{{grace}}' },
    { tags: [], author: grace },
  ),
  published.get('published-relations-intact', TAGS_AND_AUTHOR, { tags: nameRefs('t1'), author: ada }),
  t1Articles.get('tag-articles-published-view', [P]),
  t1Articles.get('tag-articles-draft-view', [], DRAFT),
  graceArticles.get('Grace sees it only in the draft view', [P], DRAFT),
  graceArticles.get('not in the published view', []),
  adaArticles.get('Ada still has it published', [D, P]),
  published.put('publish-draft', TAGS_AND_AUTHOR, {}, { tags: [], author: grace }),
  t1Articles.get('tag-articles-after-publish', []),
  graceArticles.get('Grace has it published now', [P]),
  adaArticles.get('Ada lost it', [D]),
  // republishing keeps links seen from the other side
  t2Articles.put('tag t2.articles = [P] (from the side without draft & publish)', ['{{p}}'], [P]),
  published.getTags('both versions of P list t2', ['t2'], DRAFT),
  published.getTags('the published one too', ['t2']),
  article('p', 'Republished').put(
    'republish P with a new title',
    TAGS,
    { title: 'Republished' },
    { tags: nameRefs('t2') },
  ),
  t2Articles.get('t2 still lists P after the republish', [P2]),
  t2Articles.get('in the draft view too', [P2], DRAFT),
  graceArticles.get('Grace still lists P after the republish', [P2]),
  noOrphanLinks('republishing leaves no link rows to the old published row'),
  linkCheck('the draft and the published row each have exactly one link to t2', async ({ server, vars }) => {
    const links = await tagLinks(server, vars.p);
    expect(links.map((l) => l.tagId)).toEqual([Number(vars.t2Id), Number(vars.t2Id)]);
    expect(new Set(links.map((l) => l.articleId)).size).toBe(2);
  }),
  // a side without draft & publish linking a draft-only article
  {
    name: 'another draft-only article',
    method: 'POST',
    path: '/api/articles?status=draft&fields[0]=title',
    body: { data: { title: 'Second draft' } },
    status: 201,
    save: { d2: 'data.documentId' },
  },
  t1Articles.put('t1.articles connect the draft-only article', { connect: ['{{d2}}'] }, [D2], DRAFT),
  t1Articles.get('published view of t1 does not show it', []),
  secondDraft.getTags('the draft lists t1', ['t1'], DRAFT),
  secondDraft.put('publish the second draft', TAGS, {}, { tags: nameRefs('t1') }),
  t1Articles.get('published view of t1 shows it now', [D2]),
  // `status` in a longhand item, from the side without draft & publish (new links only)
  {
    name: 'an article without tags',
    method: 'POST',
    path: `/api/articles?${TAGS}`,
    body: { data: { title: 'Status items' } },
    status: 201,
    save: { s: 'data.documentId' },
    equal: created({ title: 'Status items', tags: [] }),
  },
  t3Articles.put(
    't3.articles connect {status: draft} links only the draft',
    { connect: [{ documentId: '{{s}}', status: 'draft' }] },
    [ref('s', { title: 'Status items' })],
    DRAFT,
  ),
  statusItems.getTags('the draft of the article lists t3', ['t3'], DRAFT),
  statusItems.getTags('the published article does not', []),
  t4Articles.put(
    't4.articles connect {status: published} links only the published row',
    { connect: [{ documentId: '{{s}}', status: 'published' }] },
    [],
    DRAFT,
  ),
  statusItems.getTags('the published article lists t4', ['t4']),
  statusItems.getTags('the draft still lists only t3', ['t3'], DRAFT),
  // draft edits of the order do not reach the published version
  secondDraft.putTags('set tags [t1, t2] published', ['{{t1}}', '{{t2}}'], ['t1', 't2']),
  secondDraft.putTags(
    'reorder in the draft only',
    { connect: [{ documentId: '{{t2}}', position: { start: true } }] },
    ['t2', 't1'],
    DRAFT,
  ),
  secondDraft.getTags('the published order is unchanged', ['t1', 't2']),
  secondDraft.put('publishing takes the draft order', TAGS, {}, { tags: nameRefs('t2', 't1') }),
  secondDraft.getTags('and GET agrees', ['t2', 't1']),
  tagOrder('published tag_ord is 1..n too', 'd2', ['t2Id', 't1Id'], 2),
]);

// ---------------------------------------------------------------------------------------------
// Per-version links from a side without draft & publish (§7: the source has no D&P, so an item's
// `status` picks the target version; without one both versions are linked). A connect or
// disconnect carrying a `status` acts on that version's link only, and its position is taken in
// that version's list. Lists here are in link order (no populate sort).
// ---------------------------------------------------------------------------------------------
const adaLinked = articlesOf('authors', 'ada', 'Ada Lovelace', LINKED_ARTICLES);
const t1Linked = articlesOf('tags', 't1', 't1', LINKED_ARTICLES);
/** PUT Ada's `articles` (connect / disconnect items with a status); the answer is her name only. */
const adaWrite = (name: string, articles: unknown) =>
  documentAt('authors', 'ada').put(name, 'fields[0]=name', { articles }, { name: 'Ada Lovelace' });
/** PUT t1's `articles`; the answer is its name only. */
const t1Write = (name: string, articles: unknown) =>
  documentAt('tags', 't1').put(name, 'fields[0]=name', { articles }, { name: 't1' });
const articleA = article('a', 'A');
const articleB = article('b', 'B');
const [A, B] = [ref('a', { title: 'A' }), ref('b', { title: 'B' })];

scenario('relation writes: per-version connect and disconnect from a side without draft & publish', [
  ...seedAuthors,
  ...seedTags(1),
  {
    name: 'published article A',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'A' } },
    status: 201,
    save: { a: 'data.documentId' },
  },
  {
    name: 'published article B',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'B' } },
    status: 201,
    save: { b: 'data.documentId' },
  },
  // author.articles (oneToMany, mappedBy author)
  adaLinked.put('Ada.articles = [A, B] links both versions', ['{{a}}', '{{b}}'], [A, B]),
  adaLinked.get('Ada draft view [A, B]', [A, B], DRAFT),
  adaWrite('disconnect {A, status: draft}', { disconnect: [{ documentId: '{{a}}', status: 'draft' }] }),
  adaLinked.get('A is gone from the draft view', [B], DRAFT),
  adaLinked.get('but still in the published view', [A, B]),
  articleA.getAuthor('the draft of A has no author', null, DRAFT),
  articleA.getAuthor('the published A keeps Ada', ada),
  adaWrite('connect {A, status: draft}', { connect: [{ documentId: '{{a}}', status: 'draft' }] }),
  adaLinked.get('A is back in the draft view, at the end', [B, A], DRAFT),
  adaLinked.get('the published view is unchanged', [A, B]),
  articleA.getAuthor('the draft of A has Ada again', ada, DRAFT),
  adaWrite('connect {B, status: published, position: start}', {
    connect: [{ documentId: '{{b}}', status: 'published', position: { start: true } }],
  }),
  adaLinked.get('B is first in the published view', [B, A]),
  adaLinked.get('the draft view order is unchanged', [B, A], DRAFT),
  adaWrite('connect {A, status: published, position: start} moves only the published link', {
    connect: [{ documentId: '{{a}}', status: 'published', position: { start: true } }],
  }),
  adaLinked.get('A is first in the published view', [A, B]),
  adaLinked.get('the draft view still has B first', [B, A], DRAFT),
  // tag.articles (manyToMany, mappedBy tags)
  t1Linked.put('t1.articles = [A, B] links both versions', ['{{a}}', '{{b}}'], [A, B]),
  t1Write('t1: disconnect {B, status: draft}', { disconnect: [{ documentId: '{{b}}', status: 'draft' }] }),
  t1Linked.get('t1 draft view lost B', [A], DRAFT),
  t1Linked.get('t1 published view keeps B', [A, B]),
  articleB.getTags('the draft of B lists no tag', [], DRAFT),
  articleB.getTags('the published B lists t1', ['t1']),
  t1Write('t1: connect {B, status: draft, position: start}', {
    connect: [{ documentId: '{{b}}', status: 'draft', position: { start: true } }],
  }),
  t1Linked.get('t1 draft view has B first', [B, A], DRAFT),
  t1Linked.get('t1 published view order unchanged', [A, B]),
  noOrphanLinks('no dangling links'),
]);
