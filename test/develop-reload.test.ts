import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCairn, type RunningCairn } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';
import { sleep } from './support/webhook-receiver.js';

/*
 * `cairn develop` (built: `npm run build` first) on a copy of the blog project: a change to a
 * schema, a controller, `config/api.js` is served after the save, without a restart of the
 * process; a file that breaks the project keeps the previous version serving and is named in the
 * log; and requests made while the project reloads (reads and writes, from several clients) all
 * succeed, none lost.
 */

const TAG_SCHEMA = 'src/api/tag/content-types/tag/schema.json';
const TAG_CONTROLLER = 'src/api/tag/controllers/tag.js';

/** A controller for tags whose list answers say which `version` of the file served them. */
const controller = (version: string) => `'use strict';
const { factories } = require('@strapi/strapi');
module.exports = factories.createCoreController('api::tag.tag', () => ({
  async find(ctx) {
    const { data, meta } = await super.find(ctx);
    return { data, meta: { ...meta, version: '${version}' } };
  },
}));
`;

for (const database of inject('databases')) {
  describe(`[${database}] cairn develop reloads the project without dropping a request`, { timeout: 120_000 }, () => {
    let dir: string;
    let db: TestDatabase;
    let cairn: RunningCairn;

    /** Saves `text` into the project file `path` as editors do: a temporary file renamed over it. */
    const save = (path: string, text: string) => {
      const temporary = join(dir, `${path}.tmp-save`);
      writeFileSync(temporary, text);
      renameSync(temporary, join(dir, path));
    };
    const withTagAttribute = (name: string) => {
      const schema = JSON.parse(readFileSync(join(dir, TAG_SCHEMA), 'utf8')) as { attributes: Record<string, unknown> };
      schema.attributes[name] = { type: 'string' };
      return JSON.stringify(schema, null, 2);
    };
    /** Waits (bounded) until `check` holds, asking it again every 20 ms. */
    const eventually = async (check: () => Promise<boolean> | boolean, what: string) => {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(20)) {
        if (await check()) return;
      }
      throw new Error(`not seen within 30 s: ${what}\n${cairn.output().slice(-3000)}`);
    };
    const status = async (path: string) => (await fetch(`${cairn.base}${path}`)).status;
    const listTags = async (query = '') =>
      (await (await fetch(`${cairn.base}/api/tags${query}`)).json()) as {
        data: { name: string; documentId: string }[];
        meta: { version?: string; pagination: { pageSize: number; total: number } };
      };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-develop-reload-'));
      cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
      db = await createTestDatabase(database);
      cairn = await startCairn(dir, db.env, ['develop', '--dir', dir]);
    }, 120_000);
    afterAll(async () => {
      expect(await cairn?.stop()).toBe(0);
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('serves a new attribute of a schema.json once the file is saved', async () => {
      expect(await status('/api/tags?fields[0]=color')).toBe(400);
      save(TAG_SCHEMA, withTagAttribute('color'));
      await eventually(async () => (await status('/api/tags?fields[0]=color')) === 200, 'the color attribute');
      const created = await fetch(`${cairn.base}/api/tags`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { name: 'red one', color: 'red' } }),
      });
      expect(created.status).toBe(201);
      expect(((await created.json()) as { data: { color: string } }).data.color).toBe('red');
      expect(cairn.output()).toMatch(/reloaded in \d+ ms/);
    });

    it("serves a controller's new code, then its edit, and config/api.js's new defaultLimit", async () => {
      save(TAG_CONTROLLER, controller('one'));
      await eventually(async () => (await listTags()).meta.version === 'one', 'the controller');
      save(TAG_CONTROLLER, controller('two'));
      await eventually(async () => (await listTags()).meta.version === 'two', 'the edited controller');
      expect((await listTags()).meta.pagination.pageSize).toBe(25);
      const api = readFileSync(join(dir, 'config/api.js'), 'utf8');
      expect(api).toContain('defaultLimit: 25');
      save('config/api.js', api.replace('defaultLimit: 25', 'defaultLimit: 2'));
      await eventually(async () => (await listTags()).meta.pagination.pageSize === 2, 'the new defaultLimit');
    });

    it('keeps the last good version serving through a broken file, names it, and picks up its fix', async () => {
      const good = readFileSync(join(dir, TAG_SCHEMA), 'utf8');
      let seen = cairn.output().length;
      save(TAG_SCHEMA, '{\n  "kind": "collectionType",\n  oops\n}');
      await eventually(() => cairn.output().slice(seen).includes('reload failed'), 'the broken schema logged');
      expect(cairn.output().slice(seen)).toContain(`${TAG_SCHEMA}: cannot read this schema`);
      expect(cairn.output().slice(seen)).toContain(`(at ${TAG_SCHEMA}:3:3)`);
      expect(await status('/api/tags?fields[0]=color')).toBe(200);
      expect((await listTags()).meta.version).toBe('two');

      save(TAG_SCHEMA, good);
      seen = cairn.output().length;
      save(TAG_CONTROLLER, "'use strict';\nmodule.exports = {\n  async find(ctx) {\n");
      await eventually(() => cairn.output().slice(seen).includes('reload failed'), 'the syntax error logged');
      expect(cairn.output().slice(seen)).toMatch(
        new RegExp(`${TAG_CONTROLLER}: could not load this file: .*${TAG_CONTROLLER}:\\d`),
      );
      expect((await listTags()).meta.version).toBe('two');

      save(TAG_SCHEMA, withTagAttribute('shade'));
      save(TAG_CONTROLLER, controller('three'));
      await eventually(async () => (await listTags()).meta.version === 'three', 'the fixed controller');
      expect(await status('/api/tags?fields[0]=shade')).toBe(200);
    });

    it('answers every request made by several clients during five reloads, and keeps every write', async () => {
      let running = true;
      const failures: string[] = [];
      const createdIds: string[] = [];
      let reads = 0;
      const reader = async () => {
        while (running) {
          try {
            const answer = await fetch(`${cairn.base}/api/tags?pagination[pageSize]=5`);
            await answer.arrayBuffer();
            if (answer.status !== 200) failures.push(`GET ${answer.status}`);
            reads += 1;
          } catch (error) {
            failures.push(`GET ${(error as Error).message}`);
          }
        }
      };
      const writer = async (client: number) => {
        for (let n = 0; running; n++) {
          try {
            const answer = await fetch(`${cairn.base}/api/tags`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ data: { name: `load ${client}-${n}` } }),
            });
            const body = (await answer.json()) as { data?: { documentId: string } };
            if (answer.status !== 201 || !body.data) failures.push(`POST ${answer.status} ${JSON.stringify(body)}`);
            else createdIds.push(body.data.documentId);
          } catch (error) {
            failures.push(`POST ${(error as Error).message}`);
          }
        }
      };
      const clients = [reader(), reader(), writer(1), writer(2)];
      for (let reload = 1; reload <= 5; reload++) {
        const attribute = `extra${reload}`;
        save(TAG_SCHEMA, withTagAttribute(attribute));
        await eventually(async () => (await status(`/api/tags?fields[0]=${attribute}`)) === 200, attribute);
      }
      running = false;
      await Promise.all(clients);
      expect(failures).toEqual([]);
      expect(reads).toBeGreaterThan(0);
      expect(createdIds.length).toBeGreaterThan(0);
      // Every write answered 201 is in the database.
      const stored = new Set<string>();
      for (let page = 1; ; page++) {
        const answer = await listTags(
          `?filters[name][$startsWith]=load&pagination[pageSize]=100&pagination[page]=${page}`,
        );
        for (const tag of answer.data) stored.add(tag.documentId);
        if (answer.data.length < 100) break;
      }
      expect(createdIds.filter((id) => !stored.has(id))).toEqual([]);
      expect(stored.size).toBe(createdIds.length);
      expect(cairn.output().match(/reloaded in \d+ ms/g)?.length ?? 0).toBeGreaterThanOrEqual(5);
    });
  });
}
