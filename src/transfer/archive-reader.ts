import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, rmdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { decryptionCipher } from './archive-cipher.js';
import { classifyEntry, UnsafeEntryError } from './archive-layout.js';
import { checkAssetMetadata } from './asset-metadata.js';
import { jsonlLineLimit } from './jsonl-line-limit.js';
import { tarEntries } from './tar-entries.js';
import { TransferError } from './transfer-error.js';
import type { ArchiveMetadata, AssetMetadata, JsonlStage } from './transfer-types.js';

/** An asset taken out of the archive into the staging folder. */
export interface StagedAsset {
  readonly filename: string;
  readonly path: string;
  readonly size: number;
  readonly metadata: AssetMetadata;
}

/** An archive unpacked and checked in a staging folder, ready to be imported (or thrown away). */
export interface StagedArchive {
  readonly dir: string;
  readonly metadata: ArchiveMetadata;
  /** The staged JSONL files of each stage, in order. */
  readonly jsonl: ReadonlyMap<JsonlStage, readonly string[]>;
  readonly assets: ReadonlyMap<string, StagedAsset>;
  /** Deletes the staging folder. */
  remove(): Promise<void>;
}

/** How an archive file is read: from its name, as `strapi import` decides (`.tar[.gz][.enc]`). */
export interface ArchiveFormat {
  readonly compressed: boolean;
  readonly encrypted: boolean;
}

/** `x.tar.gz.enc` → compressed and encrypted; a name not ending in `.tar[.gz][.enc]` is refused. */
export function archiveFormat(file: string): ArchiveFormat {
  let name = basename(file);
  const encrypted = name.endsWith('.enc');
  if (encrypted) name = name.slice(0, -4);
  const compressed = name.endsWith('.gz');
  if (compressed) name = name.slice(0, -3);
  if (!name.endsWith('.tar')) {
    throw new TransferError(
      `${file} does not look like a Strapi data file: its name must end in .tar, .tar.gz or .tar.gz.enc`,
    );
  }
  return { compressed, encrypted };
}

/** Deflate never shrinks data more than about 1032 to 1: an archive of N bytes holds at most this much. */
const MAX_DEFLATE_RATIO = 1032;
/** The largest sidecar or metadata.json read into memory. */
const MAX_JSON_ENTRY = 1 << 20;

/**
 * Unpacks `file` into a new folder under `stagingParent`, checking as it goes: entry names
 * (no `..`, no absolute paths, plain asset names), entry kinds (files and folders only), each
 * entry's declared size against what an archive of this size can hold, the key (a wrong one
 * fails here), truncation, `metadata.json`, the schemas, and every asset's sidecar. Any problem
 * is a TransferError naming it, and the folder is removed.
 */
export async function stageArchive(
  file: string,
  key: string | undefined,
  stagingParent: string,
): Promise<StagedArchive> {
  const format = archiveFormat(file);
  if (format.encrypted && (key === undefined || key === '')) {
    throw new TransferError(`${file} is encrypted: give its key with --key`);
  }
  const archiveBytes = await stat(file).then(
    (s) => s.size,
    () => {
      throw new TransferError(`cannot read ${file}: no such file`);
    },
  );
  await mkdir(stagingParent, { recursive: true });
  await removeAbandonedStaging(stagingParent);
  const dir = await mkdtemp(join(stagingParent, `import-${process.pid}-`));
  // The staging folder goes, and its parent too when nothing else is in it.
  const remove = async () => {
    await rm(dir, { recursive: true, force: true });
    await rmdir(stagingParent).catch(() => undefined);
  };
  try {
    const limit = format.compressed ? archiveBytes * MAX_DEFLATE_RATIO + 65_536 : archiveBytes;
    const staged = await unpack(file, format, key, dir, limit);
    return { ...(await checkStaged(staged)), dir, remove };
  } catch (error) {
    await remove();
    throw explain(error, file, format);
  }
}

/**
 * Deletes the staging folders of imports that are no longer running (killed, or out of memory
 * before they could clean up): `import-<pid>-…` whose process is gone, and the unnamed ones of
 * earlier versions. A folder of a running import (another `cairn import` on the project) stays.
 */
async function removeAbandonedStaging(stagingParent: string): Promise<void> {
  for (const name of await readdir(stagingParent)) {
    const match = /^import-(?:(\d+)-)?/.exec(name);
    if (!match || (match[1] !== undefined && isRunning(Number(match[1])))) continue;
    await rm(join(stagingParent, name), { recursive: true, force: true });
  }
}

