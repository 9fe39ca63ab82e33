import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

for (const database of inject('databases')) {
  describe(`[${database}] concurrent requests`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database });
    });
    afterAll(() => server.close());

    it('interleaved writes, failures and reads each see only committed work', async () => {
      const requests = Array.from({ length: 60 }, (_, i) => {
        if (i % 3 === 0)
          return server.request('POST', '/api/articles', { body: { data: { title: `ok ${i}`, views: i } } });
        if (i % 3 === 1)
          return server.request('POST', '/api/articles', { body: { data: { summary: `no title ${i}` } } });
        return server.request('GET', '/api/articles?pagination[pageSize]=100&fields[0]=title');
      });
      const responses = await Promise.all(requests);
      responses.forEach((response, i) => {
        const expected = i % 3 === 0 ? 201 : i % 3 === 1 ? 400 : 200;
        expect(response.status, `request ${i}: ${response.text.slice(0, 200)}`).toBe(expected);
      });
      for (const [i, response] of responses.entries()) {
        if (i % 3 === 2) for (const doc of response.json.data) expect(doc.title).toMatch(/^ok \d+$/);
      }
      const published = await server.request('GET', '/api/articles?pagination[pageSize]=100');
      expect(published.json.meta.pagination.total).toBe(20);
      const drafts = await server.request('GET', '/api/articles?status=draft&pagination[pageSize]=100');
      expect(drafts.json.meta.pagination.total).toBe(20);
    });

    it('unique checks hold under concurrent writes of different values', async () => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          server.request('POST', '/api/authors', { body: { data: { name: `author ${i}` } } }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
      const list = await server.request('GET', '/api/authors?pagination[pageSize]=100');
      expect(list.json.meta.pagination.total).toBe(20);
    });
  });
}
