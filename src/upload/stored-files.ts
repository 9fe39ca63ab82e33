import { isRecord } from '../core/is-record.js';
import type { Database, Executor } from '../db/database.js';
import { isIn, simpleSelect } from '../plan/simple-plans.js';
import { decodeValue } from '../shape/decode-value.js';
import { compileSelect } from '../sql/compile-read.js';
import type { StoredObject } from './upload-provider.js';

const FILES = 'files';

/** What deleting, replacing or signing a file needs to know of its stored objects (Strapi's keys, as its providers read them). */
export interface StoredFileRow {
  readonly id: number;
  readonly name: string;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly url: string;
  /** The provider that stored it (`local`, `aws-s3`…). */
  readonly provider: string | null;
  readonly provider_metadata: unknown;
  readonly formats: Readonly<Record<string, StoredObject>> | null;
}

/** The stored objects of file `id`, or null. */
export async function findStoredFile(exec: Executor, db: Database, id: number): Promise<StoredFileRow | null> {
  return (await findStoredFiles(exec, db, [id])).get(id) ?? null;
}

/** The stored objects of the files with these ids (one SELECT), by id; ids without a row are absent. */
export async function findStoredFiles(
  exec: Executor,
  db: Database,
  ids: readonly number[],
): Promise<Map<number, StoredFileRow>> {
  if (ids.length === 0) return new Map();
  const columns = {
    id: ['id', 'integer'],
    name: ['name', 'string'],
    hash: ['hash', 'string'],
    ext: ['ext', 'string'],
    mime: ['mime', 'string'],
    url: ['url', 'string'],
    provider: ['provider', 'string'],
    providerMetadata: ['provider_metadata', 'json'],
    formats: ['formats', 'json'],
  } as const;
  const rows = await exec.all(compileSelect(db.dialect, simpleSelect(FILES, columns, isIn('id', [...ids]))));
  return new Map(
    rows.map((row) => [
      Number(row.id),
      {
        id: Number(row.id),
        name: String(row.name ?? ''),
        hash: String(row.hash ?? ''),
        ext: String(row.ext ?? ''),
        mime: String(row.mime ?? ''),
        url: String(row.url ?? ''),
        provider: row.provider === null || row.provider === undefined ? null : String(row.provider),
        provider_metadata: decodeValue('json', row.providerMetadata) ?? null,
        formats: storedFormats(decodeValue('json', row.formats)),
      },
    ]),
  );
}

/** A row's `formats` JSON, keeping the entries that name a stored object (`hash`, `ext`, `url`). */
function storedFormats(value: unknown): Readonly<Record<string, StoredObject>> | null {
  if (!isRecord(value)) return null;
  const formats: Record<string, StoredObject> = {};
  for (const [key, format] of Object.entries(value)) {
    if (
      isRecord(format) &&
      typeof format.hash === 'string' &&
      typeof format.ext === 'string' &&
      typeof format.url === 'string'
    )
      formats[key] = format as StoredObject;
  }
  return formats;
}
