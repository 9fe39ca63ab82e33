import { expect } from 'vitest';
import {
  ada,
  ARTICLE_TITLES,
  article,
  articlesOf,
  grace,
  seedAuthors,
  seedTags,
  TAGS,
} from '../support/blog-relations.js';
import { linkCheck } from '../support/link-rows.js';
import { created, DRAFT, ref } from '../support/relations.js';
import { scenario } from '../support/scenario.js';

/*
 * Writes on the mappedBy sides of the blog's relations: author.articles (oneToMany) and
 * tag.articles (manyToMany). Expected answers follow shared/reference/strapi5-behaviour.md §5,
 * §7 and §16 (the inverse-side steps of /tmp/dump/14-relations-write.txt).
 */

const [articleA, articleB, articleC] = [article('a', 'A'), article('b', 'B'), article('c', 'C')];
const [A, B, C] = [ref('a', { title: 'A' }), ref('b', { title: 'B' }), ref('c', { title: 'C' })];
const adaArticles = articlesOf('authors', 'ada', 'Ada Lovelace');
const graceArticles = articlesOf('authors', 'grace', 'Grace Hopper');
const linusArticles = articlesOf('authors', 'linus', 'Linus Torvalds');
const t1Articles = articlesOf('tags', 't1', 't1');
const t2Articles = articlesOf('tags', 't2', 't2');
/** The tag names of each article, by title. */
const tagsByTitle = (json: { data: { tags: { name: string }[] }[] }) => json.data.map((a) => a.tags.map((t) => t.name));

scenario('relation writes: inverse sides', [
  ...seedAuthors,
  ...seedTags(3),
  {
    name: 'article A',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'A' } },
    status: 201,
    save: { a: 'data.documentId' },
  },
  {
    name: 'article B',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'B' } },
    status: 201,
    save: { b: 'data.documentId' },
  },
  {
    name: 'article C',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'C' } },
    status: 201,
    save: { c: 'data.documentId' },
  },
  articleA.putAuthor('owning side: A → Ada', '{{ada}}', ada),
  articleB.putAuthor('owning side: B → Ada', '{{ada}}', ada),
  adaArticles.get('Ada lists A and B', [A, B]),
  adaArticles.get('Ada lists A and B in the draft view too', [A, B], DRAFT),
  graceArticles.put('inverse write Grace.articles = [A] moves A away from Ada', ['{{a}}'], [A]),
  articleA.getAuthor('A now has Grace as author', grace),
  articleA.getAuthor('so does the draft of A', grace, DRAFT),
  adaArticles.get('Ada keeps only B', [B]),
  adaArticles.get('Ada keeps only B in the draft view', [B], DRAFT),
  linkCheck('each article row has one author row in the link table', async ({ server }) => {
    const rows = await server.app.db.all({
      sql: 'select article_id, count(*) as n from articles_author_lnk group by article_id',
      params: [],
    });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Number(row.n)).toBe(1);
  }),
  graceArticles.put('inverse connect moves B to Grace as well', { connect: ['{{b}}'] }, [A, B]),
  adaArticles.get('Ada has none left', []),
  articleB.getAuthor('B sees Grace', grace),
  graceArticles.put('inverse disconnect', { disconnect: ['{{a}}'] }, [B]),
  articleA.getAuthor('A has no author any more', null),
  articleA.getAuthor('nor in its draft', null, DRAFT),
  graceArticles.put('inverse set [] clears', [], []),
  articleB.getAuthor('B has no author any more', null),
  {
    name: 'POST an author with two articles (inverse side on create)',
    method: 'POST',
    path: `/api/authors?${ARTICLE_TITLES}`,
    body: { data: { name: 'Linus Torvalds', articles: ['{{b}}', '{{c}}'] } },
    status: 201,
    save: { linus: 'data.documentId' },
    equal: created({ name: 'Linus Torvalds', articles: [B, C] }),
  },
  articleC.getAuthor('C sees Linus', ref('linus', { name: 'Linus Torvalds' })),
  articleC.putAuthor('owning-side switch removes C from Linus', '{{ada}}', ada),
  linusArticles.get('Linus keeps B', [B]),
  adaArticles.get('Ada has C', [C]),
  // manyToMany inverse side
  t1Articles.put('tag t1.articles = [A, B]', ['{{a}}', '{{b}}'], [A, B]),
  articleA.getTags('A lists t1', ['t1']),
  articleB.getTags('B lists t1, in its draft too', ['t1'], DRAFT),
  articleA.putTags('owning side appends t2 to A', { connect: ['{{t2}}'] }, ['t1', 't2']),
  t2Articles.get('t2 lists A', [A]),
  t1Articles.get('many-to-many: a tag may hold several articles, an article several tags', [A, B]),
  t1Articles.put('inverse set on t1 to [B] drops A', { set: ['{{b}}'] }, [B]),
  {
    name: 'A keeps only t2 and B keeps t1',
    path: `/api/articles?sort=title&${TAGS}`,
    status: 200,
    check: ({ json }) => expect(tagsByTitle(json)).toEqual([['t2'], ['t1'], []]),
  },
  {
    name: 'the drafts agree',
    path: `/api/articles?status=draft&sort=title&${TAGS}`,
    status: 200,
    check: ({ json }) => expect(tagsByTitle(json)).toEqual([['t2'], ['t1'], []]),
  },
  t2Articles.put('inverse disconnect on t2', { disconnect: ['{{a}}'] }, []),
  articleA.getTags('A has no tags', []),
  {
    name: 'POST a tag with articles',
    method: 'POST',
    path: `/api/tags?${ARTICLE_TITLES}`,
    body: { data: { name: 'fresh', articles: ['{{c}}', '{{a}}'] } },
    status: 201,
    save: { fresh: 'data.documentId' },
    equal: created({ name: 'fresh', articles: [A, C] }),
  },
  articleC.getTags('C lists the new tag', ['fresh']),
  linkCheck('no duplicate link pairs anywhere', async ({ server }) => {
    for (const [table, a, b] of [
      ['articles_tags_lnk', 'article_id', 'tag_id'],
      ['articles_author_lnk', 'article_id', 'author_id'],
    ] as const) {
      const rows = await server.app.db.all({
        sql: `select ${a}, ${b}, count(*) as n from ${table} group by ${a}, ${b}`,
        params: [],
      });
      for (const row of rows) expect(Number(row.n)).toBe(1);
    }
  }),
]);
