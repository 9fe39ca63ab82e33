import { constants } from 'node:fs';
import { access, mkdir, rename } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { Database, Executor } from '../db/database.js';
import type { Project } from '../project/load-project.js';
import { stageArchive, type StagedArchive } from './archive-reader.js';
import { archiveSchemas, type ArchiveSchema } from './archive-schemas.js';
import { clearTables, countContent, tablesToClear } from './clear-destination.js';
import { compareSchemas, formatSchemaDiffs } from './compare-schemas.js';
import { IdMap } from './id-map.js';
import { installUploads, pointFilesAtUploads } from './import-assets.js';
import { insertConfiguration, webhookRefusal } from './import-configuration.js';
import { ENTITY_BATCH, insertEntities } from './import-entities.js';
import { LinkWriter } from './import-links.js';
import { entityValueProblem } from './import-values.js';
import { asConfiguration, asEntity, asLink, readJsonl, type RecordPlace } from './jsonl-records.js';
import { SchemaDrift } from './schema-drift.js';
import { TransferError } from './transfer-error.js';
import type { TransferProgress } from './transfer-progress.js';
import { isTransferredType, type TransferScope } from './transfer-scope.js';
import type { JsonlStage, TransferEntity } from './transfer-types.js';

/** What `cairn import` was asked for. */
export interface ImportOptions {
  readonly file: string;
  readonly key?: string;
  /** Import into a database that holds content (it is deleted first). */
  readonly force: boolean;
  readonly scope: TransferScope;
  readonly now: Date;
  /** NODE_ENV is production: an archive's webhook pointing at this machine is left out, as the admin panel refuses it. */
  readonly production: boolean;
}

/** What the read before writing found: the counts for the bars, what is left out and why. */
interface Preflight {
  readonly totals: ReadonlyMap<JsonlStage, number>;
  readonly drift: SchemaDrift;
  /** The places (`configuration_00001.jsonl line 3`) of the webhooks that are not imported. */
  readonly skippedWebhooks: ReadonlySet<RecordPlace>;
}

/** The local provider's names (`config/plugins` upload.provider): only it takes the files stage. */
const LOCAL_PROVIDERS = new Set(['local', '@strapi/provider-upload-local']);

/**
 * Loads an archive into the project's database, all or nothing:
 *
 * 1. unpack and check the archive into a staging folder (names, sizes, key, truncation, sidecars);
 * 2. compare its schemas with the project's (Strapi's strict comparison): a difference refuses the
 *    import with a report per type and attribute, unless `force`, which goes on past it after the
 *    report, as `strapi import --force` does (schema-drift.ts: what the project lacks is left out,
 *    what the archive lacks takes its default, and both are reported with counts);
 * 3. read every entity, link and configuration line once (shapes, known types, every value against
 *    its attribute's type, webhook URLs as the admin panel checks them), so that a bad archive is
 *    refused before anything is written, naming the line, the entity and the attribute;
 * 4. refuse a database holding content unless `force`;
 * 5. in one transaction: delete what the import replaces, write the entities (new ids), the links
 *    (with the new ids and the archive's order), the configuration, and point the file rows at
 *    their files; a failure rolls all of it back;
 * 6. after the commit, swap the staged files in as `public/uploads`.
 */
