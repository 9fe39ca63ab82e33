import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip, gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { tarEntries, type TarEntry } from './tar-entries.js';

/** A tar of `files` in memory. */
async function tarOf(files: Record<string, string>): Promise<Buffer> {
  const archive = pack();
  for (const [name, content] of Object.entries(files)) archive.entry({ name }, content);
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readAll(entries: AsyncIterable<TarEntry>): Promise<Record<string, string>> {
  const read: Record<string, string> = {};
  for await (const entry of entries) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    read[entry.header.name] = Buffer.concat(chunks).toString('utf8');
  }
  return read;
}

/** Settles with `work`, or with 'hung' after a second: the bug this guards against never settled. */
const withinASecond = <T>(work: Promise<T>) => Promise.race([work, sleep(1000).then(() => 'hung' as const)]);

// The reader's caller may await something else (a folder to create) before it starts the loop; on a
// busy machine the archive was parsed meanwhile and the loop waited for good (cairn import hung).
describe('tarEntries, iterated only after the stream has been read', () => {
  const files = { 'metadata.json': '{"a":1}', 'entities/entities_00001.jsonl': '{"type":"x"}\n' };

  it('still yields every entry', async () => {
    const tar = tarEntries(Readable.from([await tarOf(files)]), []);
    await sleep(100);
    expect(await withinASecond(readAll(tar.entries))).toEqual(files);
    await expect(tar.finished).resolves.toBeUndefined();
  });

  it('still yields every entry of a gzipped tar', async () => {
    const tar = tarEntries(Readable.from([gzipSync(await tarOf(files))]), [createGunzip()]);
    await sleep(100);
    expect(await withinASecond(readAll(tar.entries))).toEqual(files);
  });

  it('still fails on bytes that are no tar', async () => {
    const tar = tarEntries(Readable.from([Buffer.alloc(4096, 7)]), []);
    await sleep(100);
    const outcome = await withinASecond(
      readAll(tar.entries).then(
        () => 'read',
        (error: Error) => error.message,
      ),
    );
    expect(outcome).toMatch(/header/i);
    await expect(tar.finished).rejects.toThrow(/header/i);
  });
});
