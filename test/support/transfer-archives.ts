import { once } from 'node:events';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { decryptionCipher, encryptionCipher } from '../../src/transfer/archive-cipher.js';
import { tarEntries } from '../../src/transfer/tar-entries.js';

/* Reading and rewriting Strapi archives in tests: the bad archives are made from a good one. */

/** One tar entry: its name and bytes. */
export interface ArchiveEntry {
  name: string;
  content: Buffer;
}

/** The tar bytes of an archive (`.tar`, `.tar.gz`, `.tar.gz.enc` with its key). */
export function tarBytes(file: string, key?: string): Buffer {
  let bytes = readFileSync(file);
  if (file.endsWith('.enc')) {
    const decipher = decryptionCipher(key ?? '');
    bytes = Buffer.concat([decipher.update(bytes), decipher.final()]);
  }
  return file.replace(/\.enc$/, '').endsWith('.gz') ? gunzipSync(bytes) : bytes;
}

/** Every entry of an archive, in order. */
export async function readEntries(file: string, key?: string): Promise<ArchiveEntry[]> {
  const tar = tarEntries(Readable.from([tarBytes(file, key)]), []);
  const entries: ArchiveEntry[] = [];
  for await (const entry of tar.entries) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    entries.push({ name: entry.header.name, content: Buffer.concat(chunks) });
  }
  await tar.finished;
  return entries;
}

/** A tar of the entries (names written as given, `../` included). */
export async function tarOf(entries: readonly ArchiveEntry[]): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of tar) chunks.push(chunk as Buffer);
  })();
  for (const { name, content } of entries) {
    await new Promise<void>((resolve, reject) =>
      tar.entry({ name, size: content.length }, content, (error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  tar.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** Writes tar bytes as `file`: gzipped for `.gz`, then encrypted with `key` for `.enc`. */
export function writeArchive(file: string, tar: Buffer, key?: string): void {
  let bytes = file.replace(/\.enc$/, '').endsWith('.gz') ? gzipSync(tar) : tar;
  if (file.endsWith('.enc')) {
    const cipher = encryptionCipher(key ?? '');
    bytes = Buffer.concat([cipher.update(bytes), cipher.final()]);
  }
  writeFileSync(file, bytes);
}

/** Writes the entries as the archive `file` (tarred, then gzipped and encrypted as its name says). */
export async function writeEntries(file: string, entries: readonly ArchiveEntry[], key?: string): Promise<void> {
  writeArchive(file, await tarOf(entries), key);
}

/** The JSONL lines of an entry, parsed. */
export function jsonLines(entry: ArchiveEntry): Record<string, unknown>[] {
  return entry.content
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** JSONL content of values. */
export function jsonl(values: readonly unknown[]): Buffer {
  return Buffer.from(values.map((value) => `${JSON.stringify(value)}\n`).join(''));
}

/**
 * Rewrites the declared size of the entry `name` in tar bytes (base-256, as tar writes sizes over
 * 8 GiB) and its header checksum, leaving the content as it is: an archive that claims far more
 * than it holds.
 */
export function declareSize(tar: Buffer, name: string, size: bigint): Buffer {
  const copy = Buffer.from(tar);
  for (let offset = 0; offset + 512 <= copy.length;) {
    const header = copy.subarray(offset, offset + 512);
    const entryName = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    if (entryName === '') break;
    const declared = parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    if (entryName === name) {
      header[124] = 0x80;
      let rest = size;
      for (let i = 135; i > 124; i -= 1) {
        header[i] = Number(rest & 0xffn);
        rest >>= 8n;
      }
      header.fill(0x20, 148, 156);
      const sum = header.reduce((total, byte) => total + byte, 0);
      header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'utf8');
      return copy;
    }
    offset += 512 + Math.ceil(declared / 512) * 512;
  }
  throw new Error(`no entry ${name} in the tar`);
}

/**
 * Writes a `.tar.gz` of the entries in which `name` (`entities/entities_00001.jsonl`) is followed
 * by a second file of the stage (`_00002`) holding one JSON line of `lineBytes` bytes (an entity
 * whose title is that long, at least 64 bytes), streamed: a gzip bomb of one line, a few
 * hundred KB on disk for hundreds of MB unpacked, made without holding the line in memory.
 */
export async function writeLongLineArchive(
  file: string,
  entries: readonly ArchiveEntry[],
  name: string,
  lineBytes: number,
): Promise<void> {
  const tar = pack();
  const written = pipeline(tar, createGzip({ level: 9 }), createWriteStream(file));
  const add = (header: { name: string; size: number }, content?: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => (error ? reject(error) : resolve());
      if (content) {
        tar.entry(header, content, done);
        return;
      }
      const stream = tar.entry(header, done);
      void (async () => {
        const chunk = Buffer.alloc(1 << 20, 'a');
        const write = async (bytes: Buffer) => {
          if (!stream.write(bytes)) await once(stream, 'drain');
        };
        const head = Buffer.from('{"type":"api::article.article","id":999,"data":{"title":"');
        const tail = Buffer.from('"}}\n');
        await write(head);
        for (let left = header.size - head.length - tail.length; left > 0; left -= chunk.length)
          await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
        stream.end(tail);
      })().catch(reject);
    });
  for (const entry of entries) {
    await add({ name: entry.name, size: entry.content.length }, entry.content);
    if (entry.name === name) await add({ name: name.replace(/_00001/, '_00002'), size: lineBytes });
  }
  tar.finalize();
  await written;
}