export async function runImport(
  project: Project,
  db: Database,
  options: ImportOptions,
  progress: TransferProgress,
): Promise<void> {
  const staged = await stageArchive(resolve(options.file), options.key, join(project.dir, '.tmp', 'transfer'));
  let keepStaged = false;
  try {
    const drift = await checkSchemas(project, staged, options.force, progress);
    const read = await preflight(project, staged, options, drift, progress);
    for (const line of drift.report()) progress.warn(line);
    const provider = project.config.upload.provider;
    if (options.scope.files && staged.assets.size > 0 && !LOCAL_PROVIDERS.has(provider.toLowerCase())) {
      throw new TransferError(
        `the archive's files go to public/uploads, but the project stores uploads with the "${provider}" provider: import with --exclude files and copy the files to the provider yourself`,
      );
    }
    if (options.scope.content && !options.force) {
      const held = await countContent(db, db.dialect, project.schema);
      if (held.size > 0) {
        const list = [...held].map(([uid, count]) => `${count} ${uid}`).join(', ');
        throw new TransferError(
          `the database holds content (${list}); the import deletes it first: add --force to go on`,
        );
      }
    }
    const uploads = join(project.config.upload.publicDir, 'uploads');
    if (options.scope.files) await checkWritable(project.config.upload.publicDir);
    try {
      await db.transaction((tx) => writeAll(tx, project, db, staged, options, read, progress));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new TransferError(`the import failed and was rolled back (the database is as it was): ${reason}`);
    }
    if (options.scope.files) {
      progress.start('assets', staged.assets.size);
      try {
        await installUploads(join(staged.dir, 'uploads'), uploads, options.now);
      } catch (error) {
        keepStaged = true;
        // Renamed out of the `import-` folders the next import clears.
        const renamed = join(dirname(staged.dir), `kept-${basename(staged.dir)}`);
        const kept = await rename(staged.dir, renamed).then(
          () => renamed,
          () => staged.dir,
        );
        throw new TransferError(
          `the database was imported, but the files could not be moved into ${uploads} (${(error as Error).message}); they are in ${join(kept, 'uploads')}`,
        );
      }
      for (const asset of staged.assets.values())
        progress.tick('assets', extname(asset.filename) || 'No extension', asset.size);
    }
  } finally {
    if (!keepStaged) await staged.remove();
  }
}

/** The public folder exists (created if missing) and may be written, before anything is imported. */
async function checkWritable(publicDir: string): Promise<void> {
  try {
    await mkdir(publicDir, { recursive: true });
    await access(publicDir, constants.W_OK);
  } catch (error) {
    throw new TransferError(`the files go to ${publicDir}, which cannot be written (${(error as Error).message})`);
  }
}

/** The archive's schemas against the project's: refused when they differ, unless `force` (then reported). */
async function checkSchemas(
  project: Project,
  staged: StagedArchive,
  force: boolean,
  progress: TransferProgress,
): Promise<SchemaDrift> {
  const archive: ArchiveSchema[] = [];
  for await (const { value, place } of readJsonl(staged.jsonl.get('schemas') ?? [])) {
    if (typeof value !== 'object' || value === null || typeof (value as ArchiveSchema).uid !== 'string') {
      throw new TransferError(`${place}: not a schema (no uid)`);
    }
    archive.push(value as ArchiveSchema);
  }
  const diffs = compareSchemas(archive, archiveSchemas(project.schema, project.modelFiles));
  if (diffs.size > 0 && !force) {
    throw new TransferError(
      `the archive's schemas differ from the project's, so nothing was imported (Strapi's strict check; --force imports anyway, leaving out what the project lacks):\n${formatSchemaDiffs(diffs)}`,
    );
  }
  if (diffs.size > 0) {
    progress.warn(
      `the archive's schemas differ from the project's; importing anyway (--force), as strapi import --force does:\n${formatSchemaDiffs(diffs)}`,
    );
  }
  return new SchemaDrift(project.schema, diffs);
}

/**
 * Reads every record once before writing: shapes, types and values are checked, counts are taken
 * for the bars and the report, and the webhooks the admin panel would refuse are set aside.
 */
