import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './support/cli.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';
import {
  closedPort,
  sleep,
  startWebhookReceiver,
  webhooksFile,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

// Issue 9, the built command line (`npm test` builds first): the bundle's webhook thread
// (dist/webhook-thread.cjs) starts, builds the bodies and delivers (a thread that failed would be
// logged, and the main thread would take over), and a server that cannot listen exits instead
// of being kept alive by that thread.

function listenAnywhere(): Promise<{ server: Server; port: number }> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () =>
      done({ server, port: (server.address() as { port: number }).port }),
    );
  });
}

describe('cairn start with an entry webhook (bundled build)', () => {
  let receiver: WebhookReceiver;
  let dir: string;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    dir = mkdtempSync(join(tmpdir(), 'cairn-cli-thread-'));
    cpSync(EXAMPLE_PROJECT, dir, {
      recursive: true,
      filter: (source) => !/[\\/](\.env|\.tmp|public[\\/]uploads)$/.test(source),
    });
    writeFileSync(
      join(dir, 'config/webhooks.js'),
      webhooksFile([{ name: 'site', url: receiver.url, events: ['entry.create', 'entry.publish'] }]),
    );
  });
  afterAll(async () => {
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds entry bodies on its thread: both events arrive deep-populated, and nothing about the thread is logged', async () => {
    const port = await closedPort();
    const child = spawn(process.execPath, [BIN, 'start', '--dir', dir], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const base = `http://127.0.0.1:${port}`;
      for (
        let i = 0;
        i < 300 &&
        (await fetch(`${base}/_health`).then(
          (r) => r.status,
          () => 0,
        )) !== 204;
        i++
      )
        await sleep(20);
      const created = await fetch(`${base}/api/articles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          data: { title: 'From the bundle', seo: { metaTitle: 'Bundle', keywords: [{ word: 'thread' }] } },
        }),
      });
      expect(created.status).toBe(201);
      const requests = await receiver.waitFor(2);
      expect(requests.map((request) => request.json.event)).toEqual(['entry.create', 'entry.publish']);
      for (const request of requests)
        expect(request.json).toMatchObject({
          entry: { title: 'From the bundle', seo: { metaTitle: 'Bundle', keywords: [{ word: 'thread' }] } },
        });
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    expect(output).toContain('Cairn is serving');
    expect(output).not.toMatch(/webhook thread/);
  });

  it('exits with an error when its port is taken (the webhook thread does not keep it alive)', async () => {
    const { server, port } = await listenAnywhere();
    try {
      const child = spawn(process.execPath, [BIN, 'start', '--dir', dir], {
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
      clearTimeout(timer);
      expect(signal).toBeNull();
      expect(code).toBe(1);
      expect(stderr).toContain('EADDRINUSE');
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});
