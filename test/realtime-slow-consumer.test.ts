import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningCairn } from './support/cli.js';
import { prepareInstances, type InstanceGroup } from './support/instances.js';
import { megabytes, peakGrowth } from './support/process-memory.js';
import { openSse } from './support/sse-client.js';

/*
 * A realtime stream's client that reads nothing cannot make the server hold every event: each
 * stream keeps at most `realtime.maxBufferedBytes` (1 MB here) of unsent events, then ends with
 * `close` (`slow-consumer`). Measured as the resident memory of a `cairn start` child (the built
 * command line: `npm run build` first) while ten stalled streams of one caller (the default limit),
 * each with a query of its own, receive 100 writes of 200 KB each: 200 MB the clients would
 * otherwise be owed. And the request log never shows an `?access_token=`, refused or accepted.
 */
const STREAMS = 10;
const WRITES = 100;
const BODY = 'x'.repeat(200 * 1024);
/** The log line of a stream the server ended for its slow client. */
const ENDED = 'a realtime stream of api::article.article was ended: slow-consumer';
/** Without the bound the server grew by 375 MB (150 writes); with it by about 80 MB, mostly the reads' garbage. */
const MAX_GROWTH = 120 * 1024 * 1024;

const FILES = { 'config/api.js': `module.exports = { realtime: { maxBufferedBytes: '1mb' } };` };

/** A stream opened on a raw socket whose client reads nothing until `readToEnd()`. */
async function stalledStream(base: string, path: string, key: string): Promise<{ readToEnd(): Promise<string> }> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  socket.pause();
  return {
    async readToEnd() {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      const closed = once(socket, 'close');
      socket.resume();
      await closed;
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

// The outbox and its bound are the same whatever the database (realtime-sse and
// realtime-stream-access run the streams' reads on all three): SQLite alone, for the suite's time.
for (const database of inject('databases').filter((kind) => kind === 'sqlite')) {
  describe(`[${database}] realtime streams of a client that does not read`, () => {
    let group: InstanceGroup;
    let server: RunningCairn;
    let key: string;
    let readerKey: string;
    const write = async (title: string) => {
      const response = await fetch(`${server.base}/api/articles`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { title, body: BODY } }),
      });
      expect(response.status, await response.text()).toBe(201);
    };

    beforeAll(async () => {
      group = await prepareInstances(database, { files: FILES });
      const created = await group.cli('api-token:create', '--name', 'writer', '--type', 'full-access');
      expect(created.code, created.stderr).toBe(0);
      key = created.stdout.trim();
      const reader = await group.cli('api-token:create', '--name', 'reader', '--type', 'full-access');
      expect(reader.code, reader.stderr).toBe(0);
      readerKey = reader.stdout.trim();
      [server] = (await group.start(1)) as [RunningCairn];
    });
    afterAll(() => group?.close());

    it('holds a bounded buffer per stream, then ends it with close (slow-consumer)', async () => {
      // The allocator's pools warmed by a few writes of the same size, with no stream open.
      for (let i = 0; i < 3; i++) await write(`warm-up ${i}`);
      const stalled: Awaited<ReturnType<typeof stalledStream>>[] = [];
      let received: string[] = [];
      const growth = await peakGrowth(server.pid, async () => {
        // Each with a query of its own (so with events of its own), the last one's shared by a client
        // that reads: once that one has every event, every stream was served.
        const query = (i: number) => `/api/articles/stream?filters[title][$ne]=not-${i}`;
        for (let i = 0; i < STREAMS; i++) stalled.push(await stalledStream(server.base, query(i), key));
        const reader = await openSse(`${server.base}${query(STREAMS - 1)}`, { authorization: `Bearer ${readerKey}` });
        const ended = () => server.output().split(ENDED).length - 1;
        // Until the server ended every stalled stream (it logs each), then on to WRITES.
        let written = 0;
        while (written < WRITES && ended() < STREAMS) await write(`large ${written++}`);
        received = ended() === STREAMS ? await Promise.all(stalled.map((stream) => stream.readToEnd())) : [];
        while (written < WRITES) await write(`large ${written++}`);
        await reader.waitForEvents(WRITES, 60_000);
        reader.close();
      });
      expect(growth, `resident memory grew by ${megabytes(growth)}`).toBeLessThan(MAX_GROWTH);
      expect(received).toHaveLength(STREAMS);
      for (const text of received) {
        expect(text).toMatch(/^HTTP\/1\.1 200 /);
        // The last chunk, then the end of the chunked body.
        expect(text).toMatch(/event: close\ndata: \{"reason":"slow-consumer","message":"[^"]+"\}\n\n\r\n0\r\n\r\n$/);
      }
      // The caller's streams were released: ten new ones open.
      const again = await Promise.all(
        Array.from({ length: STREAMS }, () =>
          openSse(`${server.base}/api/articles/stream`, { authorization: `Bearer ${key}` }),
        ),
      );
      expect(again.map((stream) => stream.status)).toEqual(Array(STREAMS).fill(200));
      for (const stream of again) stream.close();
    }, 180_000);

    it('never writes an access_token to the request log, refused or accepted', async () => {
      const refusedKey = 'a'.repeat(256);
      const refused = await fetch(`${server.base}/api/articles/stream?access_token=${refusedKey}`);
      expect(refused.status).toBe(401);
      await refused.arrayBuffer();
      await (await fetch(`${server.base}/api/tags?access_token=${key}`)).arrayBuffer();
      const stream = await openSse(`${server.base}/api/articles/stream?access_token=${key}&lastEventId=x`);
      expect((await stream.waitForEvents(1))[0]?.event).toBe('reset');
      stream.close();
      await stream.ended;
      const log = server.output();
      expect(log).toContain('/api/articles/stream?access_token=[REDACTED] 401');
      expect(log).not.toContain(refusedKey);
      expect(log).not.toContain(key);
    });
  });
}
