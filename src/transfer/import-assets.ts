import { cp, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Executor } from '../db/database.js';
import { eq, isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { DECODERS } from '../shape/decode-value.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileUpdate } from '../sql/compile-write.js';
import type { Dialect } from '../sql/dialect.js';
import type { StagedAsset } from './archive-reader.js';
import type { IdMap } from './id-map.js';

const FILES_TABLE = 'files';

/**
 * Points the imported `files` rows at their files as the local provider stores them, as Strapi's
 * import does after uploading each asset: the original's `url` (and each format's in `formats`)
 * becomes `/uploads/<hash><ext>` and `provider` the configured one. Rows already saying so (an
 * archive from a local-provider project) are left alone. Assets of files that were not imported
 * are ignored.
 */
export async function pointFilesAtUploads(
  exec: Executor,
  dialect: Dialect,
  ids: IdMap,
  assets: Iterable<StagedAsset>,
  provider: string,
): Promise<void> {
  const byFile = new Map<number, StagedAsset[]>();
  for (const asset of assets) {
    const id = ids.get('plugin::upload.file', asset.metadata.id);
    if (id === undefined) continue;
    const list = byFile.get(id) ?? [];
    list.push(asset);
    byFile.set(id, list);
  }
  const fileIds = [...byFile.keys()];
  for (let start = 0; start < fileIds.length; start += 500) {
    const chunk = fileIds.slice(start, start + 500);
    const plan = simpleSelect(
      FILES_TABLE,
      { id: ['id', 'integer'], url: ['url', 'string'], provider: ['provider', 'string'], formats: ['formats', 'json'] },
      isIn('id', chunk),
    );
    for (const row of await exec.all(compileSelect(dialect, plan))) {
      const id = Number(row.id);
      let url = row.url;
      const formats = (DECODERS.json(row.formats) ?? null) as Record<string, Record<string, unknown>> | null;
      let changed = row.provider !== provider;
      for (const asset of byFile.get(id) ?? []) {
        const local = `/uploads/${asset.filename}`;
        const format = asset.metadata.type ? formats?.[asset.metadata.type] : undefined;
        if (!asset.metadata.type && url !== local) {
          url = local;
          changed = true;
        } else if (format && format.url !== local) {
          format.url = local;
          changed = true;
        }
      }
      if (!changed) continue;
      await exec.run(
        compileUpdate(dialect, {
          table: FILES_TABLE,
          set: rowOf({ url: [url, 'string'], provider: [provider, 'string'], formats: [formats, 'json'] }),
          where: eq('id', id, 'integer'),
        }),
      );
    }
  }
}

/**
 * Replaces `public/uploads` with the staged files once the import committed, as Strapi replaces
 * the local provider's folder: the old folder is moved aside (`uploads_backup_<time>`), the
 * staged one moved in (copied when on another file system), `.gitkeep` kept, and the backup
 * deleted; if moving in fails, the old folder is put back.
 */
export async function installUploads(staged: string, uploads: string, now: Date): Promise<void> {
  const exists = await stat(uploads).then(
    () => true,
    () => false,
  );
  const keep = exists && (await readdir(uploads)).includes('.gitkeep');
  const backup = `${uploads}_backup_${now.getTime()}`;
  if (exists) await rename(uploads, backup);
  try {
    try {
      await rename(staged, uploads);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await mkdir(uploads, { recursive: true });
      await cp(staged, uploads, { recursive: true });
    }
    if (keep) await writeFile(join(uploads, '.gitkeep'), '');
  } catch (error) {
    if (exists) {
      await rm(uploads, { recursive: true, force: true });
      await rename(backup, uploads);
    }
    throw error;
  }
  if (exists) await rm(backup, { recursive: true, force: true });
}
