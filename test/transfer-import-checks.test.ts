import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { jsonl, jsonLines, readEntries, writeEntries, writeLongLineArchive } from './support/transfer-archives.js';
import type { ArchiveEntry } from './support/transfer-archives.js';
import { transferProject, type CliResult, type TransferProject } from './support/transfer-project.js';

/*
 * What `cairn import` checks beyond the archive's form, on every database, through the command
 * line: a gzip bomb of one JSONL line (refused in one line, its staging folder and an abandoned
 * one of a killed run removed), values that do not fit their attribute (a bad date, an enum value
 * outside its list: refused naming the attribute, the database as it was), a webhook pointing at
 * this machine in production (left out, reported, as the admin panel refuses it), and an archive
 * whose model differs from the project's (refused; with --force imported as `strapi import
 * --force` does, the difference reported, the missing attribute defaulted).
 */

const FIXTURE = resolve(import.meta.dirname, 'fixtures/transfer/strapi-5.54-blog.tar.gz');
const ENTITIES = 'entities/entities_00001.jsonl';

type Line = Record<string, unknown>;
type Data = Record<string, unknown>;

/** The entries with the JSONL lines of `prefix` edited. */
const editLines = (entries: readonly ArchiveEntry[], prefix: string, edit: (lines: Line[]) => Line[]) =>
  entries.map((e) => (e.name.startsWith(prefix) ? { name: e.name, content: jsonl(edit(jsonLines(e))) } : e));

/** The entities with each article's data edited. */
const editArticles = (entries: readonly ArchiveEntry[], edit: (data: Data) => Data) =>
  editLines(entries, 'entities/', (lines) =>
    lines.map((line) =>
      line.type === 'api::article.article' ? { ...line, data: edit({ ...(line.data as Data) }) } : line,
    ),
  );

/** The line number of the first article in the entities file. */
const firstArticleLine = (entries: readonly ArchiveEntry[]) =>
  jsonLines(entries.find((e) => e.name === ENTITIES)!).findIndex((line) => line.type === 'api::article.article') + 1;

const staging = (project: TransferProject) => join(project.dir, '.tmp', 'transfer');

function expectRefused(result: CliResult, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).not.toContain('completed successfully');
  expect(result.stderr.trimEnd()).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

