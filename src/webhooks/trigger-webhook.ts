import type { WebhookDeliveryConfig } from '../config/webhooks-config.js';
import { signature } from './delivery-worker.js';
import type { Webhook } from './webhook-store.js';

/** The test event the admin panel's "Trigger" button sends (Strapi's name). */
export const TRIGGER_TEST_EVENT = 'trigger-test';

/** The most of a receiver's error answer kept as the trigger's `message`. */
const MAX_MESSAGE_CHARS = 2_000;

/**
 * How a test delivery went, as Strapi's webhook runner answers it: the receiver's status, with
 * its body as `message` when it is not a 2xx; `{ statusCode: 500, message }` when no answer came
 * (refused, unresolvable, timed out).
 */
export interface TriggerResult {
  readonly statusCode: number;
  readonly message?: string;
}

/**
 * Sends `{ event: 'trigger-test', createdAt }` to `webhook` once, now, as Strapi's "Trigger" does:
 * `server.webhooks.defaultHeaders`, the webhook's headers, `X-Strapi-Event: trigger-test`, and
 * (Cairn) the `X-Cairn-Signature` of a webhook with a secret, so a receiver that checks it
 * accepts the test. Not queued and not retried (a test), whether the webhook is enabled or not;
 * `timeoutMs` bounds it like any attempt. Never rejects.
 */
export async function triggerWebhook(
  webhook: Webhook,
  delivery: WebhookDeliveryConfig,
  now: () => Date,
  send: typeof fetch = fetch,
): Promise<TriggerResult> {
  const at = now();
  const body = JSON.stringify({ event: TRIGGER_TEST_EVENT, createdAt: at.toISOString() });
  const timestamp = Math.floor(at.getTime() / 1000);
  const headers: Record<string, string> = {
    ...delivery.defaultHeaders,
    ...webhook.headers,
    'X-Strapi-Event': TRIGGER_TEST_EVENT,
    'Content-Type': 'application/json',
    ...(webhook.secret ? { 'X-Cairn-Signature': signature(webhook.secret, timestamp, body) } : {}),
  };
  try {
    const response = await send(webhook.url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(delivery.timeoutMs),
    });
    if (response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { statusCode: response.status };
    }
    return { statusCode: response.status, message: await readSome(response) };
  } catch (error) {
    return { statusCode: 500, message: describe(error) };
  }
}

/** The start of a response's text (a receiver may answer a large page): at most `MAX_MESSAGE_CHARS`. */
async function readSome(response: Response): Promise<string> {
  if (!response.body) return '';
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let text = '';
  try {
    while (text.length < MAX_MESSAGE_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A body cut short: what came is the message.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.slice(0, MAX_MESSAGE_CHARS);
}

/** A failed attempt as one line: fetch's own message with its cause (`fetch failed (connect ECONNREFUSED …)`). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && cause !== error.message ? `${error.message} (${cause})` : error.message;
}
