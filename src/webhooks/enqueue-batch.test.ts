import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { openDatabase } from '../db/open-database.js';
import { syncSchema } from '../db/sync-schema.js';
import { WEBHOOK_DELIVERIES_TABLE } from '../schema/tables.js';
import type { CompiledQuery } from '../sql/dialect.js';
import { createDeliveryQueue } from './delivery-queue.js';
import { createEnqueueBatch } from './enqueue-batch.js';
import type { Webhook } from './webhook-store.js';

// Issue 9, queue writes: the deliveries of events arriving within 10 ms are written by one
// INSERT (on a real in-memory SQLite queue), in the order they came; `onQueued` hears which
// webhooks got some; `flushed()` waits for the rows.

const webhook = (id: number): Webhook => ({
  id,
  name: `hook ${id}`,
  url: `http://127.0.0.1:9/hook-${id}`,
  headers: {},
  events: ['entry.create'],
  enabled: true,
  secret: null,
});
const ONE = webhook(1);
const TWO = webhook(2);

const isDeliveryInsert = (query: CompiledQuery) =>
  /^\s*insert\s+into\s+[`"]?cairn_webhook_deliveries\b/i.test(query.sql);
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const turn = () => new Promise<void>((done) => setImmediate(done));

describe('createEnqueueBatch over a real delivery queue (SQLite in memory)', () => {
  let db: Database;
  let queries: CompiledQuery[];
  let queued: number[][];
  let batch: ReturnType<typeof createEnqueueBatch>;

  const rows = async () =>
    (
      await db.all({
        sql: 'select id, webhook_id, webhook_name, url, event, payload, status from cairn_webhook_deliveries order by id',
        params: [],
      })
    ).map((row) => ({
      webhookId: Number(row.webhook_id),
      name: String(row.webhook_name),
      url: String(row.url),
      event: String(row.event),
      payload: String(row.payload),
      status: String(row.status),
    }));
  const inserts = () => queries.filter(isDeliveryInsert).length;

  beforeEach(async () => {
    queries = [];
    queued = [];
    db = await openDatabase(
      {
        client: 'sqlite',
        filename: ':memory:',
        connection: {},
        pool: { min: 1, max: 1 },
        acquireConnectionTimeout: 10_000,
        debug: false,
      },
      (query) => queries.push(query),
    );
    await syncSchema(db, [WEBHOOK_DELIVERIES_TABLE]);
    batch = createEnqueueBatch(
      createDeliveryQueue(db),
      () => new Date('2024-05-06T07:08:09.123Z'),
      (ids) => queued.push(ids),
    );
  });
  afterEach(() => db.close());

  it('20 adds in one tick: 20 pending rows in the order added, written by one INSERT; every add resolves once the rows are in', async () => {
    const adds = Array.from({ length: 20 }, (_, index) => batch.add([ONE], 'entry.create', `{"n":${index}}`));
    expect(inserts(), 'nothing is written before the window closes').toBe(0);
    await Promise.all(adds);
    const written = await rows();
    expect(written.map((row) => row.payload)).toEqual(Array.from({ length: 20 }, (_, index) => `{"n":${index}}`));
    expect(
      written.every(
        (row) =>
          row.status === 'pending' &&
          row.event === 'entry.create' &&
          row.webhookId === 1 &&
          row.name === 'hook 1' &&
          row.url === ONE.url,
      ),
    ).toBe(true);
    expect(inserts()).toBe(1);
    expect(queued).toEqual([[1]]);
  });

  it('adds a few event-loop turns apart (well within 10 ms) still share one INSERT', async () => {
    const adds: Promise<void>[] = [];
    for (let index = 0; index < 5; index++) {
      adds.push(batch.add([ONE], 'entry.update', `{"n":${index}}`));
      await turn();
    }
    await Promise.all(adds);
    expect((await rows()).map((row) => row.payload)).toEqual(['{"n":0}', '{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']);
    expect(inserts()).toBe(1);
  });

  it('two bursts more than 10 ms apart: two INSERTs, rows still in order; onQueued hears each burst’s webhook ids once', async () => {
    const first = [
      batch.add([ONE, TWO], 'entry.create', '{"burst":1,"n":0}'),
      batch.add([ONE], 'entry.create', '{"burst":1,"n":1}'),
    ];
    await sleep(40);
    expect(inserts(), 'the first burst is written by itself').toBe(1);
    const second = [
      batch.add([TWO], 'entry.publish', '{"burst":2,"n":0}'),
      batch.add([TWO], 'entry.publish', '{"burst":2,"n":1}'),
    ];
    await Promise.all([...first, ...second]);
    expect((await rows()).map((row) => [row.webhookId, row.payload])).toEqual([
      [1, '{"burst":1,"n":0}'],
      [2, '{"burst":1,"n":0}'],
      [1, '{"burst":1,"n":1}'],
      [2, '{"burst":2,"n":0}'],
      [2, '{"burst":2,"n":1}'],
    ]);
    expect(inserts()).toBe(2);
    expect(queued).toEqual([[1, 2], [2]]);
  });

  it('flushed() resolves once every row added so far is in the table (without awaiting the adds), and at once when nothing is pending', async () => {
    for (let index = 0; index < 3; index++) void batch.add([ONE, TWO], 'entry.create', `{"n":${index}}`);
    expect(await rows()).toHaveLength(0);
    await batch.flushed();
    expect(await rows()).toHaveLength(6);
    expect(queued).toEqual([[1, 2]]);
    const before = queries.length;
    await batch.flushed();
    expect(queries.length).toBe(before);
  });
});
