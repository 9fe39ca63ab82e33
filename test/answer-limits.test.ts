import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCairn, type RunningCairn } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { pluginsWithGraphql } from './support/graphql.js';
import { megabytes, peakGrowth } from './support/process-memory.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * One anonymous request must not exhaust the server. 12 articles each linked to the same 12 tags
 * (many-to-many) make a cycle: `articles → tags → articles → …` repeats every entry under each
 * parent, 12^(depth+1) entries at the last level, from 12 + 144 rows per level. Before
 * `answerLimits`, depth 5 answered 3.3 million entries (~260 MB) and GraphQL's nested lists the
 * same. Now a read counts the entries its answer will hold as each level's rows arrive and stops
 * with a 400 past `answerLimits` (100,000 entries, 64 MB by default) — before the next level
 * and before serialising — so the server's resident memory barely moves. The memory is the
 * `cairn start` child's own (its peak during the request, /proc/<pid>/status).
 */

const SIDE = 12;
/** Far below what answering would take (hundreds of MB); a refused read reads a few hundred rows. */
const MAX_GROWTH = 48 * 1024 * 1024;
const SECRETS = {
  ADMIN_JWT_SECRET: 'answer-limits-admin',
  API_TOKEN_SALT: 'answer-limits-salt',
  JWT_SECRET: 'answer-limits-jwt',
  ENCRYPTION_KEY: 'answer-limits-encryption',
  APP_KEYS: 'a,b',
};

/** `populate` of `articles → tags → articles…`, `depth` levels, only titles and names (or every article field). */
function cycle(depth: number, articleFields: 'title' | 'all' = 'title'): string {
  const level = (remaining: number, target: 'tags' | 'articles'): Record<string, unknown> => {
    const fields = target === 'tags' ? { fields: ['name'] } : articleFields === 'title' ? { fields: ['title'] } : {};
    const next = target === 'tags' ? 'articles' : 'tags';
    const node = { ...fields, ...(remaining > 1 && { populate: level(remaining - 1, next) }) };
    // An empty object would not reach the query string: `true` populates with every field.
    return { [target]: Object.keys(node).length > 0 ? node : true };
  };
  const root = articleFields === 'title' ? { fields: ['title'] } : {};
  return `/api/articles?${qs.stringify({ ...root, pagination: { pageSize: SIDE }, populate: level(depth, 'tags') }, { encodeValuesOnly: true })}`;
}

/** The same cycle as GraphQL nested lists, `depth` lists under `articles`. */
function graphqlCycle(depth: number): string {
  let selection = '';
  for (let level = depth; level >= 1; level--) {
    const field = level % 2 === 1 ? 'tags' : 'articles';
    const scalar = field === 'tags' ? 'name' : 'title';
    selection = `${field} { ${scalar} ${selection} }`;
  }
  return `{ articles(pagination: { limit: ${SIDE} }) { title ${selection} } }`;
}

/** How many entries a cycle of `depth` levels answers: 12 + 12² + … + 12^(depth+1). */
const entriesAt = (depth: number) =>
  Array.from({ length: depth + 1 }, (_, k) => SIDE ** (k + 1)).reduce((a, b) => a + b);

