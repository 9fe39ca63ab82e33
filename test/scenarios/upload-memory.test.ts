import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToKilobytes } from '../../src/upload/image-formats.js';
import { filePart, multipartStream } from '../support/multipart.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { pluginsFile, storedNames, tempLeftovers, uploadsDir } from '../support/uploads.js';

// Files are streamed to disk, never held in memory: a 200 MB upload, generated chunk by chunk
// (the test never holds it either), must not raise the process's resident memory by anything near
// 200 MB, and must arrive intact. The server runs in this process (Fastify's inject), so the
// resident set measured is the server's plus the test's; it is sampled every few milliseconds
// during the request and the peak is compared with the level just before it.
//
// One database (SQLite) only: the body is streamed before any database work, and the one row
// written is the same on every database; three runs would triple the 200 MB written to disk.

const SIZE = 200 * 1024 * 1024;
const CHUNK = 64 * 1024;
/** Far below the 200 MB a buffered body would add; measured growth is about 35 MB. */
const MAX_GROWTH = 80 * 1024 * 1024;

describe('[sqlite] a 200 MB upload is streamed to disk', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ files: { 'config/plugins.js': pluginsFile({ sizeLimit: 256 * 1024 * 1024 }) } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('resident memory grows by far less than 200 MB, and the stored file has every byte', async () => {
    const sent = createHash('sha256');
    let sentBytes = 0;
    function* chunks(): Iterable<Buffer> {
      for (let offset = 0; offset < SIZE; offset += CHUNK) {
        const chunk = randomFillSync(Buffer.allocUnsafe(Math.min(CHUNK, SIZE - offset)));
        sent.update(chunk);
        sentBytes += chunk.length;
        yield chunk;
      }
    }
    const body = multipartStream([filePart('files', 'big.mp4', chunks, 'video/mp4')]);

    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 5);
    let response;
    try {
      response = await server.request('POST', '/api/upload', { payload: body.payload, headers: body.headers });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage.rss());

    expect(response.status, response.text.slice(0, 300)).toBe(201);
    expect(sentBytes).toBe(SIZE);
    expect(peak - baseline, `resident memory grew by ${((peak - baseline) / 1e6).toFixed(1)} MB`).toBeLessThan(
      MAX_GROWTH,
    );

    const [file] = response.json as { url: string; size: number; mime: string; width: null }[];
    expect(file).toMatchObject({
      name: 'big.mp4',
      mime: 'video/mp4',
      width: null,
      height: null,
      formats: null,
      size: bytesToKilobytes(SIZE),
    });
    const stored = createHash('sha256');
    let storedBytes = 0;
    for await (const chunk of createReadStream(join(uploadsDir(server), file!.url.replace('/uploads/', '')))) {
      stored.update(chunk as Buffer);
      storedBytes += (chunk as Buffer).length;
    }
    expect(storedBytes).toBe(SIZE);
    expect(stored.digest('hex')).toBe(sent.digest('hex'));
    expect(storedNames(server)).toEqual([file!.url.replace('/uploads/', '')]);
    expect(tempLeftovers(server)).toEqual([]);
  }, 60_000);
});
