import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiToken } from '../src/api-tokens/api-token-store.js';
import type { App } from '../src/app.js';
import { apiConfigWith, bearer, probe, startReference, type ProbeHeaders } from './support/http-cache.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Per-principal isolation: answers are kept per permission set (the Public role's, a user role's,
 * a token's), never per credential, and a caller never gets an answer kept for a caller with other
 * permissions. Each caller's answers, kept or not, equal a server without the cache's (started
 * after the roles are set: a server reads them at start and after its own role writes only).
 */
const PERMISSIONS = `const read = (uid) => [uid + '.find', uid + '.findOne'];
module.exports = () => ({
  public: [...read('api::article.article'), ...read('api::author.author'), ...read('api::tag.tag'), 'api::article.article.update'],
  authenticated: [...read('api::article.article')],
  editor: [...read('api::article.article'), ...read('api::author.author'), ...read('api::secret.secret')],
});`;

const GETS = [
  '/api/articles?populate[author]=true&populate[tags]=true',
  '/api/authors?populate[articles]=true',
  '/api/secrets',
  '/api/tags',
];

/** A tree enabling `actions` (`api::author.author.find` → api::author › author › find). */
function tree(actions: readonly string[]): Record<string, unknown> {
  const permissions: Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }> = {};
  for (const action of actions) {
    const [api, rest] = action.split('.', 2) as [string, string];
    const verb = action.slice(action.lastIndexOf('.') + 1);
    const controllers = (permissions[api] ??= { controllers: {} }).controllers;
    (controllers[rest] ??= {})[verb] = { enabled: true };
  }
  return permissions;
}

