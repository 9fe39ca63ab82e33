import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  declareSize,
  jsonl,
  jsonLines,
  readEntries,
  tarBytes,
  writeArchive,
  writeEntries,
  type ArchiveEntry,
} from './support/transfer-archives.js';
import { transferProject, type TransferProject } from './support/transfer-project.js';

/*
 * Bad archives on every database: truncated, a wrong or missing key, not an archive at all,
 * unknown types (with and without their schema), a schema that differs from the project's, path
 * traversal in entry and asset names, a 10 GB declared size, a missing or lying asset sidecar,
 * a broken JSONL line, no metadata.json, and a link the database refuses half-way through the
 * import's transaction. Each gets one clear message (no stack trace) and exit code 1, and the
 * project answers every query as before, with the same files.
 */

const FIXTURE = resolve(import.meta.dirname, 'fixtures/transfer/strapi-5.54-blog.tar.gz');
const KEY = 'cairn-transfer-key';

type Edit = (entries: ArchiveEntry[]) => ArchiveEntry[];

const entry = (entries: ArchiveEntry[], prefix: string) => {
  const found = entries.find((e) => e.name.startsWith(prefix));
  if (!found) throw new Error(`no ${prefix} entry`);
  return found;
};
const editLines =
  (prefix: string, edit: (lines: Record<string, unknown>[]) => Record<string, unknown>[]): Edit =>
  (entries) =>
    entries.map((e) => (e.name.startsWith(prefix) ? { name: e.name, content: jsonl(edit(jsonLines(e))) } : e));

/** The bad archives: file name, how it is made from the fixture, what the message says, extra CLI args. */
interface BadCase {
  readonly title: string;
  readonly file: string;
  readonly make: (dir: string, entries: ArchiveEntry[]) => Promise<void> | void;
  readonly message: RegExp;
  readonly args?: readonly string[];
  /** Run without --force (which would go on past a schema difference). */
  readonly unforced?: true;
}

const rewritten =
  (edit: Edit, key?: string) =>
  async (dir: string, entries: ArchiveEntry[], file: string): Promise<void> =>
    writeEntries(join(dir, file), edit([...entries]), key);

