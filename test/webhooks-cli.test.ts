import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cairn, startCairn, type RunningCairn } from './support/cli.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';
import {
  serverFile,
  sleep,
  startWebhookReceiver,
  webhooksFile,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

// The built command line (run `npm run build` first, as `npm test` does): a `cairn start`
// killed (SIGKILL) while an attempt is in flight leaves the delivery `sending`; the next start
// sends it again. `cairn webhooks:log` prints the deliveries, newest first, and `--json` the same
// without the payloads.

const post = (base: string, name: string) =>
  fetch(`${base}/api/authors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { name } }),
  }).then((r) => r.status);

interface LoggedDelivery {
  readonly id: number;
  readonly webhookName: string;
  readonly url: string;
  readonly event: string;
  readonly status: string;
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
}

async function logJson(dir: string): Promise<LoggedDelivery[]> {
  const result = await cairn('webhooks:log', '--dir', dir, '--json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as LoggedDelivery[];
}

describe('webhooks across processes, and cairn webhooks:log', () => {
  let dir: string;
  let receiver: WebhookReceiver;
  let server: RunningCairn | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-webhooks-cli-'));
    cpSync(EXAMPLE_PROJECT, dir, {
      recursive: true,
      filter: (source) => !/[\\/](\.env|\.tmp|public[\\/]uploads)$/.test(source),
    });
    receiver = await startWebhookReceiver();
    writeFileSync(
      join(dir, 'config/webhooks.js'),
      webhooksFile([{ name: 'receiver', url: receiver.url, events: ['entry.create'] }]),
    );
    writeFileSync(join(dir, 'config/server.js'), serverFile({ backoffMs: 100, timeoutMs: 5000, maxAttempts: 2 }));
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('webhooks:log on a project without deliveries says so', async () => {
    const result = await cairn('webhooks:log', '--dir', dir);
    expect(result).toMatchObject({ code: 0, stdout: 'No webhook deliveries.\n' });
  });

  it('a process killed during an attempt leaves the delivery `sending`; the next start sends it again', async () => {
    const first = await startCairn(dir, { LOG_LEVEL: 'silent' });
    server = first;
    receiver.hangNext(1);
    expect(await post(first.base, 'Crash')).toBe(201);
    const [hung] = await receiver.waitFor(1);
    await first.stop('SIGKILL');
    expect(await logJson(dir)).toMatchObject([
      { webhookName: 'receiver', event: 'entry.create', status: 'sending', attempts: 0 },
    ]);

    const second = await startCairn(dir, { LOG_LEVEL: 'silent' });
    server = second;
    const [, resent] = await receiver.waitFor(2);
    expect(resent).toMatchObject({ status: 200, body: hung?.body });
    expect(resent?.headers['x-cairn-delivery']).toBe(hung?.headers['x-cairn-delivery']);

    receiver.failNext(2);
    expect(await post(second.base, 'Refused')).toBe(201);
    await receiver.waitFor(4);
    for (let i = 0; i < 100 && (await logJson(dir))[0]?.status !== 'failed'; i++) await sleep(50);
    await second.stop();
    server = undefined;
  });

  it('webhooks:log prints the newest first: when, event, webhook, attempts and outcome', async () => {
    const result = await cairn('webhooks:log', '--dir', dir);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^#2 {2}\\S+ {2}entry\\.create {2}→ receiver ${receiver.url} {2}attempts 2 {2}failed \\(last: HTTP 500\\)$`,
      ),
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^#1 {2}\\S+ {2}entry\\.create {2}→ receiver ${receiver.url} {2}attempts 1 {2}delivered \\S+ \\(HTTP 200\\)$`,
      ),
    );
  });

  it('webhooks:log --json: the same deliveries without their payloads; --limit keeps the newest', async () => {
    const deliveries = await logJson(dir);
    expect(deliveries).toEqual([
      {
        id: 2,
        webhookId: 1,
        webhookName: 'receiver',
        url: receiver.url,
        event: 'entry.create',
        status: 'failed',
        attempts: 2,
        nextAttemptAt: null,
        lastStatus: 500,
        lastError: 'HTTP 500',
        createdAt: expect.any(String),
        deliveredAt: null,
      },
      {
        id: 1,
        webhookId: 1,
        webhookName: 'receiver',
        url: receiver.url,
        event: 'entry.create',
        status: 'delivered',
        attempts: 1,
        nextAttemptAt: null,
        lastStatus: 200,
        lastError: null,
        createdAt: expect.any(String),
        deliveredAt: expect.any(String),
      },
    ]);
    const limited = await cairn('webhooks:log', '--dir', dir, '--json', '--limit', '1');
    expect(JSON.parse(limited.stdout).map((delivery: LoggedDelivery) => delivery.id)).toEqual([2]);
    const refused = await cairn('webhooks:log', '--dir', dir, '--limit', '0');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--limit must be a positive integer/);
  });
});
