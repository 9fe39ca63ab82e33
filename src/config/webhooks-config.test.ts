import { describe, expect, it } from 'vitest';
import { normalizeWebhookDelivery } from './webhooks-config.js';

describe('normalizeWebhookDelivery (config/server.js → webhooks)', () => {
  it("gives Cairn's defaults when nothing is set, abandoned deliveries sent again 30 s past the timeout", () => {
    expect(normalizeWebhookDelivery(undefined)).toEqual({
      defaultHeaders: {},
      timeoutMs: 10_000,
      maxAttempts: 8,
      concurrency: 5,
      backoffMs: 1_000,
      maxBackoffMs: 3_600_000,
      abandonAfterMs: 30_000,
    });
  });

  it('keeps the values a project sets', () => {
    expect(normalizeWebhookDelivery({ timeoutMs: 2000, abandonAfterMs: 6000 })).toMatchObject({
      timeoutMs: 2000,
      abandonAfterMs: 6000,
    });
  });

  it.each([0, -1, 1.5, '6000'])('refuses abandonAfterMs %j with a message naming the setting', (value) => {
    expect(() => normalizeWebhookDelivery({ abandonAfterMs: value })).toThrow(
      `config/server: "webhooks.abandonAfterMs" must be a positive integer, got ${JSON.stringify(value)}`,
    );
  });
});
