import { createDeliveryQueue } from '../webhooks/delivery-queue.js';
import {
  deliveryQueueFile,
  moveDeliveriesToQueueFile,
  openQueueDatabase,
  queueFileExists,
} from '../webhooks/queue-database.js';
import type { CliArgs } from './cli-args.js';
import { UsageError } from './cli-args.js';
import { withProjectDatabase } from './with-database.js';

type Output = (line: string) => void;

/** `webhooks:log [--limit N] [--json]`: the newest deliveries first, with their status and last error. */
export async function webhooksLogCommand(args: CliArgs, out: Output): Promise<void> {
  const limit = args.limit === undefined ? 50 : Number(args.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError(`--limit must be a positive integer, got "${args.limit}"`);
  const deliveries = await withProjectDatabase(args.dir, async ({ config }, db) => {
    await moveDeliveriesToQueueFile(config.database, db);
    // A SQLite project that never queued a delivery has no queue file: nothing to create for the log.
    if (deliveryQueueFile(config.database) !== null && !queueFileExists(config.database)) return [];
    const queue = await openQueueDatabase(config.database, db);
    try {
      return await createDeliveryQueue(queue.db).log(limit);
    } finally {
      await queue.close();
    }
  });
  if (args.json) {
    out(
      JSON.stringify(
        deliveries.map(({ payload: _payload, ...delivery }) => delivery),
        null,
        2,
      ),
    );
    return;
  }
  if (deliveries.length === 0) {
    out('No webhook deliveries.');
    return;
  }
  for (const delivery of deliveries) {
    const outcome =
      delivery.status === 'delivered'
        ? `delivered ${delivery.deliveredAt ?? ''} (HTTP ${delivery.lastStatus ?? '?'})`
        : delivery.status === 'pending'
          ? `pending, next attempt ${delivery.nextAttemptAt ?? 'now'}${delivery.lastError ? ` (last: ${delivery.lastError})` : ''}`
          : `${delivery.status}${delivery.lastError ? ` (last: ${delivery.lastError})` : ''}`;
    out(
      `#${delivery.id}  ${delivery.createdAt ?? ''}  ${delivery.event}  → ${delivery.webhookName} ${delivery.url}  attempts ${delivery.attempts}  ${outcome}`,
    );
  }
}
