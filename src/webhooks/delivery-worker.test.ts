import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookDeliveryConfig } from '../config/webhooks-config.js';
import type { Delivery, DeliveryQueue } from './delivery-queue.js';
import { createWebhookWorker, type WebhookWorker } from './delivery-worker.js';
import type { Webhook } from './webhook-store.js';

// The worker's scheduling against an in-memory queue and a fake `fetch`: no polling while
// saturated, no event forgotten while it looks for the next due time, stop() not waiting for a
// hanging receiver, an unreachable endpoint probed rather than hammered, and the backoff.

type Row = { -readonly [K in keyof Delivery]: Delivery[K] };

/** The queue's contract in memory; `nextDueDelayMs` makes nextDue answer late with what it saw when called (a database round trip). */
function memoryQueue(options: { nextDueDelayMs?: number } = {}) {
  const rows: Row[] = [];
  const calls = { due: 0, nextDue: 0 };
  /** Each retry scheduled, in ms after the attempt settled. */
  const waits: number[] = [];
  const pending = (except: readonly number[]) =>
    rows.filter((row) => row.status === 'pending' && !except.includes(row.webhookId));
  const queue: DeliveryQueue = {
    async enqueue(deliveries, now) {
      for (const { webhook, event, payload } of deliveries) {
        rows.push({
          id: rows.length + 1,
          webhookId: webhook.id,
          webhookName: webhook.name,
          url: webhook.url,
          event,
          payload,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now.toISOString(),
          lastStatus: null,
          lastError: null,
          createdAt: now.toISOString(),
          deliveredAt: null,
        });
      }
    },
    async due(now, limit, except = []) {
      calls.due += 1;
      return pending(except)
        .filter((row) => Date.parse(row.nextAttemptAt as string) <= now.getTime())
        .slice(0, limit)
        .map((row) => ({ ...row }));
    },
    async nextDue(except = []) {
      calls.nextDue += 1;
      const times = pending(except).map((row) => Date.parse(row.nextAttemptAt as string));
      const next = times.length === 0 ? null : Math.min(...times);
      if (options.nextDueDelayMs) await sleep(options.nextDueDelayMs);
      return next;
    },
    async claim(id) {
      const row = rows.find((candidate) => candidate.id === id);
      if (row?.status !== 'pending') return false;
      row.status = 'sending';
      return true;
    },
    async settle(id, outcome, now) {
      const row = rows.find((candidate) => candidate.id === id) as Row;
      if (outcome.status === 'pending' && outcome.nextAttemptAt)
        waits.push(outcome.nextAttemptAt.getTime() - now.getTime());
      Object.assign(row, {
        status: outcome.status,
        attempts: outcome.attempts,
        nextAttemptAt: outcome.nextAttemptAt?.toISOString() ?? null,
        lastStatus: outcome.lastStatus,
        lastError: outcome.lastError,
        ...(outcome.status === 'delivered' ? { deliveredAt: now.toISOString() } : {}),
      });
    },
    async requeueInterrupted(now) {
      for (const row of rows)
        if (row.status === 'sending') Object.assign(row, { status: 'pending', nextAttemptAt: now.toISOString() });
    },
    log: async (limit) => [...rows].reverse().slice(0, limit),
  };
  return { queue, rows, calls, waits };
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

const webhook = (id: number): Webhook => ({
  id,
  name: `hook ${id}`,
  url: `http://hook-${id}.test/`,
  headers: {},
  events: ['entry.create'],
  enabled: true,
  secret: null,
});

/** An event's name and body, as `queue` takes them. */
const event = (n: number): [string, string] => [
  'entry.create',
  JSON.stringify({ event: 'entry.create', createdAt: new Date().toISOString(), n }),
];

const settings = (overrides: Partial<WebhookDeliveryConfig> = {}): WebhookDeliveryConfig => ({
  defaultHeaders: {},
  timeoutMs: 1000,
  maxAttempts: 5,
  concurrency: 2,
  backoffMs: 20,
  maxBackoffMs: 1000,
  abandonAfterMs: 30_000,
  ...overrides,
});

/** One call of the fake `fetch`: where, which delivery and attempt, and when. */
interface Sent {
  readonly url: string;
  readonly delivery: number;
  readonly attempt: number;
  readonly at: number;
}

/** A fake `fetch` recording every call; `answer` decides each outcome (a status, or a thrown network error). */
function fakeSend(answer: (sent: Sent, signal: AbortSignal) => Promise<number>) {
  const sent: Sent[] = [];
  const send = (async (url: string | URL | Request, init?: RequestInit) => {
    const headers = init?.headers as Record<string, string>;
    const call = {
      url: String(url),
      delivery: Number(headers['X-Cairn-Delivery']),
      attempt: Number(headers['X-Cairn-Attempt']),
      at: performance.now(),
    };
    sent.push(call);
    return new Response(null, { status: await answer(call, init?.signal as AbortSignal) });
  }) as typeof fetch;
  return { send, sent };
}

/** Rejects like fetch when the signal aborts. */
const never = (signal: AbortSignal) =>
  new Promise<number>((_, fail) => signal.addEventListener('abort', () => fail(signal.reason), { once: true }));

const refused = () =>
  Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }));

