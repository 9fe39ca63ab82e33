import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { loadProject } from '../src/project/load-project.js';
import { deliveryQueueFile } from '../src/webhooks/queue-database.js';
import { EXAMPLE_PROJECT, startTestServer, type TestResponse } from './support/test-server.js';
import {
  eventually,
  fileRows,
  serverFile,
  sleep,
  startWebhookReceiver,
  webhooksFile,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

// Issue 9, SQLite: the delivery queue is a database file of its own beside the content database
// (the webhook thread writes it without taking the content file's lock), and deliveries an older
// Cairn kept in the content database are moved there at start, with their ids, once.

const DELIVERIES = 'cairn_webhook_deliveries';

function documentIdOf(response: TestResponse): string {
  expect(response.status, response.text).toBe(201);
  const documentId = (response.json as { data?: { documentId?: unknown } } | undefined)?.data?.documentId;
  if (typeof documentId !== 'string') throw new Error(`no documentId in ${response.text}`);
  return documentId;
}

/** The parsed `entry` of a body (JSON text). */
function entryOf(body: string): Record<string, unknown> {
  return (JSON.parse(body) as { entry: Record<string, unknown> }).entry;
}

/** Tables named `name` in a SQLite connection's main database. */
const sqliteTables = async (app: App, name: string) =>
  Number(
    (
      await app.db.all({
        sql: "select count(*) as n from sqlite_master where type = 'table' and name = ?",
        params: [name],
      })
    )[0]?.n,
  );

describe('SQLite: the delivery queue is a file of its own beside the content database', { timeout: 60_000 }, () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver?.close());
  afterEach(() => {
    receiver.requests.length = 0;
  });

  it('after a delivery, the content database has no cairn_webhook_deliveries table; .tmp/data-webhooks.db holds the delivered row', async () => {
    const server = await startTestServer({
      files: {
        'config/webhooks.js': webhooksFile([{ name: 'creates', url: receiver.url, events: ['entry.create'] }]),
        'config/server.js': serverFile({ backoffMs: 50, timeoutMs: 2000 }),
      },
    });
    try {
      const { database } = server.app.project.config;
      const queueFile = join(dirname(database.filename ?? ''), 'data-webhooks.db');
      expect(deliveryQueueFile(database)).toBe(queueFile);
      documentIdOf(await server.request('POST', '/api/authors', { body: { data: { name: 'Own file' } } }));
      await receiver.waitFor(1);
      const rows = await eventually(
        async () => fileRows(queueFile),
        (found) => found[0]?.status === 'delivered',
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ event: 'entry.create', url: receiver.url });
      expect(entryOf(String(rows[0]?.payload))).toMatchObject({ name: 'Own file' });
      expect(await sqliteTables(server.app, DELIVERIES)).toBe(0);
      expect(
        await sqliteTables(server.app, 'strapi_webhooks'),
        'the control: sqlite_master lists the content tables',
      ).toBe(1);
    } finally {
      await server.close();
    }
  });

  describe('deliveries an older version left in the content database', () => {
    let dir: string;
    let app: App | undefined;
    const start = async () => {
      app = await createApp(await loadProject(dir, {}));
      return app;
    };
    const stop = async () => {
      await app?.close();
      app = undefined;
    };
    afterAll(async () => {
      await stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('are moved at start with their ids: the pending one is delivered, the old table is dropped; a second start changes nothing', async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-queue-move-'));
      cpSync(EXAMPLE_PROJECT, dir, {
        recursive: true,
        filter: (source) => !/[\\/](\.env|\.tmp|public[\\/]uploads)$/.test(source),
      });
      // A first start without webhooks makes the content schema and no queue file.
      const filename = (await start()).project.config.database.filename ?? '';
      await stop();
      const queueFile = join(dirname(filename), 'data-webhooks.db');
      expect(existsSync(queueFile)).toBe(false);

      // The older layout: the queue table in the content database (its columns as WEBHOOK_DELIVERIES_TABLE has them; datetimes in epoch ms).
      const due = Date.now() - 1000;
      const oldPayload = JSON.stringify({
        event: 'entry.create',
        createdAt: new Date(due).toISOString(),
        model: 'author',
        uid: 'api::author.author',
        entry: { name: 'Left behind' },
      });
      const content = new BetterSqlite3(filename);
      content.exec(`create table ${DELIVERIES} (id integer primary key autoincrement not null, webhook_id integer, webhook_name varchar(255), url text, event varchar(255), payload text,
        status varchar(255), attempts integer, next_attempt_at datetime, last_status integer, last_error text, created_at datetime, updated_at datetime, delivered_at datetime)`);
      const insert = content.prepare(
        `insert into ${DELIVERIES} values (?, 1, 'migrated', ?, 'entry.create', ?, ?, ?, ?, ?, null, ?, ?, ?)`,
      );
      insert.run(
        41,
        receiver.url,
        '{"event":"entry.create","entry":{"name":"Sent long ago"}}',
        'delivered',
        1,
        null,
        200,
        due - 60_000,
        due - 59_000,
        due - 59_000,
      );
      insert.run(42, receiver.url, oldPayload, 'pending', 0, due, null, due, due, null);
      content.close();
      writeFileSync(
        join(dir, 'config/webhooks.js'),
        webhooksFile([
          { name: 'migrated', url: receiver.url, events: ['entry.create'], headers: { 'X-Migrated': 'yes' } },
        ]),
      );
      writeFileSync(join(dir, 'config/server.js'), serverFile({ backoffMs: 50, timeoutMs: 2000 }));

      const second = await start();
      const [sent] = await receiver.waitFor(1, { timeoutMs: 10_000 });
      expect(sent?.headers['x-cairn-delivery']).toBe('42');
      expect(sent?.body).toBe(oldPayload);
      // webhook_id 1 is the declared webhook's row: its headers came with the delivery.
      expect(
        await second.db.all({ sql: "select id from strapi_webhooks where name = 'migrated'", params: [] }),
      ).toEqual([{ id: 1 }]);
      expect(sent?.headers['x-migrated']).toBe('yes');
      await eventually(
        async () => fileRows(queueFile),
        (rows) => rows.find((row) => row.id === 42)?.status === 'delivered',
      );
      expect(await sqliteTables(second, DELIVERIES)).toBe(0);
      await stop();
      const moved = fileRows(queueFile);
      expect(moved.map((row) => [row.id, row.status])).toEqual([
        [41, 'delivered'],
        [42, 'delivered'],
      ]);
      expect(moved[0]).toMatchObject({
        webhook_name: 'migrated',
        payload: '{"event":"entry.create","entry":{"name":"Sent long ago"}}',
        attempts: 1,
        last_status: 200,
        created_at: due - 60_000,
      });
      expect(moved[1]).toMatchObject({ payload: oldPayload, attempts: 1, last_status: 200, created_at: due });

      const third = await start();
      await sleep(300);
      expect(await sqliteTables(third, DELIVERIES)).toBe(0);
      await stop();
      expect(fileRows(queueFile)).toEqual(moved);
      expect(receiver.requests).toHaveLength(1);
    });
  });
});
