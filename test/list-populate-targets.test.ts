import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * A list reads its own relations and media in two statements — the links in stored order, then
 * each distinct target once (documents/populate-separately.ts) — where one document joins them.
 * Both must answer the same: every entry of a list equals that document read alone, for shared
 * targets, targets the status leaves out, the stored order, populate filters and drafts.
 */
for (const database of inject('databases'))
  describe(`[${database}] a list's populated relations equal each document's own`, () => {
    let server: TestServer;
    const auth = 'full' as const;

    const create = async (path: string, data: Record<string, unknown>, query = '') => {
      const response = await server.request('POST', `${path}${query}`, { auth, body: { data } });
      expect(response.status, response.text).toBe(201);
      return response.json.data.documentId as string;
    };

    beforeAll(async () => {
      server = await startTestServer({ database });
      const ada = await create('/api/authors', { name: 'Ada' });
      const ben = await create('/api/authors', { name: 'Ben' });
      const [one, two, three] = [
        await create('/api/tags', { name: 'one' }),
        await create('/api/tags', { name: 'two' }),
        await create('/api/tags', { name: 'three' }),
      ];
      // A tag never published, linked from published and draft articles.
      const hidden = await create('/api/tags', { name: 'hidden' }, '?status=draft');
      await create('/api/articles', { title: 'A', author: ada, editor: ben, tags: [two, one, hidden, three] });
      await create('/api/articles', { title: 'B', author: ada, tags: [one] });
      await create('/api/articles', { title: 'C', tags: [] });
      await create('/api/articles', { title: 'D', author: ben, editor: ada, tags: [three, two] });
      await create('/api/articles', { title: 'E', author: ben, tags: [hidden] }, '?status=draft');
    });
    afterAll(async () => server?.close());

    /** The list's data, and each of its documents read alone with the same query. */
    async function listAndEach(query: string) {
      const list = await server.request('GET', `/api/articles?sort=title&${query}`, { auth });
      expect(list.status, list.text).toBe(200);
      const alone = [];
      for (const item of list.json.data as { documentId: string }[]) {
        const one = await server.request('GET', `/api/articles/${item.documentId}?${query}`, { auth });
        expect(one.status, one.text).toBe(200);
        alone.push(one.json.data);
      }
      return { list: list.json.data as Record<string, unknown>[], alone };
    }

    it('populate=*: shared authors and tags, in stored order', async () => {
      const { list, alone } = await listAndEach('populate=*');
      expect(list).toEqual(alone);
      expect(list.map((article) => article.title)).toEqual(['A', 'B', 'C', 'D']);
      const names = (article: Record<string, unknown>) =>
        (article.tags as { name: string }[]).map((tag) => tag.name).filter((name) => name !== 'hidden');
      expect(list.map(names)).toEqual([['two', 'one', 'three'], ['one'], [], ['three', 'two']]);
      expect(list.map((article) => (article.author as { name: string } | null)?.name ?? null)).toEqual([
        'Ada',
        'Ada',
        null,
        'Ben',
      ]);
      // The same author object content for both of Ada's articles.
      expect(list[0]?.author).toEqual(list[1]?.author);
    });

    it('drafts: the draft versions of targets, the never-published tag included', async () => {
      const { list, alone } = await listAndEach('status=draft&populate[tags]=true&populate[author]=true');
      expect(list).toEqual(alone);
      const e = list.find((article) => article.title === 'E');
      expect((e?.tags as { name: string }[]).map((tag) => tag.name)).toEqual(['hidden']);
    });

    it('populate filters, fields and nested populate', async () => {
      const query =
        'populate[tags][filters][name][$in][0]=two&populate[tags][filters][name][$in][1]=three&populate[tags][fields][0]=name' +
        '&populate[author][populate][articles][fields][0]=title&populate[editor][fields][0]=name';
      const { list, alone } = await listAndEach(query);
      expect(list).toEqual(alone);
      expect(list.map((article) => (article.tags as { name: string }[]).map((tag) => tag.name))).toEqual([
        ['two', 'three'],
        [],
        [],
        ['three', 'two'],
      ]);
      expect(list[0]?.tags).toEqual([
        { id: expect.any(Number), documentId: expect.any(String), name: 'two' },
        { id: expect.any(Number), documentId: expect.any(String), name: 'three' },
      ]);
    });

    it('a page of one, and a page past the last, answer as their documents', async () => {
      for (const page of [1, 2, 3, 4, 5]) {
        const { list, alone } = await listAndEach(`pagination[pageSize]=1&pagination[page]=${page}&populate=*`);
        expect(list).toEqual(alone);
        expect(list).toHaveLength(page <= 4 ? 1 : 0);
      }
    });
  });
