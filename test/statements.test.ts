import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

for (const database of inject('databases')) describe(`[${database}] statements per request do not depend on the number of rows`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(() => server.close());

  async function statementsFor(path: string): Promise<number> {
    server.resetQueries();
    const response = await server.request('GET', path);
    expect(response.status).toBe(200);
    return server.queries.length;
  }

  it('a list costs one SELECT and one COUNT, for 1 row or 40', async () => {
    await server.request('POST', '/api/tags', { body: { data: { name: 'first' } } });
    const one = await statementsFor('/api/tags');
    for (let i = 0; i < 39; i++) await server.request('POST', '/api/tags', { body: { data: { name: `t${i}` } } });
    const many = await statementsFor('/api/tags?pagination[pageSize]=100');
    expect(one).toBe(2);
    expect(many).toBe(2);
    expect(await statementsFor('/api/tags?pagination[withCount]=false')).toBe(1);
  });

  it('one document costs one SELECT', async () => {
    const created = await server.request('POST', '/api/tags', { body: { data: { name: 'one' } } });
    expect(await statementsFor(`/api/tags/${created.json.data.documentId}`)).toBe(1);
  });

  it('an API token adds its lookup', async () => {
    server.resetQueries();
    await server.request('GET', '/api/tags', { auth: 'readonly' });
    expect(server.queries.length).toBeLessThanOrEqual(4);
    expect(server.queries.some((q) => q.sql.includes('strapi_api_tokens'))).toBe(true);
  });
});