for (const database of inject('databases'))
  describe(`[${database}] HTTP cache: answers are kept per permission set`, () => {
    let server: TestServer;
    let reference: App;
    const callers: Record<string, ProbeHeaders> = {};
    let reviewersId = 0;
    beforeAll(async () => {
      server = await startTestServer({
        database,
        files: { ...apiConfigWith(`{ store: 'memory' }`), 'config/permissions.js': PERMISSIONS },
      });
      const full = { auth: 'full' } as const;
      const author = await server.request('POST', '/api/authors', { ...full, body: { data: { name: 'Ada' } } });
      const tag = await server.request('POST', '/api/tags', { ...full, body: { data: { name: 'js' } } });
      await server.request('POST', '/api/secrets', { ...full, body: { data: { label: 'hush' } } });
      await server.request('POST', '/api/articles', {
        ...full,
        body: { data: { title: 'Hello', author: author.json.data.documentId, tags: [tag.json.data.documentId] } },
      });
      const { config } = server.app.project;
      const secrets = { salt: config.admin.apiTokenSalt, encryptionKey: config.admin.encryptionKey };
      const custom = (name: string, permissions: string[]) =>
        createApiToken(server.app.db, secrets, { name, type: 'custom', permissions }, new Date());
      const roles = await server.request('GET', '/api/users-permissions/roles', full);
      const roleId = (type: string) => roles.json.roles.find((role: { type: string }) => role.type === type).id;
      const reviewers = await server.request('POST', '/api/users-permissions/roles', {
        ...full,
        body: { name: 'Reviewers', permissions: tree(['api::article.article.find', 'api::tag.tag.find']) },
      });
      expect(reviewers.status, reviewers.text).toBe(200);
      reviewersId = (await server.request('GET', '/api/users-permissions/roles', full)).json.roles.find(
        (role: { type: string }) => role.type === 'reviewers',
      ).id;
      const user = async (name: string, role: number | null) => {
        const registered = await server.request('POST', '/api/auth/local/register', {
          body: { username: name, email: `${name}@example.com`, password: 'Passw0rd!' },
        });
        expect(registered.status, registered.text).toBe(200);
        if (role !== null) {
          const moved = await server.request('PUT', `/api/users/${registered.json.user.id}`, {
            ...full,
            body: { role },
          });
          expect(moved.status, moved.text).toBe(200);
        }
        return bearer(registered.json.jwt);
      };
      Object.assign(callers, {
        public: {},
        readOnly: bearer(server.tokens.readonly),
        readOnly2: bearer(await createApiToken(server.app.db, secrets, { name: 'ro2', type: 'read-only' }, new Date())),
        full: bearer(server.tokens.full),
        articlesOnlyToken: bearer(await custom('articles', ['api::article.article.find'])),
        authorsToken: bearer(await custom('authors', ['api::author.author.find', 'api::article.article.find'])),
        authenticated: await user('ann', null),
        authenticated2: await user('ben', null),
        editor: await user('eve', roleId('editor')),
        reviewer: await user('rob', reviewersId),
      });
      // Started last: a server reads the roles at start and again only after its own role writes.
      reference = await startReference(server);
    });
    afterAll(async () => {
      await reference?.close();
      await server?.close();
    });

    /** Every caller's GETs, checked against the reference server; returns name → path → cache status. */
    async function readAsEveryone(): Promise<Record<string, Record<string, string | undefined>>> {
      const seen: Record<string, Record<string, string | undefined>> = {};
      for (const [name, headers] of Object.entries(callers)) {
        seen[name] = {};
        for (const path of GETS) {
          const cached = await probe(server.app, path, headers);
          const fresh = await probe(reference, path, headers);
          expect(cached.status, `${name} ${path}`).toBe(fresh.status);
          expect(cached.text, `${name} ${path}`).toBe(fresh.text);
          seen[name]![path] = cached.cache;
        }
      }
      return seen;
    }

    it('each caller gets its own view; callers with the same permissions share entries, others never do', async () => {
      const first = await readAsEveryone();
      const articles = GETS[0]!;
      // The first caller of each permission set reads; the second holder of a set is answered from the cache.
      for (const name of ['public', 'readOnly', 'full', 'articlesOnlyToken', 'authenticated', 'editor', 'reviewer'])
        expect(first[name]![articles], name).toBe('fwd=uri-miss; stored');
      expect(first.readOnly2![articles]).toBe('hit');
      expect(first.authenticated2![articles]).toBe('hit');
      // The views differ: Public sees the author, the Authenticated role (articles only) does not.
      const view = async (headers: ProbeHeaders) => JSON.parse((await probe(server.app, articles, headers)).text);
      expect((await view(callers.public!)).data[0].author.name).toBe('Ada');
      expect((await view(callers.authenticated!)).data[0].author).toBeUndefined();
      expect((await view(callers.authenticated!)).data[0].tags).toBeUndefined();
      expect((await view(callers.reviewer!)).data[0].tags[0].name).toBe('js');
      expect((await view(callers.authorsToken!)).data[0].author.name).toBe('Ada');
      expect((await probe(server.app, '/api/secrets')).status).toBe(403);
      expect((await probe(server.app, '/api/secrets', callers.editor)).status).toBe(200);
      const second = await readAsEveryone();
      for (const [name, paths] of Object.entries(second))
        for (const [path, status] of Object.entries(paths))
          if (status !== undefined) expect(status, `${name} ${path}`).toBe('hit');
    });

    it('after a write every caller gets the new answer, each in its own view', async () => {
      const authors = await server.request('GET', '/api/authors', { auth: 'full' });
      const written = await server.request('PUT', `/api/authors/${authors.json.data[0].documentId}`, {
        auth: 'full',
        body: { data: { name: 'Ada Lovelace' } },
      });
      expect(written.status).toBe(200);
      await readAsEveryone();
      expect(JSON.parse((await probe(server.app, GETS[0]!)).text).data[0].author.name).toBe('Ada Lovelace');
    });

    it("a role's new permissions apply at once: its callers no longer match the entries kept under the old ones", async () => {
      const before = JSON.parse((await probe(server.app, GETS[0]!, callers.reviewer)).text);
      expect(before.data[0].author).toBeUndefined();
      const changed = await server.request('PUT', `/api/users-permissions/roles/${reviewersId}`, {
        auth: 'full',
        body: { permissions: tree(['api::article.article.find', 'api::tag.tag.find', 'api::author.author.find']) },
      });
      expect(changed.status, changed.text).toBe(200);
      await reference.close();
      reference = await startReference(server);
      const after = await probe(server.app, GETS[0]!, callers.reviewer);
      expect(after.cache).toBe('fwd=uri-miss; stored');
      expect(JSON.parse(after.text).data[0].author.name).toBe('Ada Lovelace');
      await readAsEveryone();
    });

    it('routes whose answer depends on the caller itself are never kept (/api/users/me): their ETag comes from a fresh read', async () => {
      const me = await probe(server.app, '/api/users/me', callers.authenticated);
      expect(me.status).toBe(200);
      expect(me.cache).toBeUndefined();
      expect(me.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      server.resetQueries();
      const again = await probe(server.app, '/api/users/me', { ...callers.authenticated, 'if-none-match': me.etag! });
      expect(again.status).toBe(304);
      expect(server.queries.some((query) => /up_users/.test(query.sql))).toBe(true);
      const other = await probe(server.app, '/api/users/me', { ...callers.authenticated2, 'if-none-match': me.etag! });
      expect(other.status).toBe(200);
      expect(JSON.parse(other.text).username).toBe('ben');
    });
  });
