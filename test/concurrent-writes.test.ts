import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertFile } from './support/files.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import {
  finalStateProblems,
  incompleteRowProblems,
  orphanRowProblems,
  publishedCopyProblems,
  unexpectedAnswers,
} from './support/write-load-checks.js';
import { runWriteLoad, type LoadFixtures, type LoadSend } from './support/write-load.js';

/*
 * Many clients writing at once, racing on the same documents: creates with relations, media,
 * components, dynamic zones and passwords; updates (scalars, relation connect/disconnect,
 * components, zones, a second locale, drafts); racing publishes; updates racing deletes. No
 * answer may be a 5xx (or a 400 to a valid body), no deleted document may come back, every
 * acknowledged write must be readable, and no orphan row may be left.
 */
/** The load takes 5–25 s alone on the 2-core VM; more beside other test files. */
const LOAD_TIMEOUT_MS = 180_000;

for (const database of inject('databases')) {
  describe(`[${database}] concurrent writes`, () => {
    let server: TestServer;
    let fixtures: LoadFixtures;
    /** What the server logged as failed requests (500s). */
    const failures: string[] = [];
    const send: LoadSend = async (method, path, body) => {
      const response = await server.request(method, path, { auth: 'full', ...(body === undefined ? {} : { body }) });
      return { status: response.status, json: response.json };
    };
    const sql = (text: string) => server.app.db.all({ sql: text, params: [] });

    beforeAll(async () => {
      server = await startTestServer({
        database,
        logger: pino(
          { level: 'error' },
          {
            write: (line: string) =>
              void failures.push((({ err }) => `${err?.message} ${err?.sql ?? ''}`)(JSON.parse(line))),
          },
        ),
      });
      const documentIds = async (plural: string, field: string, values: string[]) =>
        Promise.all(
          values.map(async (value) =>
            String((await send('POST', `/api/${plural}`, { data: { [field]: value } })).json?.data?.documentId),
          ),
        );
      fixtures = {
        authors: await documentIds('authors', 'name', ['Ada', 'Grace', 'Edsger']),
        tags: await documentIds('tags', 'name', ['a', 'b', 'c', 'd']),
        files: [
          await insertFile(server, 'one.png'),
          await insertFile(server, 'two.png'),
          await insertFile(server, 'three.png'),
        ],
      };
    });
    afterAll(() => server.close());

    it(
      '12 clients creating, updating, publishing and deleting at once: no 5xx, nothing lost, nothing back, no orphan',
      async () => {
        const log = await runWriteLoad(send, fixtures, { clients: 12, operations: 25, seed: 16 });
        expect(log.length).toBeGreaterThan(300);
        expect(failures).toEqual([]);
        expect(unexpectedAnswers(log)).toEqual([]);
        // The races happened: some updates lost to a delete, some deletes came after others.
        expect(log.filter((w) => w.op === 'delete' && w.status === 204).length).toBeGreaterThan(10);
        expect(await finalStateProblems(log, sql)).toEqual([]);
        expect(await orphanRowProblems(sql)).toEqual([]);
        expect(await incompleteRowProblems(sql)).toEqual([]);
        expect(await publishedCopyProblems(sql)).toEqual([]);
        for (const deleted of log.filter((w) => w.op === 'delete' && w.status === 204).slice(0, 20)) {
          expect((await send('GET', `/api/articles/${deleted.documentId}?status=draft`)).status).toBe(404);
        }
      },
      LOAD_TIMEOUT_MS,
    );

    it('eight first PUTs of a single type at once create one document, and each of them is answered 200', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) => send('PUT', '/api/global', { data: { siteName: `site ${i}` } })),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
      const rows = await sql('select document_id from globals');
      expect(rows).toHaveLength(1);
      expect(new Set(responses.map((r) => r.json?.data?.documentId))).toEqual(new Set([rows[0]?.document_id]));
    });

    it('eight creates of one unique name at once: one is created, seven are told the name is taken', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, () => send('POST', '/api/authors', { data: { name: 'Same name' } })),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(7).fill(400)]);
      for (const refused of responses.filter((r) => r.status === 400))
        expect(refused.json?.error?.message).toBe('This attribute must be unique');
      expect(await sql("select id from authors where name = 'Same name'")).toHaveLength(1);
    });

    it(
      'an article and the tag and author it links, written from both sides at once: every write answered 200, each link stored once',
      async () => {
        for (let round = 0; round < 6; round += 1) {
          const article = (await send('POST', '/api/articles', { data: { title: `pair ${round}` } })).json?.data
            ?.documentId;
          const tag = (await send('POST', '/api/tags', { data: { name: `pair tag ${round}` } })).json?.data?.documentId;
          const author = (await send('POST', '/api/authors', { data: { name: `pair author ${round}` } })).json?.data
            ?.documentId;
          const answers = await Promise.all([
            send('PUT', `/api/articles/${article}`, { data: { tags: { connect: [tag] } } }),
            send('PUT', `/api/tags/${tag}`, { data: { articles: { connect: [article] } } }),
            send('PUT', `/api/articles/${article}`, { data: { author } }),
            send('PUT', `/api/authors/${author}`, { data: { articles: { connect: [article] } } }),
          ]);
          expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
          for (const status of ['draft', 'published']) {
            const read = await send(
              'GET',
              `/api/articles/${article}?status=${status}&populate[tags][fields][0]=name&populate[author][fields][0]=name`,
            );
            expect(read.json?.data?.tags?.map((t) => t.documentId)).toEqual([tag]);
            expect(read.json?.data?.author?.documentId).toBe(author);
          }
        }
        expect(await orphanRowProblems(sql)).toEqual([]);
      },
      LOAD_TIMEOUT_MS,
    );
  });
}
