import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { cairnWithEnv, startCairn } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { CODE_LANGUAGES, shopProjectDir, type CodeLanguage } from './support/project-code.js';

/*
 * Issue 37, points 1 and 7, through the command line (`node bin/cairn.js start --dir …`, built by
 * `npm test`) on the shop-code fixtures: `destroy` runs when the server stops; a file that does
 * not compile, or a `register`/`bootstrap` that throws, stops the start with one message naming
 * the file and the line, and exit code 1.
 */

/** A file that does not compile, its error on line 3. */
const BROKEN: Record<CodeLanguage, [string, string]> = {
  js: ['src/api/shop/services/broken.js', "'use strict';\nmodule.exports = {\n  greet(name) { return (name; },\n};\n"],
  ts: [
    'src/api/shop/services/broken.ts',
    'export default {\n  greet(name: string): string {\n    return (name;\n  },\n};\n',
  ],
};

/** src/index with `hook` throwing on line 5. */
function throwingIndex(language: CodeLanguage, hook: 'register' | 'bootstrap'): [string, string] {
  const body = `  async ${hook}({ strapi }) {\n    await Promise.resolve(strapi.config.get('shop.currency'));\n    throw new Error('the shop cannot open');\n  },\n`;
  return language === 'js'
    ? ['src/index.js', `'use strict';\nmodule.exports = {\n${body}};\n`]
    : ['src/index.ts', `// TypeScript\nexport default {\n${body}};\n`];
}

for (const database of inject('databases'))
  for (const language of CODE_LANGUAGES)
    describe(`[${database}/${language}] project code: cairn start`, () => {
      const dirs: string[] = [];
      const databases: TestDatabase[] = [];
      afterAll(async () => {
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
        for (const db of databases) await db.drop();
      });
      const prepare = async (files: Record<string, string> = {}) => {
        const db = await createTestDatabase(database);
        databases.push(db);
        const dir = shopProjectDir(language, files);
        dirs.push(dir);
        return { dir, env: db.env };
      };

      it("routes:list lists the route files' routes in place of their types' core routes", async () => {
        const { dir, env } = await prepare();
        const listed = await cairnWithEnv(env, 'routes:list', '--dir', dir);
        expect(listed.code, listed.stderr).toBe(0);
        expect(listed.stdout).toContain('GET     /api/shop/info  api::shop.shop.info  (project code, public)');
        expect(listed.stdout).toContain('GET     /api/users/me  plugin::users-permissions.user.me');
      });

      it('serves the project code and runs destroy when the server stops', async () => {
        const { dir, env } = await prepare();
        const mark = join(dir, 'destroyed.txt');
        const running = await startCairn(dir, { ...env, SHOP_DESTROY_MARK: mark });
        const info = await fetch(`${running.base}/api/shop/info`);
        expect(info.status).toBe(200);
        expect(((await info.json()) as { lifecycle: string[] }).lifecycle).toEqual(['register', 'bootstrap']);
        expect(info.headers.get('x-shop-version')).toBe('2026.12');
        expect(running.output()).toContain('project code: runs its controllers, services, routes, policies');
        expect(existsSync(mark)).toBe(false);
        expect(await running.stop()).toBe(0);
        expect(readFileSync(mark, 'utf8')).toBe('destroyed');
      });

      it('a file that does not compile stops the start with one message naming the file and the line', async () => {
        const [file, content] = BROKEN[language];
        const { dir, env } = await prepare({ [file]: content });
        const result = await cairnWithEnv(env, 'start', '--dir', dir);
        expect(result.code).toBe(1);
        const lines = result.stderr.trim().split('\n');
        expect(lines, result.stderr).toHaveLength(1);
        const name = file.replace(/\./g, '\\.');
        expect(lines[0]).toMatch(
          new RegExp(`^cairn: ${name}: could not load this file: .+ \\(at ${name}:3(:\\d+)?\\)$`),
        );
      });

      it.each(['register', 'bootstrap'] as const)(
        'a throwing %s stops the start with one message naming the file and the line',
        async (hook) => {
          const [file, content] = throwingIndex(language, hook);
          const { dir, env } = await prepare({ [file]: content });
          const result = await cairnWithEnv(env, 'start', '--dir', dir);
          expect(result.code).toBe(1);
          const lines = result.stderr.trim().split('\n');
          expect(lines, result.stderr).toHaveLength(1);
          const name = file.replace(/\./g, '\\.');
          expect(lines[0]).toMatch(
            new RegExp(`^cairn: ${name}: ${hook}\\(\\) failed: the shop cannot open \\(at ${name}:5:\\d+\\)$`),
          );
        },
      );

      it('a member Cairn does not offer, used in bootstrap, stops the start naming it and the line that used it', async () => {
        const [file, content] = throwingIndex(language, 'bootstrap');
        const unoffered = content.replace(
          "throw new Error('the shop cannot open');",
          "strapi.telemetry.send('didStart');",
        );
        const { dir, env } = await prepare({ [file]: unoffered });
        const result = await cairnWithEnv(env, 'start', '--dir', dir);
        expect(result.code).toBe(1);
        const lines = result.stderr.trim().split('\n');
        expect(lines, result.stderr).toHaveLength(1);
        const name = file.replace(/\./g, '\\.');
        expect(lines[0]).toMatch(
          new RegExp(
            `^cairn: ${name}: bootstrap\\(\\) failed: Cairn does not offer strapi\\.telemetry \\(used at ${name}:5:\\d+\\)`,
          ),
        );
      });
    });
