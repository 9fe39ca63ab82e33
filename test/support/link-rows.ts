import { expect } from 'vitest';
import type { Step, Vars } from './scenario.js';
import type { TestServer } from './test-server.js';

/* SQL reads of the blog example's relation link tables (articles_tags_lnk, _author_lnk, _editor_lnk). */

/** A documentId is 24 lowercase alphanumerics; checked before it goes into SQL text. */
function sqlDocumentId(value: unknown): string {
  expect(value).toMatch(/^[a-z0-9]+$/);
  return `'${String(value)}'`;
}

/** The articles_tags_lnk rows of every row (draft, published) of one article document, by row then tag_ord. */
export async function tagLinks(
  server: TestServer,
  documentId: unknown,
): Promise<{ articleId: number; tagId: number; tagOrd: number }[]> {
  const rows = await server.app.db.all({
    sql: `select l.article_id, l.tag_id, l.tag_ord from articles_tags_lnk l join articles a on a.id = l.article_id where a.document_id = ${sqlDocumentId(documentId)} order by l.article_id, l.tag_ord`,
    params: [],
  });
  return rows.map((row) => ({
    articleId: Number(row.article_id),
    tagId: Number(row.tag_id),
    tagOrd: Number(row.tag_ord),
  }));
}

/** Asserts every row of the article links exactly `tagIdVars`, in that order, with tag_ord 1..n and no duplicate pair. */
export async function expectTagOrder(
  server: TestServer,
  vars: Vars,
  documentVar: string,
  tagIdVars: string[],
  rowCount: number,
): Promise<void> {
  const links = await tagLinks(server, vars[documentVar]);
  const byRow = new Map<number, { tagId: number; tagOrd: number }[]>();
  for (const link of links) byRow.set(link.articleId, [...(byRow.get(link.articleId) ?? []), link]);
  expect(byRow.size).toBe(rowCount);
  const expectedIds = tagIdVars.map((name) => Number(vars[name]));
  for (const rowLinks of byRow.values()) {
    expect(rowLinks.map((l) => l.tagId)).toEqual(expectedIds);
    expect(rowLinks.map((l) => l.tagOrd)).toEqual(expectedIds.map((_, index) => index + 1));
  }
  const pairs = links.map((l) => `${l.articleId}:${l.tagId}`);
  expect(new Set(pairs).size).toBe(pairs.length);
}

/** Number of link rows whose owner or target row no longer exists, over the blog's three link tables. */
export async function orphanLinks(server: TestServer): Promise<number> {
  const queries = [
    'select count(*) as n from articles_tags_lnk where article_id not in (select id from articles) or tag_id not in (select id from tags)',
    'select count(*) as n from articles_author_lnk where article_id not in (select id from articles) or author_id not in (select id from authors)',
    'select count(*) as n from articles_editor_lnk where article_id not in (select id from articles) or author_id not in (select id from authors)',
  ];
  let total = 0;
  for (const sql of queries) total += Number((await server.app.db.all({ sql, params: [] }))[0]!.n);
  return total;
}

/** A step that reads the link tables in `check` (its request, GET /api/tags?pagination[pageSize]=1, answers 200). */
export function linkCheck(
  name: string,
  check: (context: { vars: Vars; server: TestServer }) => void | Promise<void>,
): Step {
  return { name, path: '/api/tags?pagination[pageSize]=1', status: 200, check: (_response, context) => check(context) };
}

/** A link-table step: every row of article `{{documentVar}}` (`rowCount` of them) links these tags in order (see expectTagOrder). */
export const tagOrder = (name: string, documentVar: string, tagIdVars: string[], rowCount: number): Step =>
  linkCheck(name, ({ server, vars }) => expectTagOrder(server, vars, documentVar, tagIdVars, rowCount));

/** A link-table step: no link row points at a deleted row. */
export const noOrphanLinks = (name: string): Step =>
  linkCheck(name, async ({ server }) => expect(await orphanLinks(server)).toBe(0));