let worker: WebhookWorker | undefined;
const errors: unknown[] = [];
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  expect(errors.splice(0)).toEqual([]);
});

function startWorker(
  queue: DeliveryQueue,
  send: typeof fetch,
  config: WebhookDeliveryConfig,
  webhooks: readonly Webhook[] = [webhook(1)],
  random = Math.random,
) {
  worker = createWebhookWorker({
    queue,
    webhooks: () => webhooks,
    config,
    now: () => new Date(),
    random,
    send,
    onError: (error) => errors.push(error),
  });
  return worker;
}

/** The retries scheduled, each `expected` ms after its attempt settled (the clock is read twice there: a little less). */
function expectWaits(waits: readonly number[], expected: readonly number[]): void {
  expect(waits).toHaveLength(expected.length);
  for (const [index, wait] of waits.entries()) {
    expect(wait).toBeLessThanOrEqual(expected[index] as number);
    expect(wait).toBeGreaterThanOrEqual((expected[index] as number) - 5);
  }
}

async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('condition not reached');
    await sleep(5);
  }
}

describe('the webhook delivery worker', () => {
  it('with every slot taken by a hanging receiver it waits for an attempt to end, without polling the queue', async () => {
    const { queue, calls } = memoryQueue();
    const { send, sent } = fakeSend((_, signal) => never(signal));
    const running = startWorker(queue, send, settings({ concurrency: 1, timeoutMs: 5000 }));
    await running.start();
    for (let n = 0; n < 3; n++) await running.queue(...event(n));
    await until(() => sent.length === 1);
    const before = calls.due + calls.nextDue;
    await sleep(200);
    expect(calls.due + calls.nextDue - before).toBeLessThanOrEqual(3);
    expect(sent).toHaveLength(1);
  });

  it('an event queued while a pass is looking for the next due time is delivered in that pass', async () => {
    const { queue, rows } = memoryQueue({ nextDueDelayMs: 40 });
    const { send, sent } = fakeSend(async () => 200);
    const running = startWorker(queue, send, settings());
    await running.start();
    const first = running.queue(...event(1));
    await sleep(10);
    await running.queue(...event(2));
    await first;
    await until(() => rows.every((row) => row.status === 'delivered'), 1000);
    expect(sent.map((call) => call.delivery).sort()).toEqual([1, 2]);
  });

  it('stop() aborts the attempts in flight at once: they are pending again, the attempt not counted', async () => {
    const { queue, rows } = memoryQueue();
    const { send, sent } = fakeSend((_, signal) => never(signal));
    const running = startWorker(queue, send, settings({ timeoutMs: 10_000 }));
    await running.start();
    await running.queue(...event(1));
    await until(() => sent.length === 1);
    const started = performance.now();
    await running.stop();
    expect(performance.now() - started).toBeLessThan(500);
    expect(rows[0]).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
  });

  it('an unreachable endpoint gets one probe at a time, not every delivery retried; other webhooks go on; once it answers its backlog goes out in order', async () => {
    const { queue, rows } = memoryQueue();
    let down = true;
    const { send, sent } = fakeSend((call) => (call.url.includes('hook-1') && down ? refused() : Promise.resolve(200)));
    const running = startWorker(
      queue,
      send,
      settings({ concurrency: 3, backoffMs: 20, maxBackoffMs: 40, maxAttempts: 5 }),
      [webhook(1), webhook(2)],
    );
    await running.start();
    for (let n = 0; n < 20; n++) await running.queue(...event(n));
    await sleep(300);
    const toDead = () => sent.filter((call) => call.url.includes('hook-1'));
    // Without holding the endpoint: 20 deliveries × 5 attempts within 300 ms (delays 10–60 ms).
    expect(toDead().length).toBeLessThan(25);
    expect(rows.filter((row) => row.webhookId === 2).every((row) => row.status === 'delivered')).toBe(true);
    expect(
      rows.filter((row) => row.webhookId === 1 && row.status === 'pending' && row.attempts === 0).length,
    ).toBeGreaterThan(10);

    down = false;
    const probesWhileDown = toDead().length;
    await until(() => rows.every((row) => row.status === 'delivered' || row.status === 'failed'), 2000);
    const recovered = toDead()
      .slice(probesWhileDown)
      .map((call) => call.delivery);
    expect(rows.filter((row) => row.status === 'failed').length).toBeLessThanOrEqual(3);
    expect(recovered).toEqual([...recovered].sort((a, b) => a - b));
  });

  it('the probe is always the oldest delivery waiting, whatever the jitter: the backlog goes out in order, none of it overtaken', async () => {
    const { queue, rows } = memoryQueue();
    let down = true;
    const refusedTo: number[] = [];
    const answeredTo: number[] = [];
    const { send } = fakeSend((call) => {
      (down ? refusedTo : answeredTo).push(call.delivery);
      return down ? refused() : Promise.resolve(200);
    });
    // Jitter low for the endpoint's wait, high for the failed delivery's own retry: a delivery
    // retried on its own backoff would still be waiting when the endpoint's next probe is due.
    let draws = 0;
    const jitter = () => (draws++ % 2 === 0 ? 0 : 0.99);
    const running = startWorker(
      queue,
      send,
      settings({ concurrency: 1, backoffMs: 20, maxBackoffMs: 40, maxAttempts: 50 }),
      [webhook(1)],
      jitter,
    );
    await running.start();
    for (let n = 0; n < 8; n++) await running.queue(...event(n));
    await until(() => refusedTo.length >= 6);
    down = false;
    await until(() => rows.every((row) => row.status === 'delivered'));
    expect(new Set(refusedTo)).toEqual(new Set([1]));
    expect(answeredTo).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('after a restart, a delivery to a webhook no longer in the list fails without a request; one whose webhook moved goes to its new URL', async () => {
    const { queue, rows } = memoryQueue();
    const down = fakeSend(() => refused());
    const first = startWorker(queue, down.send, settings({ backoffMs: 5000 }), [webhook(1), webhook(2)]);
    await first.start();
    await first.queue(...event(1));
    await until(() => down.sent.length === 2 && rows.every((row) => row.status === 'pending' && row.attempts === 1));
    await first.stop();
    for (const row of rows) row.nextAttemptAt = new Date().toISOString();

    const up = fakeSend(async () => 200);
    const second = startWorker(queue, up.send, settings(), [{ ...webhook(1), url: 'http://moved.test/' }]);
    await second.start();
    await until(() => rows.every((row) => row.status !== 'pending' && row.status !== 'sending'));
    expect(up.sent.map((call) => [call.url, call.delivery])).toEqual([['http://moved.test/', 1]]);
    expect(rows[0]).toMatchObject({ webhookId: 1, status: 'delivered', attempts: 2 });
    expect(rows[1]).toMatchObject({
      webhookId: 2,
      status: 'failed',
      attempts: 1,
      lastError: expect.stringMatching(/no longer exists/),
    });
  });

  it('no retry waits longer than maxBackoffMs', async () => {
    const { queue, rows, waits } = memoryQueue();
    let calls = 0;
    const { send, sent } = fakeSend(async () => (++calls <= 3 ? 500 : 200));
    const running = startWorker(queue, send, settings({ backoffMs: 40, maxBackoffMs: 50 }), [webhook(1)], () => 0.99);
    await running.start();
    await running.queue(...event(1));
    await until(() => rows[0]?.status === 'delivered');
    expect(sent.map((call) => call.attempt)).toEqual([1, 2, 3, 4]);
    // Uncapped: 59.6, 119.2, 238.4 ms.
    expectWaits(waits, [50, 50, 50]);
  });

  it('retry n waits backoffMs × 2^(n−1), times the jitter factor (0.5 + random)', async () => {
    const { queue, rows, waits } = memoryQueue();
    let calls = 0;
    const { send, sent } = fakeSend(async () => (++calls <= 3 ? 500 : 200));
    const running = startWorker(queue, send, settings({ backoffMs: 40 }), [webhook(1)], () => 0.25);
    await running.start();
    await running.queue(...event(1));
    await until(() => rows[0]?.status === 'delivered');
    expect(sent.map((call) => call.attempt)).toEqual([1, 2, 3, 4]);
    expectWaits(waits, [30, 60, 120]);
    // Each retry went out once due, not before.
    const gaps = sent.slice(1).map((call, index) => call.at - (sent[index] as Sent).at);
    for (const [index, wait] of waits.entries()) expect(gaps[index]).toBeGreaterThanOrEqual(wait - 2);
  });
});