/** Whether a process `pid` exists (signal 0 checks without sending anything). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Unpacked {
  metadata?: unknown;
  readonly jsonl: Map<JsonlStage, Map<number, string>>;
  readonly uploads: Map<string, { path: string; size: number }>;
  readonly sidecars: Map<string, unknown>;
}

async function unpack(file: string, format: ArchiveFormat, key: string | undefined, dir: string, limit: number) {
  const transforms: Transform[] = [];
  if (format.encrypted) transforms.push(decryptionCipher(key ?? ''));
  if (format.compressed) transforms.push(createGunzip());
  await mkdir(join(dir, 'uploads'));
  const found: Unpacked = { jsonl: new Map(), uploads: new Map(), sidecars: new Map() };
  const seen = new Set<string>();
  let total = 0;
  const tar = tarEntries(createReadStream(file), transforms);
  for await (const entry of tar.entries) {
    const { name, type, size = 0 } = entry.header;
    if (type === 'directory') {
      entry.resume();
      continue;
    }
    if (type !== 'file' && type !== 'contiguous-file') {
      throw new TransferError(
        `the archive holds ${JSON.stringify(name)}, a ${type ?? 'special'} entry: only files are allowed`,
      );
    }
    const kind = classifyEntry(name);
    total += size;
    if (size > limit || total > limit) {
      throw new TransferError(
        `the archive declares ${size} bytes for ${JSON.stringify(name)}, more than a ${format.compressed ? 'compressed ' : ''}file of its size can hold (${limit} bytes in all): it is damaged or forged`,
      );
    }
    const id =
      kind.kind === 'jsonl'
        ? `${kind.stage}/${kind.index}`
        : kind.kind === 'other'
          ? ''
          : `${kind.kind}/${'filename' in kind ? kind.filename : ''}`;
    if (id !== '' && seen.has(id)) throw new TransferError(`the archive holds ${JSON.stringify(name)} twice`);
    seen.add(id);
    if (kind.kind === 'jsonl') {
      const path = join(dir, `${kind.stage}-${String(kind.index).padStart(5, '0')}.jsonl`);
      await pipeline(entry, jsonlLineLimit(name), createWriteStream(path));
      const files = found.jsonl.get(kind.stage) ?? new Map<number, string>();
      files.set(kind.index, path);
      found.jsonl.set(kind.stage, files);
    } else if (kind.kind === 'asset') {
      const path = join(dir, 'uploads', kind.filename);
      await pipeline(entry, createWriteStream(path));
      found.uploads.set(kind.filename, { path, size });
    } else if (kind.kind === 'asset-metadata' || kind.kind === 'metadata') {
      const value = await readJson(entry as unknown as Readable, name, size);
      if (kind.kind === 'metadata') found.metadata = value;
      else found.sidecars.set(kind.filename, value);
    } else {
      entry.resume();
    }
  }
  await tar.finished;
  return found;
}

async function readJson(entry: Readable, name: string, size: number): Promise<unknown> {
  if (size > MAX_JSON_ENTRY) throw new TransferError(`${name} is ${size} bytes, too large for a metadata file`);
  const chunks: Buffer[] = [];
  for await (const chunk of entry) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new TransferError(`${name} in the archive is not valid JSON`);
  }
}

async function checkStaged(found: Unpacked): Promise<Omit<StagedArchive, 'dir' | 'remove'>> {
  const metadata = found.metadata as Partial<ArchiveMetadata> | undefined;
  if (metadata === undefined)
    throw new TransferError('the archive has no metadata.json: it is truncated or not a Strapi data file');
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new TransferError('metadata.json in the archive is not an object');
  }
  if (!found.jsonl.has('schemas')) throw new TransferError('the archive has no schemas: it is not a Strapi data file');
  const jsonl = new Map<JsonlStage, string[]>();
  for (const [stage, files] of found.jsonl) {
    jsonl.set(
      stage,
      [...files.entries()].sort(([a], [b]) => a - b).map(([, path]) => path),
    );
  }
  const assets = new Map<string, StagedAsset>();
  const missing = [...found.uploads.keys()].filter((filename) => !found.sidecars.has(filename)).sort();
  if (missing.length > 0) {
    throw new TransferError(
      `the archive has no metadata for the asset(s) ${missing.map((f) => JSON.stringify(f)).join(', ')}`,
    );
  }
  for (const [filename, upload] of found.uploads) {
    const metadata = checkAssetMetadata(found.sidecars.get(filename), filename);
    assets.set(filename, { filename, ...upload, metadata });
  }
  return { metadata: metadata as ArchiveMetadata, jsonl, assets };
}

/** Turns what reading failed with into one line for the user. */
function explain(error: unknown, file: string, format: ArchiveFormat): Error {
  if (error instanceof TransferError) return error;
  if (error instanceof UnsafeEntryError) return new TransferError(`${file}: ${error.message}`);
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  if (format.encrypted && (code === 'ERR_OSSL_BAD_DECRYPT' || /bad decrypt|wrong final block/i.test(message))) {
    return new TransferError(`cannot read ${file}: the key is wrong, or the file is not a Strapi data file`);
  }
  if (code === 'Z_BUF_ERROR' || /unexpected end/i.test(message)) {
    return new TransferError(`cannot read ${file}: it is truncated (${message})`);
  }
  if (code === 'Z_DATA_ERROR' || /header/i.test(message)) {
    return new TransferError(
      format.encrypted
        ? `cannot read ${file}: the key is wrong, or the file is not a Strapi data file`
        : `cannot read ${file}: it is damaged or not a Strapi data file (${message})`,
    );
  }
  return new TransferError(`cannot read ${file}: ${message}`);
}
