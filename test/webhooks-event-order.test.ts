import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import { closedPort, eventually, queryDeliveries, webhooksFile } from './support/webhook-receiver.js';

// Issue 9: entry events are queued in the order of the writes, each with the entry as that write
// left it, although creates and updates are built on the webhook thread and a delete's body on
// the serving thread. The receiver is a closed port: the deliveries stay in the queue to be read.

interface Queued {
  readonly event: string;
  readonly entry: { readonly documentId?: string; readonly name?: string; readonly bio?: string | null };
}

for (const database of inject('databases')) {
  describe(`[${database}] entry events in write order`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        database,
        files: {
          'config/webhooks.js': webhooksFile([
            {
              name: 'down',
              url: `http://127.0.0.1:${await closedPort()}/hook`,
              events: ['entry.create', 'entry.update', 'entry.delete'],
            },
          ]),
        },
      });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
    });

    const queued = async (): Promise<Queued[]> => {
      const rows = await queryDeliveries(server.app, 'select event, payload from cairn_webhook_deliveries order by id');
      return rows.map((row) => ({
        event: String(row.event),
        entry: (JSON.parse(String(row.payload)) as { entry: Queued['entry'] }).entry,
      }));
    };

    it('create, three updates and a delete of one author, sent back to back: queued in that order, each update with its own bio', async () => {
      const created = await server.request('POST', '/api/authors', { body: { data: { name: 'Ordered', bio: 'v0' } } });
      expect(created.status).toBe(201);
      const id = (created.json as { data: { documentId: string } }).data.documentId;
      // No waiting between the writes: their bodies are still being built when the next write commits.
      for (const bio of ['v1', 'v2', 'v3'])
        expect((await server.request('PUT', `/api/authors/${id}`, { body: { data: { bio } } })).status).toBe(200);
      expect((await server.request('DELETE', `/api/authors/${id}`)).status).toBe(204);

      const rows = await eventually(queued, (list) => list.length >= 5);
      expect(rows.map((row) => row.event)).toEqual([
        'entry.create',
        'entry.update',
        'entry.update',
        'entry.update',
        'entry.delete',
      ]);
      expect(rows.map((row) => row.entry.documentId)).toEqual([id, id, id, id, id]);
      // Bodies are read after the write, so a body may show a later state, never an earlier one.
      const order = ['v0', 'v1', 'v2', 'v3'];
      const versions = rows.map((row) => order.indexOf(String(row.entry.bio)));
      expect(versions.every((version) => version >= 0)).toBe(true);
      expect([...versions].sort((a, b) => a - b)).toEqual(versions);
      expect(versions.slice(1, 4)).toEqual([...versions.slice(1, 4)].sort((a, b) => a - b));
      expect(rows[3]?.entry.bio).toBe('v3');
      expect(rows[4]?.entry).toMatchObject({ name: 'Ordered', bio: 'v3' });
    });
  });
}
