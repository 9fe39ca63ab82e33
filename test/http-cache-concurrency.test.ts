import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiConfigWith, probe, type Probe } from './support/http-cache.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Never stale after a write's response: many clients write their own documents while others read
 * the same GETs as fast as they can (filling the response cache while the writes land). Each
 * writer, as soon as its write is answered, reads its document alone, in a list and through
 * another type's populate — with the memory store on and with its last ETag in If-None-Match —
 * and must see what it wrote, every time.
 */
const WRITERS = 6;
const ROUNDS = 12;
const READERS = 4;

for (const database of inject('databases'))
  describe(`[${database}] HTTP cache: a GET after a write's answer never gets the old answer`, () => {
    let server: TestServer;
    const authors: string[] = [];
    beforeAll(async () => {
      server = await startTestServer({ database, files: apiConfigWith(`{ store: 'memory' }`) });
      for (let w = 0; w < WRITERS; w++) {
        const author = await server.request('POST', '/api/authors', { body: { data: { name: `w${w}-start` } } });
        authors.push(author.json.data.documentId);
        await server.request('POST', '/api/articles', {
          body: { data: { title: `article of w${w}`, author: author.json.data.documentId } },
        });
      }
    });
    afterAll(() => server?.close());

    /** The GETs a writer checks after each write: its author alone, the list, articles with their authors. */
    const readsOf = (w: number) => [
      `/api/authors/${authors[w]}`,
      `/api/authors?filters[name][$startsWith]=w${w}-&pagination[pageSize]=5`,
      `/api/articles?filters[title][$eq]=article of w${w}&populate[author][fields][0]=name`,
    ];
    const nameIn = (path: string, answer: Probe): string => {
      const data = JSON.parse(answer.text).data;
      if (path.startsWith('/api/authors/')) return data.name;
      if (path.startsWith('/api/authors?')) return data[0].name;
      return data[0].author.name;
    };

    it(`${WRITERS} writers × ${ROUNDS} rounds with ${READERS} readers: every read after a write shows it`, async () => {
      let writing = WRITERS;
      const stale: string[] = [];
      const writer = async (w: number) => {
        const etags = new Map<string, string>();
        for (let round = 0; round < ROUNDS; round++) {
          const name = `w${w}-${round}`;
          const written = await server.request('PUT', `/api/authors/${authors[w]}`, { body: { data: { name } } });
          expect(written.status).toBe(200);
          for (const path of readsOf(w)) {
            const previous = etags.get(path);
            const answer = await probe(server.app, path, previous ? { 'if-none-match': previous } : {});
            if (answer.status !== 200 || nameIn(path, answer) !== name)
              stale.push(`${path} after ${name}: ${answer.status} ${answer.cache} ${answer.text.slice(0, 120)}`);
            etags.set(path, answer.etag!);
          }
        }
        writing -= 1;
      };
      const reader = async (r: number) => {
        let reads = 0;
        while (writing > 0) {
          for (let w = r % WRITERS; w < WRITERS; w += 2) for (const path of readsOf(w)) await probe(server.app, path);
          reads += 1;
          // An answer from the cache resolves without I/O: let the writes' database replies in.
          await new Promise((done) => setImmediate(done));
        }
        return reads;
      };
      const [, reads] = await Promise.all([
        Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w))),
        Promise.all(Array.from({ length: READERS }, (_, r) => reader(r))),
      ]);
      expect(stale).toEqual([]);
      expect(reads.every((count) => count > 0)).toBe(true);
    }, 120_000);
  });