for (const database of inject('databases')) {
  describe(`[${database}] the entries and bytes of one answer are bounded`, () => {
    let dir: string;
    let db: TestDatabase;
    let server: RunningCairn;
    const get = (path: string) => fetch(`${server.base}${path}`);
    const graphql = (query: string) =>
      fetch(`${server.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
    const post = async (plural: string, data: Record<string, unknown>): Promise<string> => {
      const response = await fetch(`${server.base}/api/${plural}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data }),
      });
      const body = (await response.json()) as { data: { documentId: string } };
      if (response.status !== 201) throw new Error(`seeding ${plural}: ${response.status} ${JSON.stringify(body)}`);
      return body.data.documentId;
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-answer-limits-'));
      cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp|build)$/.test(source) });
      writeFileSync(join(dir, 'config/plugins.js'), pluginsWithGraphql());
      db = await createTestDatabase(database);
    });
    afterAll(async () => {
      await server?.stop();
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    describe('with the default limits', () => {
      beforeAll(async () => {
        server = await startCairn(dir, { ...SECRETS, ...db.env });
        const tags: string[] = [];
        for (let i = 1; i <= SIDE; i++) tags.push(await post('tags', { name: `tag ${i}` }));
        for (let i = 1; i <= SIDE; i++) await post('articles', { title: `article ${i}`, tags });
      });
      afterAll(async () => {
        await server?.stop();
      });

      it('a populate cycle 5 levels deep is a 400 naming the limit, and the server stays small', async () => {
        let status = 0;
        let body: { data: unknown; error: { name: string; message: string; details: unknown } } | undefined;
        const growth = await peakGrowth(server.pid, async () => {
          const response = await get(cycle(5));
          status = response.status;
          body = (await response.json()) as typeof body;
        });
        expect(status, JSON.stringify(body).slice(0, 300)).toBe(400);
        expect(body).toEqual({
          data: null,
          error: {
            status: 400,
            name: 'ValidationError',
            message: expect.stringContaining('more than 100000 entries'),
            details: { limit: 'answerLimits.maxEntries', max: 100000 },
          },
        });
        expect(body?.error.message).toContain('raise answerLimits.maxEntries in config/api');
        expect(growth, `resident memory grew by ${megabytes(growth)}`).toBeLessThan(MAX_GROWTH);
      }, 120_000);

      it('the same cycle as GraphQL nested lists is a BAD_USER_INPUT error, and the server stays small', async () => {
        let status = 0;
        let body: { data: unknown; errors: { message: string; extensions: Record<string, unknown> }[] } | undefined;
        const growth = await peakGrowth(server.pid, async () => {
          const response = await graphql(graphqlCycle(5));
          status = response.status;
          body = (await response.json()) as typeof body;
        });
        expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
        // `articles` is a non-null list (`[Article]!`): its error nulls `data`, as graphql-js does.
        expect(body?.data).toBeNull();
        expect(body?.errors).toEqual([
          {
            message: expect.stringContaining('raise answerLimits.maxEntries in config/api'),
            path: ['articles'],
            extensions: {
              code: 'BAD_USER_INPUT',
              error: {
                name: 'ValidationError',
                message: expect.stringContaining('more than 100000 entries'),
                details: { limit: 'answerLimits.maxEntries', max: 100000 },
              },
            },
          },
        ]);
        expect(growth, `resident memory grew by ${megabytes(growth)}`).toBeLessThan(MAX_GROWTH);
      }, 120_000);

      it('one GraphQL request shares its budget between root fields (aliases cannot multiply it)', async () => {
        // Each alias alone stays under the limit (22,620 entries); five of them do not.
        const one = graphqlCycle(3).slice(1, -1).trim();
        const query = `{ ${[1, 2, 3, 4, 5].map((n) => `a${n}: ${one}`).join(' ')} }`;
        const body = (await (await graphql(query)).json()) as { errors?: { extensions: { code: string } }[] };
        expect(body.errors?.map((error) => error.extensions.code)).toContain('BAD_USER_INPUT');
      }, 60_000);

      it('a deep populate within the limits answers every entry', async () => {
        const response = await get(cycle(3));
        const body = (await response.json()) as {
          data: { tags: { articles: { tags: unknown[] }[] }[] }[];
        };
        expect(response.status).toBe(200);
        let entries = 0;
        const count = (value: unknown): void => {
          if (Array.isArray(value)) return value.forEach(count);
          if (value && typeof value === 'object') {
            entries += 1;
            for (const child of Object.values(value)) if (typeof child === 'object') count(child);
          }
        };
        count(body.data);
        expect(entries).toBe(entriesAt(3));
        expect(body.data[0]?.tags[0]?.articles[0]?.tags).toHaveLength(SIDE);
        const nested = (await (await graphql(graphqlCycle(3))).json()) as { data: unknown; errors?: unknown };
        expect(nested.errors).toBeUndefined();
        expect(JSON.stringify(nested.data).match(/"name"/g)).toHaveLength(SIDE ** 2 + SIDE ** 4);
      }, 60_000);

      it('4 levels (271,452 entries) are past the default limit', async () => {
        expect(entriesAt(4)).toBeGreaterThan(100_000);
        expect((await get(cycle(4))).status).toBe(400);
      }, 60_000);
    });

    describe('with answerLimits raised in config/api', () => {
      beforeAll(async () => {
        const api = readFileSync(join(EXAMPLE_PROJECT, 'config/api.js'), 'utf8');
        writeFileSync(
          join(dir, 'config/api.js'),
          api.replace(
            'module.exports = {',
            "module.exports = {\n  answerLimits: { maxEntries: 400000, maxSize: '32mb' },",
          ),
        );
        server = await startCairn(dir, { ...SECRETS, ...db.env });
      });

      it('4 levels answer all their entries', async () => {
        const response = await get(cycle(4));
        const text = await response.text();
        expect(response.status, text.slice(0, 300)).toBe(200);
        expect(text.match(/"documentId"/g)).toHaveLength(entriesAt(4));
      }, 60_000);

      it('4 levels of whole articles are past the raised size: a 400 naming answerLimits.maxSize', async () => {
        const response = await get(cycle(4, 'all'));
        const body = (await response.json()) as { error: { message: string; details: unknown } };
        expect(response.status).toBe(400);
        expect(body.error.message).toMatch(/larger than 32 MB .*raise answerLimits\.maxSize in config\/api/);
        expect(body.error.details).toEqual({ limit: 'answerLimits.maxSize', max: 32 * 1024 ** 2 });
      }, 120_000);
    });
  });
}
