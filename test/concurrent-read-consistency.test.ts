import { setImmediate } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Principal } from '../src/access/principal.js';
import { normalizeQuery } from '../src/query/normalize-query.js';
import type { ContentType } from '../src/schema/types.js';
import { startTestServer, type TestResponse, type TestServer } from './support/test-server.js';

/*
 * A read is several statements (the documents, one per populate node, the COUNT); a republish
 * replaces the published row and its links and components in one transaction. A read must see
 * all of one state: never an article whose row it read before the republish committed and whose
 * relations and components it read after (they belonged to the deleted row: none), nor a list
 * whose COUNT saw an article its page did not (or the other way round).
 */
const POPULATE = {
  author: true,
  tags: true,
  seo: { populate: { keywords: true } },
  blocks: true,
};
const POPULATE_QS =
  'populate[author]=true&populate[tags]=true&populate[seo][populate][keywords]=true&populate[blocks]=true';
/** Articles republished throughout; one more is created and deleted again and again. */
const ARTICLES = 3;
const WRITERS = 2;
const REPUBLISHES_PER_WRITER = 45;
const CHURN_ROUNDS = 15;
/** Service-level rounds: a read started 0…TICKS-1 microtask turns after a republish started. */
const TICKS = 40;

const FULL_ACCESS: Principal = {
  kind: 'apiToken',
  token: { id: 0, type: 'full-access', expiresAt: null, lastUsedAt: null, permissions: new Set() },
};

interface Article {
  readonly documentId?: unknown;
  readonly author?: { name?: unknown } | null;
  readonly tags?: unknown[];
  readonly seo?: { metaTitle?: unknown; keywords?: unknown[] } | null;
  readonly blocks?: { __component?: unknown }[];
}

/** What is missing from an article read with POPULATE (every one is written complete), or null. */
function tornPart(article: Article): string | null {
  if (typeof article.author?.name !== 'string') return 'author';
  if (article.tags?.length !== 2) return 'tags';
  if (typeof article.seo?.metaTitle !== 'string') return 'seo';
  if (article.seo.keywords?.length !== 2) return 'seo.keywords';
  const kinds = (article.blocks ?? []).map((block) => block.__component).join();
  if (kinds !== 'shared.quote,shared.rich-text') return 'blocks';
  return null;
}

/** Reads and what was wrong with them (the first 20 described). */
function tally() {
  const failures: string[] = [];
  const counts = { reads: 0, torn: 0, failed: 0 };
  const fail = (what: string) => {
    if (failures.length < 20) failures.push(what);
  };
  /** Checks one read: its articles whole, and (a page of `pageSize`, number `page`) its rows agreeing with `total`. */
  const check = (where: string, data: Article | Article[] | null, total?: number, pageSize?: number, page = 1) => {
    counts.reads += 1;
    for (const document of Array.isArray(data) ? data : [data]) {
      const part = document ? tornPart(document) : 'row';
      if (!part) continue;
      counts.torn += 1;
      fail(`${where}: ${String(document?.documentId)} without its ${part}`);
    }
    if (!Array.isArray(data) || total === undefined) return;
    const expected = pageSize === undefined ? total : Math.min(pageSize, Math.max(0, total - (page - 1) * pageSize));
    if (data.length === expected) return;
    counts.torn += 1;
    fail(`${where}: ${data.length} rows, total ${total}`);
  };
  return { failures, counts, fail, check };
}