function cases(): BadCase[] {
  const rewrite = (file: string, edit: Edit, key?: string) => (dir: string, entries: ArchiveEntry[]) =>
    rewritten(edit, key)(dir, entries, file);
  const ghostSchema = (lines: Record<string, unknown>[]) => {
    const article = lines.find((line) => line.uid === 'api::article.article')!;
    return [...lines, { ...article, uid: 'api::ghost.ghost', collectionName: 'ghosts' }];
  };
  const ghostEntity = (lines: Record<string, unknown>[]) => [
    ...lines,
    { type: 'api::ghost.ghost', id: 1, data: { documentId: 'ghostghostghostghostghos' } },
  ];
  return [
    {
      title: 'a truncated archive',
      file: 'truncated.tar.gz',
      make: (dir) => {
        const bytes = readFileSync(FIXTURE);
        writeFileSync(join(dir, 'truncated.tar.gz'), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      },
      message: /^cairn: cannot read .*truncated\.tar\.gz: it is truncated/,
    },
    {
      title: 'a wrong key',
      file: 'blog.tar.gz.enc',
      make: (dir, entries) => rewritten((e) => e, KEY)(dir, entries, 'blog.tar.gz.enc'),
      args: ['--key', 'not-the-key'],
      message: /^cairn: cannot read .*blog\.tar\.gz\.enc: the key is wrong, or the file is not a Strapi data file$/,
    },
    {
      title: 'an encrypted archive without a key',
      file: 'blog.tar.gz.enc',
      make: () => undefined,
      message: /^cairn: .*blog\.tar\.gz\.enc is encrypted: give its key with --key$/,
    },
    {
      title: 'bytes that are no archive',
      file: 'noise.tar.gz',
      make: (dir) => writeFileSync(join(dir, 'noise.tar.gz'), Buffer.alloc(4096, 7)),
      message: /^cairn: cannot read .*noise\.tar\.gz: it is damaged or not a Strapi data file/,
    },
    {
      title: 'a name that is not .tar[.gz][.enc]',
      file: 'blog.zip',
      make: (dir) => writeFileSync(join(dir, 'blog.zip'), readFileSync(FIXTURE)),
      message:
        /^cairn: .*blog\.zip does not look like a Strapi data file: its name must end in \.tar, \.tar\.gz or \.tar\.gz\.enc$/,
    },
    {
      title: 'an unknown type with its schema',
      file: 'ghost.tar.gz',
      make: rewrite('ghost.tar.gz', (entries) =>
        editLines('entities/', ghostEntity)(editLines('schemas/', ghostSchema)(entries)),
      ),
      unforced: true,
      message:
        /^cairn: the archive's schemas differ from the project's, so nothing was imported \(Strapi's strict check; --force imports anyway, leaving out what the project lacks\):\n- api::ghost\.ghost:\n {2}- \(the whole type\) exists in the archive but not in the project$/,
    },
    {
      title: 'an entity of a type the archive does not declare',
      file: 'stray.tar.gz',
      make: rewrite('stray.tar.gz', editLines('entities/', ghostEntity)),
      message: /^cairn: entities_00001\.jsonl line 59: the project has no content type api::ghost\.ghost$/,
    },
    {
      title: 'a schema that differs per attribute',
      file: 'schema.tar.gz',
      make: rewrite(
        'schema.tar.gz',
        editLines('schemas/', (lines) =>
          lines.map((line) => {
            if (line.uid !== 'api::article.article') return line;
            const attributes = structuredClone(line.attributes) as Record<string, Record<string, unknown>>;
            attributes.title!.type = 'text';
            attributes.subtitle = { type: 'string' };
            delete attributes.stamp;
            return { ...line, attributes };
          }),
        ),
      ),
      unforced: true,
      message:
        /^cairn: the archive's schemas differ[^\n]*\n- api::article\.article:\n {2}- attributes\.title\.type differs: "text" in the archive, "string" in the project\n {2}- attributes\.subtitle exists in the archive but not in the project\n {2}- attributes\.stamp exists in the project but not in the archive$/,
    },
    {
      title: 'path traversal in an asset name',
      file: 'traversal.tar.gz',
      make: rewrite('traversal.tar.gz', (entries) => [
        ...entries,
        { name: 'assets/uploads/../../../../tmp/cairn-evil.txt', content: Buffer.from('evil') },
      ]),
      message:
        /^cairn: .*traversal\.tar\.gz: unsafe entry name "assets\/uploads\/\.\.\/\.\.\/\.\.\/\.\.\/tmp\/cairn-evil\.txt" \(it would leave its folder\)$/,
    },
    {
      title: 'an absolute entry name',
      file: 'absolute.tar.gz',
      make: rewrite('absolute.tar.gz', (entries) => [
        { name: '/tmp/cairn-evil.txt', content: Buffer.from('evil') },
        ...entries,
      ]),
      message: /^cairn: .*absolute\.tar\.gz: unsafe entry name "\/tmp\/cairn-evil\.txt"/,
    },
    {
      title: 'an asset in a sub-folder',
      file: 'nested.tar.gz',
      make: rewrite('nested.tar.gz', (entries) => [
        ...entries,
        { name: 'assets/uploads/deep/evil.txt', content: Buffer.from('evil') },
      ]),
      message:
        /^cairn: .*nested\.tar\.gz: unsafe asset name "assets\/uploads\/deep\/evil\.txt" \(assets must be plain file names\)$/,
    },
    {
      title: 'a 10 GB declared size',
      file: 'huge.tar.gz',
      make: async (dir) => {
        const tar = declareSize(tarBytes(FIXTURE), 'assets/uploads/harbour_e69b74f980.jpg', 10n * 1024n ** 3n);
        writeArchive(join(dir, 'huge.tar.gz'), tar);
      },
      message:
        /^cairn: the archive declares 10737418240 bytes for "assets\/uploads\/harbour_e69b74f980\.jpg", more than a compressed file of its size can hold \(\d+ bytes in all\): it is damaged or forged$/,
    },
    {
      title: 'a 10 GB declared size in a plain tar',
      file: 'huge.tar',
      make: async (dir) => {
        const tar = declareSize(tarBytes(FIXTURE), 'assets/uploads/harbour_e69b74f980.jpg', 10n * 1024n ** 3n);
        writeArchive(join(dir, 'huge.tar'), tar);
      },
      message:
        /^cairn: the archive declares 10737418240 bytes for "assets\/uploads\/harbour_e69b74f980\.jpg", more than a file of its size can hold/,
    },
    {
      title: 'an asset without its sidecar',
      file: 'nosidecar.tar.gz',
      make: rewrite('nosidecar.tar.gz', (entries) =>
        entries.filter((e) => e.name !== 'assets/metadata/notes_b9e08fd574.txt.json'),
      ),
      message: /^cairn: the archive has no metadata for the asset\(s\) "notes_b9e08fd574\.txt"$/,
    },
    {
      title: 'a sidecar naming another file',
      file: 'lying.tar.gz',
      make: rewrite('lying.tar.gz', (entries) =>
        entries.map((e) =>
          e.name === 'assets/metadata/notes_b9e08fd574.txt.json'
            ? {
                name: e.name,
                content: Buffer.from(JSON.stringify({ ...JSON.parse(e.content.toString()), hash: '../../x' })),
              }
            : e,
        ),
      ),
      message: /^cairn: the metadata of the asset "notes_b9e08fd574\.txt" names another file \(\.\.\/\.\.\/x\.txt\)$/,
    },
    {
      title: 'a broken JSONL line',
      file: 'broken.tar.gz',
      make: rewrite('broken.tar.gz', (entries) =>
        entries.map((e) =>
          e.name.startsWith('links/')
            ? { name: e.name, content: Buffer.concat([e.content, Buffer.from('\n{"kind":')]) }
            : e,
        ),
      ),
      message: /^cairn: links_00001\.jsonl line 153 is not valid JSON$/,
    },
    {
      title: 'no metadata.json',
      file: 'nometa.tar.gz',
      make: rewrite('nometa.tar.gz', (entries) => entries.filter((e) => e.name !== 'metadata.json')),
      message: /^cairn: the archive has no metadata\.json: it is truncated or not a Strapi data file$/,
    },
    {
      title: 'a link the database refuses half-way through the transaction',
      file: 'duplicate.tar.gz',
      make: rewrite('duplicate.tar.gz', (entries) => {
        const links = entry(entries, 'links/');
        const tag = jsonLines(links).find((line) => (line.left as { field?: string }).field === 'tags')!;
        return entries.map((e) =>
          e === links ? { name: e.name, content: Buffer.concat([e.content, Buffer.from('\n'), jsonl([tag])]) } : e,
        );
      }),
      message: /^cairn: the import failed and was rolled back \(the database is as it was\): /,
    },
  ];
}

for (const database of inject('databases')) {
  describe(`[${database}] bad archives leave the database as it was`, () => {
    let project: TransferProject;
    let dir: string;
    let before: Record<string, unknown>;
    let uploads: string[];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-transfer-bad-'));
      project = await transferProject(database);
      const imported = await project.run('import', '--file', FIXTURE);
      if (imported.code !== 0) throw new Error(imported.stderr);
      const entries = await readEntries(FIXTURE);
      for (const bad of cases()) await bad.make(dir, entries);
      await project.start();
      before = await project.answers();
      uploads = project.uploads();
      await project.stop();
    }, 180_000);
    afterAll(async () => {
      await project?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    for (const bad of cases()) {
      it(`${bad.title}: one clear message, exit code 1`, async () => {
        const force = bad.unforced ? [] : ['--force'];
        const result = await project.run('import', '--file', join(dir, bad.file), ...force, ...(bad.args ?? []));
        expect(result.code).toBe(1);
        expect(result.stdout).not.toContain('completed successfully');
        expect(result.stderr.trimEnd()).toMatch(bad.message);
        expect(result.stderr).not.toMatch(/\n\s+at /);
        expect(project.uploads()).toEqual(uploads);
        expect(
          existsSync(join(project.dir, '.tmp', 'transfer')) && readdirSync(join(project.dir, '.tmp', 'transfer')),
        ).toBeFalsy();
      }, 60_000);
    }

    it('and afterwards the project answers every query as before', async () => {
      expect(existsSync('/tmp/cairn-evil.txt')).toBe(false);
      await project.start();
      expect(await project.answers()).toEqual(before);
      await project.stop();
    }, 60_000);
  });
}
