import { createDocumentId } from '../../src/core/document-id.js';
import { rowOf } from '../../src/plan/simple-plans.js';
import { compileInsert } from '../../src/sql/compile-write.js';
import type { TestServer } from './test-server.js';

/**
 * Stores a file record the way the upload plugin does (no upload endpoint needed), so media
 * attributes can be written and populated. Returns the file's row id.
 */
export async function insertFile(
  server: TestServer,
  name: string,
  options: { mime?: string; width?: number | null; height?: number | null } = {},
): Promise<number> {
  const db = server.app.db;
  const now = new Date('2024-01-01T00:00:00.000Z');
  const dot = name.lastIndexOf('.');
  const ext = dot >= 0 ? name.slice(dot) : '';
  const hash = `${name.slice(0, dot >= 0 ? dot : undefined)}_abc123`;
  const row = rowOf({
    document_id: [createDocumentId(), 'string'],
    name: [name, 'string'],
    hash: [hash, 'string'],
    ext: [ext, 'string'],
    mime: [options.mime ?? 'image/png', 'string'],
    size: [1.5, 'float'],
    width: [options.width === undefined ? 64 : options.width, 'integer'],
    height: [options.height === undefined ? 64 : options.height, 'integer'],
    url: [`/uploads/${hash}${ext}`, 'string'],
    provider: ['local', 'string'],
    folder_path: ['/', 'string'],
    created_at: [now, 'datetime'],
    updated_at: [now, 'datetime'],
    published_at: [now, 'datetime'],
  });
  const [id] = await db.insert(compileInsert(db.dialect, { table: 'files', rows: [row] }), 1);
  if (id === undefined) throw new Error('file insert returned no id');
  return id;
}

const FILE_STAMP = '2024-01-01T00:00:00.000Z';

/** A populated file entry as `insertFile(server, name, options)` stores it (Strapi's populated file keys). */
export function fileEntry(
  name: string,
  {
    id,
    documentId,
    mime = 'image/png',
    width = 64,
    height = 64,
  }: { id: unknown; documentId: unknown; mime?: string; width?: number | null; height?: number | null },
): Record<string, unknown> {
  const dot = name.lastIndexOf('.');
  const hash = `${name.slice(0, dot)}_abc123`;
  const ext = name.slice(dot);
  return {
    id,
    documentId,
    name,
    alternativeText: null,
    caption: null,
    width,
    height,
    formats: null,
    hash,
    ext,
    mime,
    size: 1.5,
    url: `/uploads/${hash}${ext}`,
    previewUrl: null,
    provider: 'local',
    provider_metadata: null,
    focalPoint: null,
    createdAt: FILE_STAMP,
    updatedAt: FILE_STAMP,
    publishedAt: FILE_STAMP,
  };
}
