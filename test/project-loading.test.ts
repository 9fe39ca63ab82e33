import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectError } from '../src/core/errors.js';
import { loadProject } from '../src/project/load-project.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

const dirs: string[] = [];
function copyExample(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-project-'));
  dirs.push(dir);
  cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const schemaWith = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: 'things',
    info: { singularName: 'thing', pluralName: 'things' },
    attributes,
    ...extra,
  });
const THING = 'src/api/thing/content-types/thing/schema.json';

async function loadError(files: Record<string, string>): Promise<string> {
  const dir = copyExample(files);
  const error = await loadProject(dir, {}).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProjectError);
  return (error as Error).message;
}

describe('loading a Strapi 5 project folder', () => {
  it('reads content types, components and config', async () => {
    const project = await loadProject(copyExample(), {});
    const api = [...project.schema.contentTypes.values()].filter((t) => t.origin === 'api').map((t) => t.uid);
    expect(api).toEqual([
      'api::article.article',
      'api::author.author',
      'api::global.global',
      'api::secret.secret',
      'api::tag.tag',
    ]);
    expect([...project.schema.components.keys()]).toEqual([
      'shared.keyword',
      'shared.media-block',
      'shared.quote',
      'shared.rich-text',
      'shared.seo',
    ]);
    const article = project.schema.contentTypes.get('api::article.article');
    expect(article).toMatchObject({
      table: 'articles',
      draftAndPublish: true,
      localized: true,
      pluralName: 'articles',
    });
    expect(project.config.api).toMatchObject({ defaultLimit: 25, maxLimit: 100, strictParams: true, prefix: '/api' });
    expect(project.config.i18n).toEqual({ locales: ['en', 'fr'], defaultLocale: 'en' });
    expect(project.config.database.filename).toBe(join(project.dir, '.tmp/data.db'));
  });

  it("lists the custom code it will not run (migrations, extensions of plugins it serves without a plugin object), leaving out the files Strapi's generators wrote unchanged", async () => {
    const migration = 'database/migrations/2025.01.01T00.00.00.fill-slugs.js';
    const lifecycles = 'src/api/article/content-types/article/lifecycles.js';
    const extension = 'src/extensions/users-permissions/strapi-server.js';
    const graphqlExtension = 'src/extensions/graphql/strapi-server.js';
    const controller = 'src/api/article/controllers/article.js';
    const project = await loadProject(
      copyExample({
        'src/index.js': "module.exports = { bootstrap({ strapi }) { strapi.log.info('up'); } };",
        [migration]: 'module.exports = { async up() {} };',
        [lifecycles]: 'module.exports = { beforeCreate() {} };',
        [extension]: 'module.exports = (plugin) => plugin;',
        [graphqlExtension]: 'module.exports = (plugin) => plugin;',
        [controller]:
          "module.exports = require('@strapi/strapi').factories.createCoreController('api::article.article', () => ({ async find() { return { data: [] }; } }));",
      }),
      {},
    );
    // src/index, the controller, the lifecycles and the users-permissions extension run now: only
    // what Cairn does not run is listed.
    expect(project.ignoredFiles).toEqual([migration, graphqlExtension]);
    expect(project.code?.plugins.plugins.find((plugin) => plugin.name === 'users-permissions')?.extension).toBe(
      extension,
    );
    expect(project.code?.files.index?.path).toBe('src/index.js');
    expect(project.code?.files.apis.get('article')?.controllers.get('article')?.path).toBe(controller);
    // The example's other controllers, routes and services are the generator's own: not listed, not loaded.
    const generated = await loadProject(
      copyExample({
        'src/index.js':
          "'use strict';\nmodule.exports = {\n  register(/*{ strapi }*/) {},\n  bootstrap(/*{ strapi }*/) {},\n};\n",
      }),
      {},
    );
    expect(generated.ignoredFiles).toEqual([]);
    expect(generated.code).toBeNull();
  });

  it('generates missing secrets into .env once, and the real environment wins', async () => {
    const dir = copyExample();
    const first = await loadProject(dir, {});
    expect(first.generatedSecrets).toEqual([
      'APP_KEYS',
      'API_TOKEN_SALT',
      'ADMIN_JWT_SECRET',
      'JWT_SECRET',
      'ENCRYPTION_KEY',
    ]);
    const env = readFileSync(join(dir, '.env'), 'utf8');
    expect(env).toMatch(/^API_TOKEN_SALT=\S+$/m);
    expect(first.config.server.appKeys).toHaveLength(4);
    const second = await loadProject(dir, {});
    expect(second.generatedSecrets).toEqual([]);
    expect(second.config.admin.apiTokenSalt).toBe(first.config.admin.apiTokenSalt);
    const overridden = await loadProject(dir, { API_TOKEN_SALT: 'from-env', DATABASE_FILENAME: 'other.db' });
    expect(overridden.config.admin.apiTokenSalt).toBe('from-env');
    expect(overridden.config.database.filename).toBe(join(dir, 'other.db'));
  });

  it('reads TypeScript, JSON and per-environment config files', async () => {
    const dir = copyExample({
      'config/env/production/server.js': "module.exports = ({ env }) => ({ port: env.int('PROD_PORT', 4000) });",
    });
    rmSync(join(dir, 'config/api.js'));
    writeFileSync(
      join(dir, 'config/api.ts'),
      "export default ({ env }: { env: (k: string, d: string) => string }) => ({ rest: { prefix: env('API_PREFIX', '/content'), defaultLimit: 10 } });\n",
    );
    rmSync(join(dir, 'config/plugins.js'));
    writeFileSync(
      join(dir, 'config/plugins.json'),
      JSON.stringify({ i18n: { config: { locales: ['fr', 'de'], defaultLocale: 'de' } } }),
    );
    const project = await loadProject(dir, { NODE_ENV: 'production' });
    expect(project.config.api.prefix).toBe('/content');
    expect(project.config.api.defaultLimit).toBe(10);
    expect(project.config.i18n).toEqual({ locales: ['fr', 'de'], defaultLocale: 'de' });
    expect(project.config.server.port).toBe(4000);
  });

  it('rejects a folder that is not a project', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-empty-'));
    dirs.push(dir);
    await expect(loadProject(dir, {})).rejects.toThrow(/does not look like a Strapi project/);
    await expect(loadProject(join(dir, 'missing'), {})).rejects.toThrow(/is not a directory/);
  });

  it('names the file of a config that fails to load', async () => {
    const dir = copyExample({ 'config/server.js': 'module.exports = ({ env }) => { throw new Error("boom"); };' });
    await expect(loadProject(dir, {})).rejects.toThrow(/config\/server\.js: could not load this config file: boom/);
  });
});

