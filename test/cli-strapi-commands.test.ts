import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cairn, startCairn } from './support/cli.js';
import { createTestDatabase } from './support/databases.js';
import { shopProjectDir } from './support/project-code.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * Issue 40, points 4 and 5: Strapi's command names (`ts:generate-types`, `content-types:list`,
 * `policies:list`, `middlewares:list`, `build`) through the built command line, and `develop`
 * regenerating the types of a TypeScript project after a model change.
 */

/** What Strapi 5.54 printed or wrote for examples/blog's model (the reference install). */
const STRAPI = resolve(import.meta.dirname, 'fixtures/strapi-5.54-blog');
const strapiText = (file: string) => readFileSync(join(STRAPI, file), 'utf8');

/** A copy of examples/blog (its .env and database left out), with `files` laid over it. */
function blogCopy(files: Readonly<Record<string, string>> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-cli-strapi-'));
  cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});
const fresh = (dir: string) => (folders.push(dir), dir);

describe('cairn ts:generate-types', () => {
  it("writes types/generated/contentTypes.d.ts and components.d.ts equal to Strapi's, in a JavaScript project too", async () => {
    const dir = fresh(blogCopy());
    const run = await cairn('ts:generate-types', '--dir', dir);
    expect(run.code, run.stderr).toBe(0);
    for (const file of ['contentTypes.d.ts', 'components.d.ts']) {
      expect(readFileSync(join(dir, 'types/generated', file), 'utf8')).toBe(strapiText(`generated-types/${file}`));
      expect(run.stdout).toContain(join(dir, 'types/generated', file));
    }
  });

  it('--out-dir (or -o) replaces types/, relative to the project; --silent prints nothing', async () => {
    const dir = fresh(blogCopy());
    const run = await cairn('ts:generate-types', '--dir', dir, '--out-dir', 'typings', '--silent');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(readFileSync(join(dir, 'typings/generated/components.d.ts'), 'utf8')).toBe(
      strapiText('generated-types/components.d.ts'),
    );
    expect(existsSync(join(dir, 'types'))).toBe(false);
    expect((await cairn('ts:generate-types', '--dir', dir, '-o', 'other')).code).toBe(0);
    expect(existsSync(join(dir, 'other/generated/contentTypes.d.ts'))).toBe(true);
  });

  it('a project that does not load fails with its reason, exit 1', async () => {
    const dir = fresh(blogCopy());
    writeFileSync(join(dir, 'src/api/tag/content-types/tag/schema.json'), '{ "kind": ');
    const run = await cairn('ts:generate-types', '--dir', dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('schema.json');
    expect(existsSync(join(dir, 'types'))).toBe(false);
  });
});

describe("content-types:list, policies:list, middlewares:list print Strapi's tables", () => {
  let blog: string;
  let shop: string;
  beforeAll(() => {
    blog = fresh(blogCopy());
    shop = fresh(shopProjectDir('ts'));
  });

  for (const command of ['content-types:list', 'policies:list', 'middlewares:list']) {
    it(`${command} on the blog: what Strapi printed, byte for byte (colours aside)`, async () => {
      const run = await cairn(command, '--dir', blog);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(strapiText(`list-commands/${command.replace(':list', '-list.txt')}`));
    });
  }

  /** The names of a printed table, in order. */
  const names = (table: string) => [...table.matchAll(/^│ (\S+) +│$/gm)].map((match) => match[1]).slice(1);

  it("the project's own policies and middlewares in Strapi's order: global ones first, its APIs' before the admin's", async () => {
    const policies = names((await cairn('policies:list', '--dir', shop)).stdout);
    expect(policies).toEqual([
      'global::is-staff',
      'plugin::content-manager.hasPermissions',
      'api::shop.max-amount',
      'admin::isAuthenticatedAdmin',
      'admin::hasPermissions',
      'admin::isTelemetryEnabled',
    ]);
    const middlewares = names((await cairn('middlewares:list', '--dir', shop)).stdout);
    expect(middlewares.slice(0, 3)).toEqual(['global::article-populate', 'global::stamp', 'strapi::compression']);
    expect(middlewares.slice(-3)).toEqual(['api::shop.mark', 'admin::rateLimit', 'admin::data-transfer']);
  });
});

describe('cairn build', () => {
  it('fails (exit 1) naming `strapi build` when the admin panel has no build; succeeds once it has one', async () => {
    const dir = fresh(blogCopy());
    const missing = await cairn('build', '--dir', dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('npx strapi build');
    mkdirSync(join(dir, 'build'));
    writeFileSync(join(dir, 'build/index.html'), '<!DOCTYPE html>');
    const built = await cairn('build', '--dir', dir);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toContain(join(dir, 'build'));
  });

  it('succeeds when the admin panel is not served', async () => {
    const dir = fresh(blogCopy());
    const admin = join(dir, 'config/admin.js');
    writeFileSync(admin, readFileSync(admin, 'utf8').replace('=> ({', '=> ({ serveAdminPanel: false,'));
    const run = await cairn('build', '--dir', dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('not served');
  });
});

for (const kind of inject('databases')) {
  describe(`[${kind}] cairn develop in a TypeScript project`, () => {
    // A first start on MySQL creates some sixty tables, and the reload syncs the schema again: slow on a busy machine.
    it('writes the generated types at start, and again after a schema changes', async () => {
      const dir = fresh(blogCopy({ 'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n' }));
      const database = await createTestDatabase(kind);
      const running = await startCairn(dir, database.env, ['develop', '--dir', dir]);
      try {
        const file = join(dir, 'types/generated/contentTypes.d.ts');
        expect(readFileSync(file, 'utf8')).toBe(strapiText('generated-types/contentTypes.d.ts'));
        const schemaFile = join(dir, 'src/api/tag/content-types/tag/schema.json');
        const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
        schema.attributes.colour = { type: 'enumeration', enum: ['red', 'green'], default: 'red' };
        writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
        const expected =
          "colour: Schema.Attribute.Enumeration<['red', 'green']> &\n      Schema.Attribute.DefaultTo<'red'>;";
        const deadline = Date.now() + 20_000;
        while (!readFileSync(file, 'utf8').includes(expected) && Date.now() < deadline) {
          await new Promise((done) => setTimeout(done, 100));
        }
        expect(readFileSync(file, 'utf8')).toContain(expected);
        // The reload serves the new attribute (the server restarts meanwhile: ask until it answers).
        let tags: unknown = null;
        while (tags === null && Date.now() < deadline + 20_000) {
          tags = await fetch(`${running.base}/api/tags?fields[0]=colour`)
            .then((answer) => (answer.ok ? answer.json() : null))
            .catch(() => null);
          if (tags === null) await new Promise((done) => setTimeout(done, 200));
        }
        expect(tags).toMatchObject({ data: expect.any(Array) });
      } finally {
        await running.stop();
        await database.drop();
      }
    }, 120_000);
  });
}
