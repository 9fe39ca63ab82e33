import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readEntries } from './support/transfer-archives.js';
import { transferProject, type TransferProject } from './support/transfer-project.js';

/*
 * `cairn import` of archives real Strapi 5.54 wrote (`strapi export`, test/fixtures/transfer) on
 * every database: the blog seeded through Strapi's REST API imports into an empty Cairn project,
 * and Cairn then answers every query of transfer-answers.ts as Strapi answered it (row ids
 * aside): drafts and published versions, both locales, relations in their order on both sides,
 * media, components, nested components, the dynamic zone, the single type, the media library.
 */

const FIXTURES = resolve(import.meta.dirname, 'fixtures/transfer');
const ARCHIVE = join(FIXTURES, 'strapi-5.54-blog.tar.gz');
const ENCRYPTED = join(FIXTURES, 'strapi-5.54-blog.tar.gz.enc');
const KEY = 'cairn-transfer-key';
const STRAPI_ANSWERS = JSON.parse(readFileSync(join(FIXTURES, 'strapi-5.54-blog-answers.json'), 'utf8')) as Record<
  string,
  unknown
>;

for (const database of inject('databases')) {
  describe(`[${database}] importing an archive written by Strapi 5.54`, () => {
    let project: TransferProject;

    beforeAll(async () => {
      project = await transferProject(database);
    }, 120_000);
    afterAll(async () => {
      await project?.close();
    });

    it('imports into an empty project: a summary table, the files in public/uploads', async () => {
      const result = await project.run('import', '--file', ARCHIVE);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Starting import...');
      expect(result.stdout).toMatch(/│ entities\s+│\s+58 │/);
      expect(result.stdout).toMatch(/│ -- api::article\.article\s+│\s+9 │/);
      expect(result.stdout).toMatch(/│ links\s+│\s+152 │/);
      expect(result.stdout).toMatch(/│ assets\s+│\s+7 │/);
      expect(result.stdout).toMatch(/│ configuration\s+│\s+40 │/);
      expect(result.stdout).toContain('Import process has been completed successfully!');
      const assets = (await readEntries(ARCHIVE))
        .filter((entry) => entry.name.startsWith('assets/uploads/'))
        .map((entry) => entry.name.slice('assets/uploads/'.length));
      expect(project.uploads()).toEqual(assets.sort());
    }, 120_000);

    it('answers every query as Strapi answered it for the same data', async () => {
      await project.start();
      expect(await project.answers()).toEqual(STRAPI_ANSWERS);
    }, 60_000);

    it('serves the imported files with their bytes', async () => {
      const { server } = await project.start();
      for (const entry of (await readEntries(ARCHIVE)).filter((e) => e.name.startsWith('assets/uploads/'))) {
        const response = await fetch(`${server.base}/uploads/${entry.name.slice('assets/uploads/'.length)}`);
        expect(response.status).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(entry.content)).toBe(true);
      }
      await project.stop();
    }, 60_000);

    it('refuses to import again into the database now holding content, unless --force', async () => {
      const refused = await project.run('import', '--file', ARCHIVE);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^cairn: the database holds content \(.*9 api::article\.article.*\); .*--force/);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    }, 60_000);

    it('the encrypted archive with its key and --force replaces the content with the same answers', async () => {
      const result = await project.run('import', '--file', ENCRYPTED, '--key', KEY, '--force');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      await project.start();
      expect(await project.answers()).toEqual(STRAPI_ANSWERS);
      await project.stop();
    }, 120_000);
  });
}