describe('a broken schema stops the start with a message naming the file and the attribute', () => {
  it('unknown attribute type', async () => {
    const message = await loadError({ [THING]: schemaWith({ size: { type: 'bigfloat' } }) });
    expect(message).toContain(`${THING}: attribute "size" has an unknown type "bigfloat"`);
  });
  it('relation to an unknown target', async () => {
    const message = await loadError({
      [THING]: schemaWith({ owner: { type: 'relation', relation: 'manyToOne', target: 'api::nobody.nobody' } }),
    });
    expect(message).toContain(`${THING}: attribute "owner" targets "api::nobody.nobody", which is not a content type`);
  });
  it('inversedBy without a matching mappedBy', async () => {
    const message = await loadError({
      [THING]: schemaWith({
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'things' },
      }),
    });
    expect(message).toContain(
      `${THING}: attribute "tags" declares inversedBy "things", but api::tag.tag has no relation "things"`,
    );
  });
  it('missing component', async () => {
    const message = await loadError({ [THING]: schemaWith({ seo: { type: 'component', component: 'shared.nope' } }) });
    expect(message).toContain(`${THING}: attribute "seo" uses the component "shared.nope", which does not exist`);
  });
  it('reserved attribute name', async () => {
    const message = await loadError({ [THING]: schemaWith({ createdAt: { type: 'string' } }) });
    expect(message).toContain(`${THING}: attribute "createdAt" uses a reserved name`);
  });
  it('an index on a column the type does not have', async () => {
    const message = await loadError({
      [THING]: schemaWith(
        { code: { type: 'string' } },
        { indexes: [{ name: 'things_color_idx', columns: ['color'] }] },
      ),
    });
    expect(message).toContain(
      `${THING}: has an invalid "indexes" entry {"name":"things_color_idx","columns":["color"]}`,
    );
  });
  it('enumeration without values', async () => {
    const message = await loadError({ [THING]: schemaWith({ kind: { type: 'enumeration' } }) });
    expect(message).toContain('attribute "kind" is an enumeration without an "enum" array');
  });
  it('invalid JSON', async () => {
    const message = await loadError({ [THING]: '{ "kind": ' });
    expect(message).toMatch(new RegExp(`^${THING.replace(/\./g, '\\.')}: cannot read this schema`));
  });
  it('missing collectionName', async () => {
    const message = await loadError({
      [THING]: JSON.stringify({
        kind: 'collectionType',
        info: { singularName: 'thing', pluralName: 'things' },
        attributes: {},
      }),
    });
    expect(message).toContain(`${THING}: needs a "collectionName"`);
  });
  it('two types on one table', async () => {
    const message = await loadError({
      [THING]: JSON.stringify({
        kind: 'collectionType',
        collectionName: 'tags',
        info: { singularName: 'thing', pluralName: 'things' },
        attributes: {},
      }),
    });
    expect(message).toContain('collectionName "tags" is already used');
  });
  it('reports every problem at once', async () => {
    const message = await loadError({
      [THING]: schemaWith({
        a: { type: 'nope' },
        b: { type: 'relation', relation: 'sideways', target: 'api::tag.tag' },
      }),
    });
    expect(message).toContain('attribute "a"');
    expect(message).toContain('attribute "b" has an unknown relation "sideways"');
  });
});