for (const database of inject('databases')) {
  describe(`[${database}] cairn import checks values, webhooks and schema differences`, () => {
    let project: TransferProject;
    let dir: string;
    let entries: ArchiveEntry[];
    let before: Record<string, unknown>;

    const write = (file: string, edited: readonly ArchiveEntry[]) => writeEntries(join(dir, file), edited);

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-transfer-checks-'));
      project = await transferProject(database);
      const imported = await project.run('import', '--file', FIXTURE);
      if (imported.code !== 0) throw new Error(imported.stderr);
      entries = await readEntries(FIXTURE);
      await project.start();
      before = await project.answers();
      await project.stop();
    }, 180_000);
    afterAll(async () => {
      await project?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a 20 MB JSONL line in a small .tar.gz: one line naming the file and line, exit 1, no staging folder left (nor a killed run`s)', async () => {
      const file = join(dir, 'long-line.tar.gz');
      await writeLongLineArchive(file, entries, ENTITIES, 20 * 1024 * 1024);
      // A staging folder a killed import left behind (its process is gone).
      const { pid } = spawnSync(process.execPath, ['-e', '']);
      const abandoned = join(staging(project), `import-${pid}-killed`);
      mkdirSync(abandoned, { recursive: true });
      writeFileSync(join(abandoned, 'entities-00001.jsonl'), 'x'.repeat(1024));
      const result = await project.run('import', '--file', file, '--force');
      expectRefused(
        result,
        /^cairn: entities\/entities_00002\.jsonl line 1 is longer than 8 MB, the most a line of an archive may hold: the archive is damaged or forged, so nothing was imported$/,
      );
      expect(existsSync(staging(project)) && readdirSync(staging(project))).toBeFalsy();
    }, 120_000);

    /** Imports the fixture with the articles edited, and expects the refusal `message`. */
    const refusedArticles = async (file: string, edit: (data: Data) => Data, message: RegExp) => {
      await write(file, editArticles(entries, edit));
      expectRefused(await project.run('import', '--file', join(dir, file), '--force'), message);
    };

    it('a date that is no date: refused, naming the line, the entity and the attribute', async () => {
      await refusedArticles(
        'bad-date.tar.gz',
        (data) => ({ ...data, publishDate: 'not a date' }),
        new RegExp(
          `^cairn: entities_00001\\.jsonl line ${firstArticleLine(entries)}: api::article\\.article \\d+, attribute publishDate: "not a date" is not a date \\(Invalid format, expected yyyy-MM-dd\\): nothing was imported \\(the database is as it was\\)$`,
        ),
      );
    }, 60_000);

    it('an enumeration value outside its list, in a component too: refused, naming the attribute', async () => {
      await refusedArticles(
        'bad-enum.tar.gz',
        (data) => ({ ...data, category: 'gossip' }),
        /^cairn: entities_00001\.jsonl line \d+: api::article\.article \d+, attribute category: "gossip" is not one of news, tech, life: nothing was imported/,
      );
      await refusedArticles(
        'bad-component.tar.gz',
        (data) => ({ ...data, seo: { ...(data.seo as Data), metaTitle: 12 } }),
        /^cairn: entities_00001\.jsonl line \d+: api::article\.article \d+, attribute seo\.metaTitle: 12 is not a string: nothing was imported/,
      );
    }, 60_000);

    it('after the refused archives, the project answers every query as before', async () => {
      await project.start();
      expect(await project.answers()).toEqual(before);
      await project.stop();
    }, 60_000);

    it('in production, a webhook pointing at this machine is left out and reported; the others are imported', async () => {
      const hooks = [
        {
          type: 'webhook',
          value: {
            id: 1,
            name: 'Loopback',
            url: 'http://127.0.0.1:1337/admin/users',
            headers: {},
            events: ['entry.create'],
            enabled: true,
          },
        },
        {
          type: 'webhook',
          value: {
            id: 2,
            name: 'Localhost',
            url: 'http://localhost:9/hook',
            headers: {},
            events: ['entry.create'],
            enabled: true,
          },
        },
        {
          type: 'webhook',
          value: {
            id: 3,
            name: 'Deploy',
            url: 'https://203.0.113.7/hook',
            headers: {},
            events: ['entry.publish'],
            enabled: true,
          },
        },
      ];
      await write(
        'webhooks.tar.gz',
        editLines(entries, 'configuration/', (lines) => [...lines, ...hooks]),
      );
      const result = await project.runWithEnv(
        { NODE_ENV: 'production' },
        'import',
        '--file',
        join(dir, 'webhooks.tar.gz'),
        '--force',
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(
        /warn: configuration_00001\.jsonl line \d+: the webhook "Loopback" was not imported: its url http:\/\/127\.0\.0\.1:1337\/admin\/users points at this machine/,
      );
      expect(result.stderr).toMatch(
        /warn: configuration_00001\.jsonl line \d+: the webhook "Localhost" was not imported/,
      );
      const exported = join(dir, 'config-out');
      const out = await project.run('export', '--file', exported, '--no-encrypt', '--only', 'config');
      expect(out.stderr).toBe('');
      const configuration = (await readEntries(`${exported}.tar.gz`)).find((e) => e.name.startsWith('configuration/'))!;
      const urls = jsonLines(configuration)
        .filter((line) => line.type === 'webhook')
        .map((line) => (line.value as Data).url);
      expect(urls).toEqual(['https://203.0.113.7/hook']);
    }, 60_000);

    it('a model that differs from the archive`s: refused without --force; with it imported, the difference reported and defaulted', async () => {
      const drifted = editLines(
        editArticles(entries, ({ views: _views, ...data }) => ({ ...data, subtitle: 'only in the archive' })),
        'schemas/',
        (lines) =>
          lines.map((line) => {
            if (line.uid !== 'api::article.article') return line;
            const { views: _views, ...attributes } = line.attributes as Record<string, unknown>;
            return { ...line, attributes: { ...attributes, subtitle: { type: 'string' } } };
          }),
      );
      await write('drift.tar.gz', drifted);
      const refused = await project.run('import', '--file', join(dir, 'drift.tar.gz'));
      expectRefused(
        refused,
        /^cairn: the archive's schemas differ from the project's, so nothing was imported \(Strapi's strict check; --force imports anyway, leaving out what the project lacks\):\n- api::article\.article:\n {2}- attributes\.subtitle exists in the archive but not in the project\n {2}- attributes\.views exists in the project but not in the archive$/,
      );
      const forced = await project.run('import', '--file', join(dir, 'drift.tar.gz'), '--force');
      expect(forced.stderr).not.toMatch(/\n\s+at /);
      expect(forced.code).toBe(0);
      expect(forced.stdout).toContain('Import process has been completed successfully!');
      expect(forced.stderr).toContain(
        "warn: the archive's schemas differ from the project's; importing anyway (--force), as strapi import --force does:\n- api::article.article:\n  - attributes.subtitle exists in the archive but not in the project\n  - attributes.views exists in the project but not in the archive",
      );
      expect(forced.stderr).toContain(
        'warn: left out: 9 values of api::article.article.subtitle (an attribute the project does not have)',
      );
      expect(forced.stderr).toContain(
        'warn: defaulted: api::article.article.views set to its default 0 on 9 rows (an attribute the archive does not have)',
      );
      const { server, token } = await project.start();
      const response = await fetch(`${server.base}/api/articles?status=draft&locale=en&sort=documentId`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await response.json()) as { data: Data[] };
      expect(body.data.length).toBeGreaterThan(0);
      for (const article of body.data) {
        expect(article.views).toBe(0);
        expect(article).not.toHaveProperty('subtitle');
      }
      const answers = await project.answers();
      const titles = (answers: Record<string, unknown>) =>
        Object.values(answers).flatMap((answer) => JSON.stringify(answer).match(/"title":"[^"]*"/g) ?? []);
      expect(titles(answers)).toEqual(titles(before));
      await project.stop();
    }, 120_000);
  });
}
