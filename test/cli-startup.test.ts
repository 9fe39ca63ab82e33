import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { cairn, startCairn } from './support/cli.js';
import { CUSTOM_FIELDS_FILES, SWATCH_SCHEMA, swatchSchemaWith } from './support/custom-fields-project.js';
import { createTestDatabase } from './support/databases.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

const dirs: string[] = [];
function project(files: Record<string, string> = {}, remove: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-startup-'));
  dirs.push(dir);
  cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
  for (const file of remove) rmSync(join(dir, file));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const PUBLIC_LINE = 'the Public role holds no permission, so requests without a token or login answer 403';
const VERSION = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8')) as { version: string }
).version;

describe('cairn start says what it opened', () => {
  it('names the SQLite file (new the first time) and says when Public holds no permission, pointing at config/permissions.js', async () => {
    const dir = project({}, ['config/permissions.js']);
    const file = join(dir, '.tmp/data.db');
    const first = await startCairn(dir);
    try {
      expect(first.output()).toContain(`database: sqlite ${file} (new file)`);
      expect(first.output()).toContain(
        `${PUBLIC_LINE}; Strapi projects often grant them in bootstrap code (src/index.js), which Cairn does not run: list them in config/permissions.js, e.g. module.exports = { public: ['api::article.article.find', 'api::article.article.findOne'] }`,
      );
      expect((await fetch(`${first.base}/api/articles`)).status).toBe(403);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const second = await startCairn(dir);
    try {
      expect(second.output()).toContain(`"msg":"database: sqlite ${file}"`);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('says nothing about Public when it holds permissions', async () => {
    const running = await startCairn(project());
    try {
      expect(running.output()).toContain('database: sqlite ');
      expect(running.output()).not.toContain(PUBLIC_LINE);
    } finally {
      await running.stop();
    }
  });

  it('an absolute DATABASE_FILENAME that config/database joins onto the project is named, with the fix', async () => {
    const dir = project();
    const absolute = join(tmpdir(), `cairn-absolute-${process.pid}`, 'cms.db');
    const running = await startCairn(dir, { DATABASE_FILENAME: absolute });
    try {
      const opened = join(dir, absolute);
      expect(running.output()).toContain(`database: sqlite ${opened} (new file)`);
      expect(running.output()).toContain(
        `DATABASE_FILENAME is ${absolute}, but config/database gives ${opened}, which Cairn opens (as Strapi would); Strapi's template joins DATABASE_FILENAME onto the project folder with path.join: use path.resolve there to open ${absolute}`,
      );
    } finally {
      await running.stop();
    }
  });

  it.runIf(inject('databases').includes('postgres'))(
    'names the PostgreSQL server, database and schema, never the password',
    async () => {
      const database = await createTestDatabase('postgres');
      const running = await startCairn(project(), { ...database.env, DATABASE_PASSWORD: 'not-printed' });
      try {
        const {
          DATABASE_USERNAME: user,
          DATABASE_HOST: host,
          DATABASE_PORT: port,
          DATABASE_NAME: name,
          DATABASE_SCHEMA: schema,
        } = database.env;
        expect(running.output()).toContain(`database: postgres ${user}@${host}:${port}/${name} (schema ${schema})`);
        expect(running.output()).not.toContain('not-printed');
      } finally {
        await running.stop();
        await database.drop();
      }
    },
    90_000,
  );

  it.runIf(inject('databases').includes('mysql'))(
    'names the MySQL server and database',
    async () => {
      const database = await createTestDatabase('mysql');
      const running = await startCairn(project(), database.env);
      try {
        const { DATABASE_USERNAME: user, DATABASE_HOST: host, DATABASE_PORT: port, DATABASE_NAME: name } = database.env;
        expect(running.output()).toContain(`database: mysql ${user}@${host}:${port}/${name}`);
      } finally {
        await running.stop();
        await database.drop();
      }
    },
    90_000,
  );

  it('refuses a project with an unknown custom field, naming the file, the attribute and the fix', async () => {
    const dir = project({
      ...CUSTOM_FIELDS_FILES,
      [SWATCH_SCHEMA]: swatchSchemaWith({ rank: { type: 'customField', customField: 'plugin::ranker.rank' } }),
    });
    const result = await cairn('start', '--dir', dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `cairn: The project's content model is invalid:\n- ${SWATCH_SCHEMA}: attribute "rank" uses the custom field "plugin::ranker.rank", whose storage type Cairn does not know (no plugin it runs registered it); declare it in config/custom-fields.js as { 'plugin::ranker.rank': { type: '<type>' } }`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('cairn command-line input', () => {
  it.each([['--version'], ['-v'], ['version']])('%s prints the version alone', async (flag) => {
    const result = await cairn(flag);
    expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it.each([
    [['start', '--port', '1'], 'unknown option "--port" (run `cairn help`)'],
    [['-x'], 'unknown option "-x" (run `cairn help`)'],
    [['start', '--constructor'], 'unknown option "--constructor" (run `cairn help`)'],
    [['frobnicate'], 'unknown command "frobnicate" (run `cairn help`)'],
    [['start', '--dir'], 'option --dir needs a value (run `cairn help`)'],
    [['api-token:list', '--dir', '--json'], 'option --dir needs a value (run `cairn help`)'],
    [['api-token:list', '--json=yes'], 'option --json takes no value (run `cairn help`)'],
    [['start', 'extra'], 'unexpected argument "extra" (run `cairn help`)'],
  ])("%j gets Cairn's own one-line message and exit code 1", async (args, message) => {
    const result = await cairn(...args);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `cairn: ${message}\n` });
  });
});
