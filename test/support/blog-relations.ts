import type { Step } from './scenario.js';
import { documentAt, nameRefs, ref } from './relations.js';

/*
 * The blog example's relations (article → author manyToOne / tags manyToMany / editor oneToOne
 * one-way; author.articles and tag.articles are the mappedBy sides): seed steps, populate queries
 * and step builders for the relation-writes scenarios.
 */

/** An article's title and its tags' names. */
export const TAGS = 'fields[0]=title&populate[tags][fields][0]=name';
/** An article's title and its author's name. */
export const AUTHOR = 'fields[0]=title&populate[author][fields][0]=name';
/** An article's title and its editor's name. */
export const EDITOR = 'fields[0]=title&populate[editor][fields][0]=name';
/** An article's title, its tags' names and its author's name. */
export const TAGS_AND_AUTHOR = 'fields[0]=title&populate[tags][fields][0]=name&populate[author][fields][0]=name';
/** An article's title and the names of its author, editor and tags. */
export const ALL_LINKS =
  'fields[0]=title&populate[author][fields][0]=name&populate[editor][fields][0]=name&populate[tags][fields][0]=name';
/** An author's or tag's name and its articles' titles, sorted by title. */
export const ARTICLE_TITLES = 'fields[0]=name&populate[articles][fields][0]=title&populate[articles][sort]=title';
/** An author's or tag's name and its articles' titles, in link order. */
export const LINKED_ARTICLES = 'fields[0]=name&populate[articles][fields][0]=title';

/** Seeded author Ada as populated with her name. */
export const ada = ref('ada', { name: 'Ada Lovelace' });
/** Seeded author Grace as populated with her name. */
export const grace = ref('grace', { name: 'Grace Hopper' });

/** Creates Ada Lovelace and Grace Hopper; saves documentIds as `ada`, `grace` and row ids as `adaId`, `graceId`. */
export const seedAuthors: Step[] = [
  {
    name: 'seed author Ada',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Ada Lovelace' } },
    status: 201,
    save: { ada: 'data.documentId', adaId: 'data.id' },
  },
  {
    name: 'seed author Grace',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Grace Hopper' } },
    status: 201,
    save: { grace: 'data.documentId', graceId: 'data.id' },
  },
];

/** Creates tags t1 … t<count>, each named like its variable; saves documentIds as `t1`… and row ids as `t1Id`…. */
export const seedTags = (count: number): Step[] =>
  Array.from({ length: count }, (_, index) => ({
    name: `seed tag t${index + 1}`,
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    body: { data: { name: `t${index + 1}` } },
    status: 201,
    save: { [`t${index + 1}`]: 'data.documentId', [`t${index + 1}Id`]: 'data.id' },
  }));

/**
 * Step builders for article `{{variable}}`, whose answers carry `title` and the populated
 * relations. Tags are given by name (t1 … t5); `status` is '' or DRAFT.
 */
export function article(variable: string, title: string) {
  const at = documentAt('articles', variable);
  return {
    /** GET with `query`; the answer holds `title` and `fields`. */
    get: (name: string, query: string, fields: Record<string, unknown>): Step =>
      at.get(name, query, { title, ...fields }),
    /** PUT `{ data }` with `query`; the answer holds `title` and `fields`. */
    put: (name: string, query: string, data: Record<string, unknown>, fields: Record<string, unknown>): Step =>
      at.put(name, query, data, { title, ...fields }),
    /** GET: the article lists exactly these tags, in order. */
    getTags: (name: string, expected: string[], status = ''): Step =>
      at.get(name, `${status}${TAGS}`, { title, tags: nameRefs(...expected) }),
    /** PUT `data.tags`: the answer lists exactly these tags, in order. */
    putTags: (name: string, tags: unknown, expected: string[], status = ''): Step =>
      at.put(name, `${status}${TAGS}`, { tags }, { title, tags: nameRefs(...expected) }),
    /** GET: the article's author is `expected` (a ref or null). */
    getAuthor: (name: string, expected: unknown, status = ''): Step =>
      at.get(name, `${status}${AUTHOR}`, { title, author: expected }),
    /** PUT `data.author`: the answer's author is `expected`. */
    putAuthor: (name: string, author: unknown, expected: unknown): Step =>
      at.put(name, AUTHOR, { author }, { title, author: expected }),
  };
}

/**
 * Step builders for the mappedBy side `articles` of author or tag `{{variable}}` named `name`,
 * read with `query` (by default: titles sorted by title); `status` is '' or DRAFT.
 */
export function articlesOf(plural: 'authors' | 'tags', variable: string, name: string, query = ARTICLE_TITLES) {
  const at = documentAt(plural, variable);
  return {
    /** GET: the document lists exactly these articles. */
    get: (stepName: string, articles: unknown[], status = ''): Step =>
      at.get(stepName, `${status}${query}`, { name, articles }),
    /** PUT `data.articles`: the answer lists exactly `expected`. */
    put: (stepName: string, articles: unknown, expected: unknown[], status = ''): Step =>
      at.put(stepName, `${status}${query}`, { articles }, { name, articles: expected }),
  };
}
