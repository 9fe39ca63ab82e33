import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { jsonLines, readEntries } from './support/transfer-archives.js';
import { transferProject, type TransferProject } from './support/transfer-project.js';
import { seedTransferBlog } from './support/transfer-seed.js';

/*
 * `cairn export` → `cairn import` on every database: the blog seeded through Cairn's REST API
 * (drafts, a newer draft over a published version, an fr locale, relations in a chosen order,
 * components, nested components, a dynamic zone, images with formats) is exported, encrypted and
 * compressed as Strapi does by default, then imported into an empty project: every query of
 * transfer-answers.ts answers the same there (row ids aside), and the files are there. The other
 * archive forms (--no-encrypt, --no-compress) and --only/--exclude are checked too.
 */

const KEY = 'round-trip key';

for (const database of inject('databases')) {
  describe(`[${database}] cairn export, then cairn import into an empty project`, () => {
    let source: TransferProject;
    let target: TransferProject;
    let out: string;
    let before: Record<string, unknown>;

    beforeAll(async () => {
      out = mkdtempSync(join(tmpdir(), 'cairn-transfer-out-'));
      source = await transferProject(database);
      target = await transferProject(database);
      const { server, token } = await source.start();
      await seedTransferBlog(server.base, token);
      before = await source.answers();
      await source.stop();
    }, 180_000);
    afterAll(async () => {
      await source?.close();
      await target?.close();
      rmSync(out, { recursive: true, force: true });
    });

    it('exports an encrypted, compressed archive by default, with Strapi’s layout and a summary', async () => {
      const result = await source.run('export', '--file', join(out, 'blog'), '--key', KEY);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Export archive is in ${join(out, 'blog.tar.gz.enc')}`);
      expect(result.stdout).toMatch(/│ -- api::article\.article\s+│\s+9 │/);
      const names = (await readEntries(join(out, 'blog.tar.gz.enc'), KEY)).map((entry) => entry.name);
      expect(names[0]).toBe('schemas/schemas_00001.jsonl');
      expect(names).toContain('entities/entities_00001.jsonl');
      expect(names).toContain('links/links_00001.jsonl');
      expect(names).toContain('configuration/configuration_00001.jsonl');
      expect(names.at(-1)).toBe('metadata.json');
      expect(names.filter((name) => name.startsWith('assets/uploads/'))).toHaveLength(7);
    }, 60_000);

    it('without --key or --no-encrypt it refuses in one line', async () => {
      const result = await source.run('export', '--file', join(out, 'nokey'));
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toBe(
        'cairn: the archive is encrypted unless --no-encrypt is given: pass its key with --key K\n',
      );
      expect(existsSync(join(out, 'nokey.tar.gz.enc'))).toBe(false);
    });

    it('imports into an empty project with identical answers and the same files', async () => {
      const result = await target.run('import', '--file', join(out, 'blog.tar.gz.enc'), '--key', KEY);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      await target.start();
      expect(await target.answers()).toEqual(before);
      expect(target.uploads()).toEqual(source.uploads());
      await target.stop();
    }, 120_000);

    it('--no-encrypt --no-compress writes a plain tar that imports the same (with --force)', async () => {
      const exported = await source.run('export', '--file', join(out, 'plain'), '--no-encrypt', '--no-compress');
      expect(exported.code, exported.stderr).toBe(0);
      const entities = (await readEntries(join(out, 'plain.tar'))).find((e) => e.name.startsWith('entities/'));
      expect(jsonLines(entities!).filter((line) => line.type === 'api::article.article')).toHaveLength(9);
      const imported = await target.run('import', '--file', join(out, 'plain.tar'), '--force');
      expect(imported.code, imported.stderr).toBe(0);
      await target.start();
      expect(await target.answers()).toEqual(before);
      await target.stop();
    }, 120_000);

    it('--only content leaves the files and the configuration out of the archive', async () => {
      const exported = await source.run('export', '--file', join(out, 'content'), '--no-encrypt', '--only', 'content');
      expect(exported.code, exported.stderr).toBe(0);
      const names = (await readEntries(join(out, 'content.tar.gz'))).map((entry) => entry.name);
      expect(names.some((name) => name.startsWith('assets/'))).toBe(false);
      expect(names.some((name) => name.startsWith('configuration/'))).toBe(false);
      expect(names).toContain('entities/entities_00001.jsonl');
      const imported = await target.run(
        'import',
        '--file',
        join(out, 'content.tar.gz'),
        '--force',
        '--exclude',
        'files',
      );
      expect(imported.code, imported.stderr).toBe(0);
      expect(target.uploads()).toEqual(source.uploads());
      await target.start();
      expect(await target.answers()).toEqual(before);
      await target.stop();
    }, 120_000);

    it('refuses --only and --exclude naming the same group, and unknown groups', async () => {
      const both = await source.run('export', '--no-encrypt', '--only', 'content', '--exclude', 'content');
      expect(both.stderr).toBe('cairn: data types may not be used in both --exclude and --only: content\n');
      const unknown = await source.run('export', '--no-encrypt', '--only', 'media');
      expect(unknown.stderr).toBe(
        'cairn: --only takes a comma-separated list of content, files, config (got "media")\n',
      );
    });
  });
}
