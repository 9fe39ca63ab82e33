import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cairnWithEnv, startCairn } from './support/cli.js';
import { pluginsWithGraphql } from './support/graphql.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * The built server (`npm test` builds first) keeps the packages only some runs use out of
 * dist/cairn.cjs, in dist/vendor/*.cjs (scripts/bundle-vendors.mjs), and loads each group when
 * first needed. The other tests run Cairn from its sources: these run the build, through each
 * vendored package: GraphQL (graphql, graphql-jit), admin JWTs (jose), an upload (file-type,
 * mime-types, slugify) and commands (cli-table3, tar-stream, cli-progress). Redis (ioredis) is
 * run by the multi-instance tests, which start built servers too, and pino-pretty by cli-logs. A
 * project's ES module config file is imported by path, through dist/import-file.cjs (the bundle, a
 * node:vm script, has no `import()`).
 */

const ROOT = resolve(import.meta.dirname, '..');
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe('the built server loads its vendored packages when they are first needed, and files by path', () => {
  it('a script per group, under dist/vendor', () => {
    const scripts = readdirSync(join(ROOT, 'dist/vendor')).filter((name) => name.endsWith('.cjs'));
    expect(scripts.sort()).toEqual(
      ['commands', 'file-type', 'graphql', 'ioredis', 'jose', 'mime-types', 'pino-pretty', 'slugify'].map(
        (group) => `${group}.cjs`,
      ),
    );
    // What a start reads and V8 holds: the bundle without them. Sucrase (~390 KB with its one
    // dependency) stays in the bundle on purpose: a TypeScript project's first start compiles its
    // files with it, and from the bundle's code cache it is ready at once, where its own script
    // costs ~24 ms to compile on every such start (src/core/sucrase-transform.ts). 2.72 MB on
    // 2026-12-02, after plugins, extensions, admin conditions, read lifecycles and type generation
    // (Cairn's own modules, run only when first imported: test/production-install.test.ts).
    expect(statSync(join(ROOT, 'dist/cairn.cjs')).size).toBeLessThan(2_800_000);
  });

  it('GraphQL, an .mjs config file, an admin login, an upload and the commands work from the build', async () => {
    const project = mkdtempSync(join(tmpdir(), 'cairn-vendors-'));
    temp.push(project);
    cpSync(EXAMPLE_PROJECT, project, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
    writeFileSync(join(project, 'config/plugins.js'), pluginsWithGraphql());
    // An ES module config file, imported by path at run time (src/core/import-file.ts), with a
    // value the answers show: the REST page size.
    rmSync(join(project, 'config/api.js'));
    writeFileSync(
      join(project, 'config/api.mjs'),
      'export default { rest: { defaultLimit: 3, maxLimit: 100, withCount: true } };\n',
    );
    const running = await startCairn(project);
    try {
      const graphql = await fetch(`${running.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename articles { documentId } }' }),
      });
      expect(graphql.status).toBe(200);
      expect(await graphql.json()).toMatchObject({ data: { __typename: 'Query' } });
      const page = await fetch(`${running.base}/api/articles`);
      expect(page.status).toBe(200);
      expect(((await page.json()) as { meta: { pagination: unknown } }).meta.pagination).toMatchObject({ pageSize: 3 });

      const registered = await fetch(`${running.base}/admin/register-admin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'vendors@example.com', password: 'Vendors1234', firstname: 'Ven' }),
      });
      expect(registered.status).toBe(200);
      const { token } = ((await registered.json()) as { data: { token: string } }).data;
      const auth = { authorization: `Bearer ${token}` };
      const me = await fetch(`${running.base}/admin/users/me`, { headers: auth });
      expect(me.status).toBe(200);

      const form = new FormData();
      form.append('files', new Blob(['Hello, vendored world.\n'], { type: 'text/plain' }), 'Grüße Welt.txt');
      const uploaded = await fetch(`${running.base}/upload`, { method: 'POST', headers: auth, body: form });
      expect(uploaded.status).toBe(201);
      const [file] = (await uploaded.json()) as { name: string; hash: string; ext: string; mime: string }[];
      expect(file).toMatchObject({ name: 'Grüße Welt.txt', ext: '.txt', mime: 'text/plain' });
      expect(file?.hash).toMatch(/^Gruesse_Welt_[0-9a-f]{10}$/);
    } finally {
      expect(await running.stop()).toBe(0);
    }

    const listed = await cairnWithEnv({}, 'content-types:list', '--dir', project);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toContain('api::article.article');
    const archive = join(project, 'backup');
    const exported = await cairnWithEnv({}, 'export', '--dir', project, '--file', archive, '--no-encrypt');
    expect(exported.code).toBe(0);
    expect(existsSync(`${archive}.tar.gz`)).toBe(true);
    expect(statSync(`${archive}.tar.gz`).size).toBeGreaterThan(100);
  });
  it("knex (strapi.db.connection, strapi.db.transaction's trx) is required from node_modules when first used", async () => {
    const project = mkdtempSync(join(tmpdir(), 'cairn-knex-'));
    temp.push(project);
    cpSync(EXAMPLE_PROJECT, project, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
    mkdirSync(join(project, 'src/api/sql/routes'), { recursive: true });
    mkdirSync(join(project, 'src/api/sql/controllers'), { recursive: true });
    writeFileSync(
      join(project, 'src/api/sql/routes/sql.js'),
      `module.exports = { routes: [
  { method: 'GET', path: '/sql/loaded', handler: 'sql.loaded', config: { auth: false } },
  { method: 'POST', path: '/sql/tags', handler: 'sql.create', config: { auth: false } },
] };`,
    );
    writeFileSync(
      join(project, 'src/api/sql/controllers/sql.js'),
      `const { sep } = require('path');
module.exports = {
  loaded(ctx) {
    ctx.body = { knex: Object.keys(require.cache).some((file) => file.includes(sep + 'node_modules' + sep + 'knex' + sep)) };
  },
  async create(ctx) {
    ctx.body = await strapi.db.transaction(async ({ trx }) => {
      const tag = await strapi.documents('api::tag.tag').create({ data: { name: ctx.request.body.name } });
      await trx('tags').where({ document_id: tag.documentId }).update({ name: tag.name + ' +trx' });
      const { n } = await strapi.db.connection('tags').where('name', 'like', '%+trx').count('* as n').first();
      return { name: (await strapi.documents('api::tag.tag').findOne({ documentId: tag.documentId })).name, n };
    });
  },
};`,
    );
    const running = await startCairn(project);
    try {
      const loaded = async () =>
        ((await (await fetch(`${running.base}/api/sql/loaded`)).json()) as { knex: boolean }).knex;
      expect(await loaded()).toBe(false);
      const created = await fetch(`${running.base}/api/sql/tags`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'built' }),
      });
      expect(created.status).toBe(200);
      expect(await created.json()).toEqual({ name: 'built +trx', n: 1 });
      expect(await loaded()).toBe(true);
    } finally {
      expect(await running.stop()).toBe(0);
    }
  });
});
