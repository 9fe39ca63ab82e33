import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cairnWithEnv, type RunningCairn } from './support/cli.js';
import { prepareInstances, REDIS_URL, redisAnswers, serverDatabases, type InstanceGroup } from './support/instances.js';
import { closedPort, sleep } from './support/webhook-receiver.js';

/*
 * `cairn` commands run beside two `cairn start` processes (built: `npm run build` first) on one
 * PostgreSQL or MySQL database with Redis: what a command writes is announced on the channel the
 * instances share, so that what they keep in memory follows — an import makes the instances drop
 * the answers they would have confirmed with a 304; `api-token:create|revoke` and
 * `admin:create-user` publish their settings change. A Redis that cannot be reached leaves the
 * command's write done, with a warning.
 */

const redis = await redisAnswers();

interface Heard {
  readonly channel: string;
  readonly message: { from: string; subject: string; kind: string; uid?: string };
}

/** Every message published under `prefix` from now on (a pattern subscription of the test's own). */
async function listen(prefix: string): Promise<{ heard: Heard[]; close(): void }> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const heard: Heard[] = [];
  client.on('pmessage', (_pattern: string, channel: string, text: string) =>
    heard.push({ channel, message: JSON.parse(text) as Heard['message'] }),
  );
  await client.psubscribe(`${prefix}*`);
  return { heard, close: () => client.disconnect() };
}

/** A GET of `path` on `base`, conditional on `etag` when given: status, ETag and the documents' names. */
async function read(base: string, path: string, etag?: string) {
  const answer = await fetch(`${base}${path}`, etag ? { headers: { 'if-none-match': etag } } : {});
  const text = await answer.text();
  const names =
    answer.status === 200 ? (JSON.parse(text) as { data: { name: string }[] }).data.map((d) => d.name).sort() : [];
  return { status: answer.status, etag: answer.headers.get('etag') ?? '', names };
}