async function preflight(
  project: Project,
  staged: StagedArchive,
  options: ImportOptions,
  drift: SchemaDrift,
  progress: TransferProgress,
): Promise<Preflight> {
  const { schema } = project;
  const counts = new Map<JsonlStage, number>();
  const skippedWebhooks = new Set<RecordPlace>();
  const files = (stage: JsonlStage) => staged.jsonl.get(stage) ?? [];
  if (options.scope.content) {
    let entities = 0;
    for await (const { value, place } of readJsonl(files('entities'))) {
      const entity = asEntity(value, place);
      if (!isTransferredType(entity.type)) continue;
      drift.countEntity(entity);
      if (drift.dropsType(entity.type)) continue;
      const model = schema.contentTypes.get(entity.type);
      if (!model) throw new TransferError(`${place}: the project has no content type ${entity.type}`);
      const problem = entityValueProblem(schema, model, entity.data);
      if (problem !== undefined) {
        throw new TransferError(
          `${place}: ${entity.type} ${entity.id}, attribute ${problem}: nothing was imported (the database is as it was)`,
        );
      }
      entities += 1;
    }
    let links = 0;
    for await (const { value, place } of readJsonl(files('links'))) {
      const link = asLink(value, place);
      drift.countLink(link);
      links += 1;
    }
    counts.set('entities', entities).set('links', links);
  }
  if (options.scope.config) {
    let items = 0;
    for await (const { value, place } of readJsonl(files('configuration'))) {
      const item = asConfiguration(value, place);
      const refusal = await webhookRefusal(item, options.production);
      if (refusal !== undefined) {
        skippedWebhooks.add(place);
        progress.warn(`${place}: the webhook ${JSON.stringify(item.value.name)} was not imported: ${refusal}`);
        continue;
      }
      items += 1;
    }
    counts.set('configuration', items);
  }
  return { totals: counts, drift, skippedWebhooks };
}

async function writeAll(
  tx: Executor,
  project: Project,
  db: Database,
  staged: StagedArchive,
  options: ImportOptions,
  { totals, drift, skippedWebhooks }: Preflight,
  progress: TransferProgress,
): Promise<void> {
  const { schema } = project;
  const { dialect } = db;
  const files = (stage: JsonlStage) => staged.jsonl.get(stage) ?? [];
  await clearTables(tx, dialect, tablesToClear(schema, options.scope));
  const ids = new IdMap();
  if (options.scope.content) {
    progress.start('entities', totals.get('entities'));
    let batch: TransferEntity[] = [];
    const flush = async () => {
      try {
        await insertEntities(tx, dialect, schema, ids, batch);
      } catch (error) {
        if (error instanceof TransferError || !batch[0]) throw error;
        throw new TransferError(`writing ${batch[0].type} entities: ${(error as Error).message}`);
      }
      batch = [];
    };
    for await (const { value, place } of readJsonl(files('entities'))) {
      const entity = asEntity(value, place);
      if (!isTransferredType(entity.type) || drift.dropsType(entity.type)) continue;
      if (batch.length >= ENTITY_BATCH || (batch[0] && batch[0].type !== entity.type)) await flush();
      batch.push(entity);
      progress.tick('entities', entity.type, JSON.stringify(entity.data).length);
    }
    await flush();
    progress.start('links', totals.get('links'));
    const links = new LinkWriter(tx, dialect, schema, ids);
    for await (const { value, place } of readJsonl(files('links'))) {
      const link = asLink(value, place);
      if (!isTransferredType(link.left.type) || !isTransferredType(link.right.type) || drift.dropsLink(link)) continue;
      await links.add(link);
      progress.tick('links', undefined, JSON.stringify(link).length);
    }
    await links.finish();
    if (links.results.skipped > 0) {
      progress.warn(`${links.results.skipped} link(s) were skipped: a row on one end was not in the archive`);
    }
  }
  if (options.scope.config) {
    progress.start('configuration', totals.get('configuration'));
    for await (const { value, place } of readJsonl(files('configuration'))) {
      const item = asConfiguration(value, place);
      if (skippedWebhooks.has(place)) continue;
      await insertConfiguration(tx, dialect, item);
      progress.tick('configuration', undefined, JSON.stringify(item).length);
    }
  }
  if (options.scope.files && options.scope.content) {
    await pointFilesAtUploads(tx, dialect, ids, staged.assets.values(), project.config.upload.provider);
  }
}
