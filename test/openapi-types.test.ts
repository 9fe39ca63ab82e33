import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTypes, pluginsWithDocumentation, typeCheck, type OpenApiJson } from './support/openapi.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * The served OpenAPI document is good enough to generate a typed client from (issue 20):
 * openapi-typescript turns it into types, and a small client written against them — list,
 * create, a dynamic zone narrowed by `__component`, the users & permissions login — compiles
 * under strict settings, while code that breaks the contract (a wrong type, an unknown key, a
 * value outside an enumeration, a zone component that does not exist) does not.
 */

const CLIENT = `import type { components, paths } from './schema.js';

type Article = components['schemas']['Article'];
type List = paths['/articles']['get'];
export type ListQuery = NonNullable<List['parameters']['query']>;
export type ListAnswer = List['responses'][200]['content']['application/json'];
export type CreateBody = paths['/articles']['post']['requestBody']['content']['application/json'];
type Created = paths['/articles']['post']['responses'][201]['content']['application/json'];
type Zone = NonNullable<Article['blocks']>[number];
type Login = paths['/auth/local']['post'];

/** GET /api/articles with a typed query and answer. */
export async function listArticles(base: string, query: ListQuery): Promise<ListAnswer> {
  const url = new URL(base + '/api/articles');
  if (typeof query.sort === 'string') url.searchParams.set('sort', query.sort);
  if (query.pagination?.pageSize !== undefined) url.searchParams.set('pagination[pageSize]', String(query.pagination.pageSize));
  if (query.status !== undefined) url.searchParams.set('status', query.status);
  const response = await fetch(url);
  return (await response.json()) as ListAnswer;
}

/** POST /api/articles. */
export async function createArticle(base: string, token: string, body: CreateBody): Promise<Created['data']> {
  const response = await fetch(base + '/api/articles', {
    method: 'POST',
    headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as Created).data;
}

/** POST /api/auth/local → the JWT. */
export async function login(base: string, body: Login['requestBody']['content']['application/json']): Promise<string> {
  const response = await fetch(base + '/api/auth/local', { method: 'POST', body: JSON.stringify(body) });
  const answer = (await response.json()) as Login['responses'][200]['content']['application/json'];
  return answer.jwt + ' for ' + (answer.user.username ?? '');
}

/** Every zone component, told apart by __component (the switch must be exhaustive to compile). */
export function zoneText(zone: Zone): string {
  switch (zone.__component) {
    case 'shared.quote':
      return (zone.title ?? '') + (zone.author?.name ?? '');
    case 'shared.rich-text':
      return zone.body ?? '';
    case 'shared.media-block':
      return zone.file?.url ?? '';
  }
}

export function summary(answer: ListAnswer): string[] {
  const pagination = answer.meta.pagination;
  const total = 'page' in pagination ? pagination.pageCount : pagination.total;
  return answer.data.map((article) => \`\${article.documentId} \${article.title ?? ''} \${article.views ?? 0} \${total ?? 0}\`);
}

export const draft: CreateBody = {
  data: {
    title: 'Hello',
    category: 'tech',
    bigcount: '9007199254740993',
    cover: 1,
    tags: { connect: [{ documentId: 'abc', position: { start: true } }] },
    seo: { metaTitle: 'SEO', keywords: [{ word: 'cms' }] },
    blocks: [{ __component: 'shared.quote', title: 'Q', author: 'abc' }, { __component: 'shared.rich-text', body: 'Hi' }],
  },
};
`;

/** Each line breaks the contract once. */
const WRONG = [
  `import type { CreateBody, ListAnswer, ListQuery } from './client.js';`,
  `export const a: CreateBody = { data: { title: 3 } };`,
  `export const b: CreateBody = { data: { nope: true } };`,
  `export const c: CreateBody = { data: { category: 'sports' } };`,
  `export const d: CreateBody = { data: { blocks: [{ __component: 'shared.nope' }] } };`,
  `export const e = (answer: ListAnswer): number => answer.data[0]?.missing;`,
  `export const f: ListQuery = { status: 'archived' };`,
].join('\n');

describe('types generated from the OpenAPI document', () => {
  let server: TestServer;
  let schema: string;

  beforeAll(async () => {
    server = await startTestServer({ files: { 'config/plugins.js': pluginsWithDocumentation() } });
    const response = await server.request('GET', '/documentation/openapi.json');
    expect(response.status).toBe(200);
    schema = await generatedTypes(response.json as OpenApiJson);
  });
  afterAll(() => server?.close());

  it('openapi-typescript describes every path and schema', () => {
    expect(schema).toContain('"/articles/{documentId}": {');
    expect(schema).toContain('"/upload/files/page": {');
    expect(schema).toMatch(/__component: "shared\.quote";/);
  });

  it('type-check a small client under strict settings', () => {
    expect(typeCheck({ 'schema.ts': schema, 'client.ts': CLIENT })).toEqual([]);
  });

  it('refuse code that breaks the contract, once per broken line', () => {
    const problems = typeCheck({ 'schema.ts': schema, 'client.ts': CLIENT, 'wrong.ts': WRONG });
    const lines = problems.map((problem) => problem.split(' ')[0]);
    expect(lines).toEqual(['wrong.ts:2', 'wrong.ts:3', 'wrong.ts:4', 'wrong.ts:5', 'wrong.ts:6', 'wrong.ts:7']);
  });
});
