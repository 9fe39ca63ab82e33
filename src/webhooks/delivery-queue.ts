import type { Database } from '../db/database.js';
import type { Condition } from '../plan/plan-types.js';
import { eq, isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { WEBHOOK_DELIVERIES_TABLE } from '../schema/tables.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileInsert, compileUpdate } from '../sql/compile-write.js';
import { decodeValue } from '../shape/decode-value.js';

const DELIVERIES = WEBHOOK_DELIVERIES_TABLE.name;

/** One delivery of one event to one webhook, as stored. */
export interface Delivery {
  readonly id: number;
  readonly webhookId: number;
  readonly webhookName: string;
  readonly url: string;
  readonly event: string;
  /** The JSON body, fixed when the event happened (every attempt sends the same bytes). */
  readonly payload: string;
  readonly status: 'pending' | 'sending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly createdAt: string | null;
  readonly deliveredAt: string | null;
}

/** A delivery to queue: one event's payload for one webhook. */
export interface NewDelivery {
  readonly webhook: { readonly id: number; readonly name: string; readonly url: string };
  readonly event: string;
  readonly payload: string;
}

const COLUMNS = {
  id: ['id', 'integer'],
  webhookId: ['webhook_id', 'integer'],
  webhookName: ['webhook_name', 'string'],
  url: ['url', 'string'],
  event: ['event', 'string'],
  payload: ['payload', 'string'],
  status: ['status', 'string'],
  attempts: ['attempts', 'integer'],
  nextAttemptAt: ['next_attempt_at', 'datetime'],
  lastStatus: ['last_status', 'integer'],
  lastError: ['last_error', 'string'],
  createdAt: ['created_at', 'datetime'],
  deliveredAt: ['delivered_at', 'datetime'],
} as const;

/** The persistent delivery queue (`cairn_webhook_deliveries`): it survives restarts and is the delivery log. */
export function createDeliveryQueue(db: Database) {
  const read = async (where: Condition | null, limit?: number, newestFirst = false): Promise<Delivery[]> => {
    const plan = simpleSelect(DELIVERIES, COLUMNS, where, {
      orderById: true,
      ...(limit === undefined ? {} : { limit }),
    });
    const rows = await db.all(
      compileSelect(
        db.dialect,
        newestFirst
          ? { ...plan, orderBy: plan.orderBy.map((term) => ({ ...term, direction: 'desc' as const })) }
          : plan,
      ),
    );
    return rows.map(toDelivery);
  };
  return {
    /** Queues the deliveries, due now, in one statement. */
    async enqueue(deliveries: readonly NewDelivery[], now: Date): Promise<void> {
      if (deliveries.length === 0) return;
      const rows = deliveries.map(({ webhook, event, payload }) =>
        rowOf({
          webhook_id: [webhook.id, 'integer'],
          webhook_name: [webhook.name, 'string'],
          url: [webhook.url, 'string'],
          event: [event, 'string'],
          payload: [payload, 'string'],
          status: ['pending', 'string'],
          attempts: [0, 'integer'],
          next_attempt_at: [now, 'datetime'],
          created_at: [now, 'datetime'],
          updated_at: [now, 'datetime'],
        }),
      );
      await db.run(compileInsert(db.dialect, { table: DELIVERIES, rows }));
    },
    /** Pending deliveries due at `now`, oldest first, leaving out those to the `except` webhooks. */
    due: (now: Date, limit: number, except: readonly number[] = []) =>
      read(
        {
          kind: 'and',
          children: [
            pendingExcept(except),
            {
              kind: 'compare',
              column: { alias: '', column: 'next_attempt_at' },
              op: 'lte',
              value: now,
              valueKind: 'datetime',
            },
          ],
        },
        limit,
      ),
    /** When the next pending delivery (not to the `except` webhooks) is due, in epoch ms; null when there is none. */
    async nextDue(except: readonly number[] = []): Promise<number | null> {
      const plan = simpleSelect(DELIVERIES, { nextAttemptAt: ['next_attempt_at', 'datetime'] }, pendingExcept(except), {
        limit: 1,
      });
      const [row] = await db.all(
        compileSelect(db.dialect, {
          ...plan,
          orderBy: [{ column: { alias: '', column: 'next_attempt_at' }, direction: 'asc', kind: 'datetime' }],
        }),
      );
      const at = row ? (decodeValue('datetime', row.nextAttemptAt) as string | null) : null;
      return at === null ? null : Date.parse(at);
    },
    /** Marks a pending delivery as being sent; false when another worker took it first. */
    async claim(id: number, now: Date): Promise<boolean> {
      const set = rowOf({ status: ['sending', 'string'], updated_at: [now, 'datetime'] });
      return (
        (await db.run(
          compileUpdate(db.dialect, {
            table: DELIVERIES,
            set,
            where: { kind: 'and', children: [eq('id', id, 'integer'), eq('status', 'pending')] },
          }),
        )) === 1
      );
    },
    /** Records an attempt's outcome. */
    async settle(
      id: number,
      outcome: {
        status: 'delivered' | 'pending' | 'failed';
        attempts: number;
        nextAttemptAt: Date | null;
        lastStatus: number | null;
        lastError: string | null;
      },
      now: Date,
    ): Promise<void> {
      const set = rowOf({
        status: [outcome.status, 'string'],
        attempts: [outcome.attempts, 'integer'],
        next_attempt_at: [outcome.nextAttemptAt, 'datetime'],
        last_status: [outcome.lastStatus, 'integer'],
        last_error: [outcome.lastError, 'string'],
        updated_at: [now, 'datetime'],
        ...(outcome.status === 'delivered' ? { delivered_at: [now, 'datetime'] as const } : {}),
      });
      await db.run(compileUpdate(db.dialect, { table: DELIVERIES, set, where: eq('id', id, 'integer') }));
    },
    /**
     * Deliveries a stopped process left `sending` go back to `pending`: all of them (at start,
     * when this worker is the queue's only one), or those claimed before `claimedBefore` (a
     * queue several instances share: an attempt still in flight was claimed later than that).
     */
    async requeueInterrupted(now: Date, claimedBefore?: Date): Promise<void> {
      const set = rowOf({
        status: ['pending', 'string'],
        next_attempt_at: [now, 'datetime'],
        updated_at: [now, 'datetime'],
      });
      const sending = isIn('status', ['sending'], 'string');
      const where: Condition =
        claimedBefore === undefined
          ? sending
          : {
              kind: 'and',
              children: [
                sending,
                {
                  kind: 'compare',
                  column: { alias: '', column: 'updated_at' },
                  op: 'lt',
                  value: claimedBefore,
                  valueKind: 'datetime',
                },
              ],
            };
      await db.run(compileUpdate(db.dialect, { table: DELIVERIES, set, where }));
    },
    /** The newest deliveries first (the delivery log). */
    log: (limit: number) => read(null, limit, true),
  };
}

/** `status = 'pending'`, and `webhook_id not in (except)` when some are given. */
function pendingExcept(except: readonly number[]): Condition {
  const pending = eq('status', 'pending');
  return except.length === 0
    ? pending
    : { kind: 'and', children: [pending, { kind: 'not', child: isIn('webhook_id', except, 'integer') }] };
}

/** The delivery queue's interface. */
export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;

function toDelivery(row: Record<string, unknown>): Delivery {
  const time = (value: unknown) => decodeValue('datetime', value) as string | null;
  const int = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: Number(row.id),
    webhookId: Number(row.webhookId),
    webhookName: String(row.webhookName ?? ''),
    url: String(row.url ?? ''),
    event: String(row.event ?? ''),
    payload: String(row.payload ?? ''),
    status: String(row.status) as Delivery['status'],
    attempts: Number(row.attempts ?? 0),
    nextAttemptAt: time(row.nextAttemptAt),
    lastStatus: int(row.lastStatus),
    lastError: row.lastError === null || row.lastError === undefined ? null : String(row.lastError),
    createdAt: time(row.createdAt),
    deliveredAt: time(row.deliveredAt),
  };
}