for (const database of serverDatabases(inject('databases'), redis)) {
  describe(`[${database}, Redis] cairn commands announce their writes`, () => {
    let group: InstanceGroup;
    let instances: RunningCairn[];
    let bus: Awaited<ReturnType<typeof listen>>;
    let channel: string;
    let out: string;

    /** The messages heard since `from` (an index in `bus.heard`) sent by a command, not an instance. */
    const fromCommands = (from: number) =>
      bus.heard.slice(from).filter((heard) => heard.message.from.startsWith('cairn-command:'));

    const createAuthor = async (name: string) => {
      const answer = await fetch(`${instances[0]!.base}/api/authors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { name } }),
      });
      expect(answer.status).toBe(201);
    };

    beforeAll(async () => {
      group = await prepareInstances(database, { redis: true });
      instances = await group.start(2);
      bus = await listen(group.env.CAIRN_REDIS_PREFIX!);
      out = mkdtempSync(join(tmpdir(), 'cairn-cli-changes-'));
      // The channel the instances relay their changes on: where a write of theirs is heard.
      await createAuthor('Kept');
      for (let tries = 0; bus.heard.length === 0; tries++) {
        expect(tries).toBeLessThan(100);
        await sleep(20);
      }
      channel = bus.heard[0]!.channel;
    });
    afterAll(async () => {
      bus?.close();
      await group?.close();
      if (out) rmSync(out, { recursive: true, force: true });
    });

    it('api-token:create and api-token:revoke each publish an api-tokens change on the instances’ channel', async () => {
      const before = bus.heard.length;
      const created = await group.cli('api-token:create', '--name', 'ci', '--type', 'read-only');
      expect(created.code, created.stderr).toBe(0);
      expect(created.stderr).toBe('');
      const key = created.stdout.trim();
      const authorization = { authorization: `Bearer ${key}` };
      expect((await fetch(`${instances[1]!.base}/api/authors`, { headers: authorization })).status).toBe(200);
      const revoked = await group.cli('api-token:revoke', '--name', 'ci');
      expect(revoked.code, revoked.stderr).toBe(0);
      expect((await fetch(`${instances[1]!.base}/api/authors`, { headers: authorization })).status).toBe(401);
      await sleep(100);
      expect(fromCommands(before).map((heard) => [heard.channel, heard.message.subject, heard.message.kind])).toEqual([
        [channel, 'settings', 'api-tokens'],
        [channel, 'settings', 'api-tokens'],
      ]);
    });

    it('admin:create-user publishes an admin-permissions change; the new Super Admin signs in on an instance', async () => {
      const before = bus.heard.length;
      const made = await group.cli('admin:create-user', '-e', 'ops@example.com', '-p', 'Operations1', '-f', 'Ops');
      expect(made.code, made.stderr).toBe(0);
      await sleep(100);
      expect(fromCommands(before).map((heard) => [heard.channel, heard.message.kind])).toEqual([
        [channel, 'admin-permissions'],
      ]);
      const login = await fetch(`${instances[0]!.base}/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ops@example.com', password: 'Operations1' }),
      });
      expect(login.status).toBe(200);
    });

    it('after cairn import, neither instance confirms an answer it gave before with a 304: within a second they read the imported content, and streams get reset', async () => {
      const archive = join(out, 'kept');
      const exported = await group.cli('export', '--file', archive, '--no-encrypt', '--no-compress');
      expect(exported.code, exported.stderr).toBe(0);
      await createAuthor('Dropped by the import');
      const path = '/api/authors?sort=name';
      const seen = await Promise.all(instances.map((instance) => read(instance.base, path)));
      for (const [index, instance] of instances.entries()) {
        const answer = seen[index]!;
        expect(answer.names).toEqual(['Dropped by the import', 'Kept']);
        // Confirmed without reading while nothing changed.
        expect((await read(instance.base, path, answer.etag)).status).toBe(304);
      }

      // A realtime stream of the type, open on the other instance through the import.
      const aborter = new AbortController();
      const stream = await fetch(`${instances[1]!.base}/api/authors/stream`, { signal: aborter.signal });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      let streamed = '';
      const resetHeard = (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return false;
          streamed += new TextDecoder().decode(value);
          if (streamed.includes('event: reset')) return true;
        }
      })().catch(() => false);

      const before = bus.heard.length;
      const imported = await group.cli('import', '--file', `${archive}.tar`, '--force');
      expect(imported.code, imported.stderr).toBe(0);
      const done = performance.now();
      for (const [index, instance] of instances.entries()) {
        for (;;) {
          const now = await read(instance.base, path, seen[index]!.etag);
          if (now.status === 200) {
            expect(now.names).toEqual(['Kept']);
            break;
          }
          expect(now.status).toBe(304);
          if (performance.now() - done > 1000)
            throw new Error(`${instance.base} still answers 304 a second after the import`);
          await sleep(20);
        }
      }
      expect(performance.now() - done).toBeLessThan(1000);
      // Everything is announced: every kind of settings (roles, permissions, webhooks… read again) and every type.
      const announced = fromCommands(before).map((heard) => heard.message);
      expect(announced.filter((m) => m.subject === 'settings').map((m) => m.kind)).toEqual([
        'users-permissions-roles',
        'users-permissions-settings',
        'users-permissions-accounts',
        'admin-permissions',
        'api-tokens',
        'webhooks',
        'upload-settings',
      ]);
      expect(announced.filter((m) => m.subject === 'document').map((m) => m.uid)).toContain('api::author.author');
      expect(announced.filter((m) => m.subject === 'media')).toHaveLength(1);
      // The stream is told to reload (every document of the type may have changed).
      const reset = await Promise.race([resetHeard, sleep(2000).then(() => false)]);
      aborter.abort();
      expect(reset, streamed).toBe(true);
      expect(streamed).toMatch(/event: reset\ndata: \{"reason":"every document of this type may have changed/);
    });

    it('with Redis unreachable, a command still makes its change, warns that the instances were not told, and exits 0', async () => {
      const unreachable = `redis://127.0.0.1:${await closedPort()}`;
      const created = await cairnWithEnv(
        { ...group.env, CAIRN_REDIS_URL: unreachable },
        'api-token:create',
        '--name',
        'offline',
        '--type',
        'read-only',
        '--dir',
        group.dir,
      );
      expect(created.code, created.stderr).toBe(0);
      expect(created.stderr).toContain('the running instances were not told');
      const key = created.stdout.trim();
      const answer = await fetch(`${instances[0]!.base}/api/authors`, { headers: { authorization: `Bearer ${key}` } });
      expect(answer.status).toBe(200);
    });
  });
}
