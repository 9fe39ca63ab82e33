import { extname, resolve } from 'node:path';
import type { Database, Executor } from '../db/database.js';
import type { Project } from '../project/load-project.js';
import { strapiModelOrder } from '../schema/strapi-schema.js';
import type { Model } from '../schema/types.js';
import { archiveSchemas } from './archive-schemas.js';
import { ArchiveWriter, archiveFileName } from './archive-writer.js';
import { exportAssets } from './export-assets.js';
import { readConfiguration } from './export-configuration.js';
import { readEntityPage } from './export-entities.js';
import { modelLinks } from './export-links.js';
import type { TransferProgress } from './transfer-progress.js';
import { isTransferredType, type TransferScope } from './transfer-scope.js';
import { STRAPI_FORMAT_VERSION } from './strapi-format.js';

/** What `cairn export` was asked for. */
export interface ExportOptions {
  /** The archive's path without its suffix (`export_20240101120000` by default, as Strapi). */
  readonly file?: string;
  readonly compress: boolean;
  /** The encryption key; undefined: not encrypted. */
  readonly key?: string;
  readonly scope: TransferScope;
  readonly now: Date;
  /** Cairn's version, recorded beside the Strapi format version in metadata.json. */
  readonly cairnVersion: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `export_20240317094512`, Strapi's default archive name (local time). */
export function defaultExportName(now: Date): string {
  return `export_${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}

/**
 * Writes the project's data as a Strapi 5 archive, reading the database in one snapshot: the
 * schemas, then (per the scope) the entities of every transferred content type in Strapi's order,
 * the files, the links, the configuration, and metadata.json. A failure deletes the partial file.
 * Returns the archive's path.
 */
export async function runExport(
  project: Project,
  db: Database,
  options: ExportOptions,
  progress: TransferProgress,
): Promise<string> {
  const path = archiveFileName(resolve(options.file ?? defaultExportName(options.now)), options);
  const writer = new ArchiveWriter(path, {
    compress: options.compress,
    ...(options.key !== undefined ? { key: options.key } : {}),
  });
  try {
    await db.transaction((exec) => writeArchive(exec, project, db, writer, options, progress), { snapshot: true });
    await writer.close({
      createdAt: options.now.toISOString(),
      strapi: { version: STRAPI_FORMAT_VERSION },
      cairn: { version: options.cairnVersion },
    });
    return path;
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

async function writeArchive(
  exec: Executor,
  project: Project,
  db: Database,
  writer: ArchiveWriter,
  options: ExportOptions,
  progress: TransferProgress,
): Promise<void> {
  const { schema } = project;
  const { dialect } = db;
  for (const line of archiveSchemas(schema, project.modelFiles)) await writer.addLine('schemas', line);
  await writer.endStage('schemas');
  const models = strapiModelOrder(schema);
  const types = models.filter((model) => model.modelType === 'contentType' && isTransferredType(model.uid));
  if (options.scope.content) {
    progress.start('entities');
    for (const model of types) {
      let after = 0;
      for (;;) {
        const page = await readEntityPage(exec, dialect, schema, model, after);
        for (const entity of page) progress.tick('entities', entity.type, await writer.addLine('entities', entity));
        if (page.length === 0) break;
        after = page[page.length - 1]?.id ?? after;
      }
    }
    await writer.endStage('entities');
  }
  if (options.scope.files) {
    progress.start('assets');
    for await (const item of exportAssets(exec, dialect, schema, project.config.upload.publicDir)) {
      if (item.kind === 'missing') {
        progress.warn(item.message);
        continue;
      }
      const { asset } = item;
      await writer.addAsset(asset.filename, asset.metadata, asset.source, asset.size);
      progress.tick('assets', extname(asset.filename) || 'No extension', asset.size);
    }
  }
  if (options.scope.content) {
    progress.start('links');
    const linked: Model[] = [...types, ...models.filter((model) => model.modelType === 'component')];
    for (const model of linked) {
      for await (const link of modelLinks(exec, dialect, schema, model)) {
        progress.tick('links', undefined, await writer.addLine('links', link));
      }
    }
    await writer.endStage('links');
  }
  if (options.scope.config) {
    progress.start('configuration');
    for (const item of await readConfiguration(exec, dialect)) {
      progress.tick('configuration', undefined, await writer.addLine('configuration', item));
    }
    await writer.endStage('configuration');
  }
}