for (const database of inject('databases')) {
  describe(`[${database}] reads while the documents they read are republished`, () => {
    let server: TestServer;
    let articleType: ContentType;
    const articles: string[] = [];
    const send = (method: string, path: string, data?: Record<string, unknown>): Promise<TestResponse> =>
      server.request(method, path, { auth: 'full', ...(data ? { body: { data } } : {}) });
    const create = async (plural: string, data: Record<string, unknown>): Promise<string> => {
      const response = await send('POST', `/api/${plural}`, data);
      expect(response.status).toBe(201);
      return response.json.data.documentId as string;
    };
    let article: (title: string) => Record<string, unknown>;
    beforeAll(async () => {
      server = await startTestServer({ database });
      articleType = server.app.project.schema.contentTypes.get('api::article.article') as ContentType;
      const author = await create('authors', { name: 'Ann' });
      const tags = [await create('tags', { name: 'one' }), await create('tags', { name: 'two' })];
      article = (title) => ({
        title,
        author,
        tags,
        seo: { metaTitle: title, keywords: [{ word: 'a' }, { word: 'b' }] },
        blocks: [
          { __component: 'shared.quote', title: 'q', author },
          { __component: 'shared.rich-text', body: 'r' },
        ],
      });
      for (let i = 0; i < ARTICLES; i += 1) articles.push(await create('articles', article(`article ${i}`)));
    });
    afterAll(() => server.close());

    it(`HTTP: ${WRITERS} writers republish ${ARTICLES} articles ${WRITERS * REPUBLISHES_PER_WRITER} times and a third creates and deletes one while 4 readers read: every populated article and every list's total is whole`, async () => {
      const { failures, counts, fail, check } = tally();
      let done = false;
      const readLoop = async (path: (round: number) => string, pageSize?: number, page?: number) => {
        for (let round = 0; !done; round += 1) {
          // The server records every statement (for tests that count them): not needed here.
          server.resetQueries();
          // In-process requests on SQLite never wait for I/O: without a turn of the event loop,
          // readers would run on microtasks alone and starve the writers.
          await setImmediate();
          const at = path(round);
          const response = await server.request('GET', at, { auth: 'full' });
          if (response.status !== 200) {
            counts.failed += 1;
            fail(`${at}: ${response.status} ${response.text.slice(0, 200)}`);
            continue;
          }
          check(at, response.json.data, response.json.meta?.pagination?.total, pageSize, page);
        }
      };
      const writes: number[] = [];
      const writer = async (w: number) => {
        for (let round = 0; round < REPUBLISHES_PER_WRITER; round += 1) {
          const target = articles[(round + w) % ARTICLES] as string;
          writes.push((await send('PUT', `/api/articles/${target}`, { summary: `w${w} r${round}` })).status);
        }
      };
      const churn = async () => {
        for (let round = 0; round < CHURN_ROUNDS; round += 1) {
          const documentId = await create('articles', article(`churn ${round}`));
          writes.push((await send('DELETE', `/api/articles/${documentId}`)).status);
        }
      };
      const readers = Promise.all([
        readLoop((round) => `/api/articles/${articles[round % ARTICLES]}?${POPULATE_QS}`),
        readLoop((round) => `/api/articles/${articles[(round + 1) % ARTICLES]}?${POPULATE_QS}`),
        readLoop(() => `/api/articles?${POPULATE_QS}&pagination[pageSize]=100`),
        readLoop(() => `/api/articles?${POPULATE_QS}&pagination[pageSize]=2&pagination[page]=2`, 2, 2),
      ]);
      try {
        await Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), churn()]);
      } finally {
        done = true;
        await readers;
      }
      console.log(
        `[${database}] HTTP: ${counts.reads + counts.failed} reads, ${counts.torn} torn, ${counts.failed} not 200`,
      );
      expect(failures).toEqual([]);
      expect(writes.filter((status) => status !== 200 && status !== 204)).toEqual([]);
      expect(counts.reads).toBeGreaterThan(100);
    }, 300_000);

    it(`document service: a findOne and a findMany started 0…${TICKS - 1} microtask turns after a republish read it whole`, async () => {
      // Over HTTP each SQLite request runs in its own turn of the event loop; callers in the same
      // process (another consumer, a plugin) interleave with a write statement by statement.
      const { schema, config } = server.app.project;
      const query = (raw: Record<string, unknown>) =>
        normalizeQuery(schema, articleType, raw, { api: config.api, defaultLocale: config.i18n.defaultLocale });
      const { documents } = server.app;
      const { failures, counts, check } = tally();
      for (let ticks = 0; ticks < TICKS; ticks += 1) {
        const target = articles[ticks % ARTICLES] as string;
        const write = documents.update(articleType, target, { summary: `tick ${ticks}` }, query({}), FULL_ACCESS);
        for (let turn = 0; turn < ticks; turn += 1) await Promise.resolve();
        const [one, many] = await Promise.all([
          documents.findOne(articleType, target, query({ populate: POPULATE }), FULL_ACCESS),
          documents.findMany(articleType, query({ populate: POPULATE, pagination: { pageSize: 100 } }), FULL_ACCESS),
          write,
        ]);
        check(`findOne after ${ticks} turns`, one as Article | null);
        check(`findMany after ${ticks} turns`, many.documents as Article[], many.pagination.total);
      }
      console.log(`[${database}] service: ${counts.reads} reads, ${counts.torn} torn`);
      expect(failures).toEqual([]);
    }, 120_000);
  });
}
