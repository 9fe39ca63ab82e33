import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/** Ports `closedPort` hands out first (then free ones, as usual). */
const ports: number[] = [];
vi.mock('./support/webhook-receiver.js', async (original) => {
  const real = await original<typeof import('./support/webhook-receiver.js')>();
  return { ...real, closedPort: async () => ports.shift() ?? real.closedPort() };
});

/*
 * The spawn-based tests' startCairn picks a free port, and another test's server, started in
 * parallel, may take it before the child listens: its /_health then answered for the child, and
 * the test talked to the wrong server (seen once: every request of a transfer test 401, the token
 * made for its own project unknown there).
 */
it("startCairn never takes another server on the port it chose for its child's", async () => {
  const other = createServer((_, response) => void response.writeHead(204).end());
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  const taken = (other.address() as AddressInfo).port;
  ports.push(taken);
  const { startCairn } = await import('./support/cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'cairn-port-race-'));
  cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
  const server = await startCairn(dir);
  try {
    expect(server.base).not.toBe(`http://127.0.0.1:${taken}`);
    expect((await fetch(`${server.base}/api/articles`)).status).toBe(200);
  } finally {
    await server.stop();
    other.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
