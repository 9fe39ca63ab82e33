import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/open-database.js';
import { loadProject } from '../src/project/load-project.js';
import { startCairn, type RunningCairn } from './support/cli.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './support/databases.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';
import {
  finalStateProblems,
  incompleteRowProblems,
  orphanRowProblems,
  publishedCopyProblems,
  unexpectedAnswers,
} from './support/write-load-checks.js';
import {
  runWriteLoad,
  type LoadBody,
  type LoadFixtures,
  type LoadSend,
  type LoggedWrite,
} from './support/write-load.js';

/*
 * The built command line (`npm test` builds first), killed with SIGKILL in the middle of a
 * write load of 8 clients, then started again on the same database: every write acknowledged
 * before the kill is there, every acknowledged delete stays deleted, and nothing is
 * half-written (one draft per locale, no orphan component, link or media-link row). Writes in
 * flight at the kill may have committed or not, but each entirely or not at all.
 */

const sender =
  (base: string): LoadSend =>
  async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as LoadBody) };
  };

/** Authors, tags and two uploaded images, created through the API (the Public role may). */
async function createFixtures(base: string): Promise<LoadFixtures> {
  const send = sender(base);
  const ids = async (plural: string, field: string, values: string[]) =>
    Promise.all(
      values.map(async (value) =>
        String((await send('POST', `/api/${plural}`, { data: { [field]: value } })).json?.data?.documentId),
      ),
    );
  const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('files', new Blob([image], { type: 'image/png' }), 'one.png');
  form.append('files', new Blob([image], { type: 'image/png' }), 'two.png');
  const uploaded = (await (await fetch(`${base}/api/upload`, { method: 'POST', body: form })).json()) as {
    id: number;
  }[];
  return {
    authors: await ids('authors', 'name', ['Ada', 'Grace', 'Edsger']),
    tags: await ids('tags', 'name', ['a', 'b', 'c', 'd']),
    files: uploaded.map((file) => file.id),
  };
}

const CRASH_DATABASES: readonly DatabaseKind[] = ['sqlite', 'postgres'];

for (const kind of inject('databases').filter((d) => CRASH_DATABASES.includes(d))) {
  describe(`[${kind}] a server killed during writes`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-crash-'));
    let database: TestDatabase | undefined;
    let server: RunningCairn | undefined;
    afterAll(async () => {
      await server?.stop('SIGKILL');
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('SIGKILL in the middle of 8 writing clients, twice: after each restart every acknowledged write is there and nothing is half-written', async () => {
      cpSync(EXAMPLE_PROJECT, dir, {
        recursive: true,
        filter: (source) => !/[\\/](\.env|\.tmp|public[\\/]uploads)$/.test(source),
      });
      database = await createTestDatabase(kind);
      server = await startCairn(dir, { ...database.env, LOG_LEVEL: 'silent' });
      const fixtures = await createFixtures(server.base);
      const log: LoggedWrite[] = [];
      for (const [round, killAfter] of [
        [1, 60],
        [2, 40],
      ] as const) {
        const killed = { now: false };
        let kill: Promise<void> | undefined;
        const onLogged = (_write: unknown, logged: number) => {
          if (logged === killAfter) kill = server?.stop('SIGKILL').then(() => void (killed.now = true));
        };
        const roundLog = await runWriteLoad(sender(server.base), fixtures, {
          clients: 8,
          operations: 10_000,
          seed: round,
          stop: () => killed.now,
          onLogged,
        });
        await kill;
        // The kill came with writes in flight, after many were acknowledged.
        expect(roundLog.filter((w) => w.status === undefined).length).toBeGreaterThan(0);
        expect(roundLog.filter((w) => w.status === 201).length).toBeGreaterThan(3);
        log.push(...roundLog);
        server = await startCairn(dir, { ...database.env, LOG_LEVEL: 'silent' });
      }
      expect(unexpectedAnswers(log, true)).toEqual([]);
      const project = await loadProject(dir, database.env);
      const db = await openDatabase(project.config.database);
      try {
        const sql = (text: string) => db.all({ sql: text, params: [] });
        expect(await finalStateProblems(log, sql, true)).toEqual([]);
        expect(await orphanRowProblems(sql)).toEqual([]);
        expect(await incompleteRowProblems(sql)).toEqual([]);
        expect(await publishedCopyProblems(sql)).toEqual([]);
      } finally {
        await db.close();
      }
      const send = sender(server.base);
      const created = log.filter(
        (w) =>
          w.op === 'create' && w.status === 201 && !log.some((d) => d.op === 'delete' && d.documentId === w.documentId),
      );
      for (const write of created.slice(0, 30))
        expect((await send('GET', `/api/articles/${write.documentId}?status=draft`)).status).toBe(200);
    }, 180_000);
  });
}
