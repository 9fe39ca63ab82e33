import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ARTICLES, startAdminClient, type AdminClient } from './support/admin-client.js';
import { openSse, type SseStream } from './support/sse-client.js';
import type { TestServer } from './support/test-server.js';

/*
 * Realtime streams (`GET /api/:pluralApiId/stream`) over real HTTP on every database: events in
 * commit order, the GET's filters/fields/populate and the caller's permissions applied, resume
 * with Last-Event-ID, reset past the replay window, heartbeats, the per-caller connection limit,
 * and streams removed on disconnect and ended on server close.
 *
 * Public here may read articles and tags but not authors (so `populate[author]` is pruned from
 * its streams) nor secrets.
 */
const FILES = {
  'config/api.js': `module.exports = {
    rest: { defaultLimit: 25, maxLimit: 100, withCount: true, strictParams: true },
    realtime: { heartbeat: 150, maxConnectionsPerCaller: 3, replayEvents: 5 },
  };`,
  'config/permissions.js': `const crud = (uid) => ['find', 'findOne', 'create', 'update', 'delete'].map((a) => uid + '.' + a);
    module.exports = () => ({ public: [...crud('api::article.article'), ...crud('api::tag.tag')] });`,
};

for (const database of inject('databases')) {
  describe(`[${database}] realtime SSE streams`, () => {
    let admin: AdminClient;
    let server: TestServer;
    let base: string;
    const opened: SseStream[] = [];
    const open = async (path: string, headers: Record<string, string> = {}) => {
      const stream = await openSse(`${base}${path}`, headers);
      opened.push(stream);
      return stream;
    };
    const full = () => ({ authorization: `Bearer ${server.tokens.full}` });
    const write = async (method: string, path: string, data?: unknown) => {
      const response = await server.request(method, path, {
        auth: 'full',
        ...(data === undefined ? {} : { body: { data } }),
      });
      expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
      return response.json?.data as { documentId: string } | undefined;
    };
    const create = async (data: Record<string, unknown>, query = '') =>
      (await write('POST', `/api/articles${query}`, data)) as { documentId: string };
    const closeAll = async () => {
      for (const stream of opened.splice(0)) stream.close();
      await waitUntil(() => server.app.realtime.connections() === 0);
    };
    /** Lets a few event loop turns pass, for events that must not come. */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

    beforeAll(async () => {
      admin = await startAdminClient(database, { files: FILES });
      server = admin.server;
      await server.app.server.listen({ port: 0, host: '127.0.0.1' });
      const address = server.app.server.server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      base = `http://127.0.0.1:${address.port}`;
    });
    afterAll(async () => {
      for (const stream of opened) stream.close();
      await server?.close();
    });

    it('sends create, update, publish and delete in commit order, skipping draft-only writes', async () => {
      const stream = await open('/api/articles/stream', full());
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const a = await create({ title: 'First' });
      await write('PUT', `/api/articles/${a.documentId}`, { title: 'First, edited' });
      const draft = await create({ title: 'Draft' }, '?status=draft');
      const published = await admin.call('POST', `${ARTICLES}/${draft.documentId}/actions/publish`, {});
      expect(published.status, published.text).toBe(200);
      await write('DELETE', `/api/articles/${a.documentId}`);
      const events = await stream.waitForEvents(4);
      expect(events.map((e) => [e.event, e.json.documentId])).toEqual([
        ['create', a.documentId],
        ['update', a.documentId],
        ['publish', draft.documentId],
        ['delete', a.documentId],
      ]);
      expect(events[0]?.json).toMatchObject({ locale: 'en', data: { title: 'First', documentId: a.documentId } });
      expect(events[1]?.json.data.title).toBe('First, edited');
      expect(events[2]?.json.data.title).toBe('Draft');
      expect(events[3]?.json).toEqual({ documentId: a.documentId, locale: 'en' });
      const ids = events.map((e) => Number(e.id?.split('.')[1]));
      expect([...ids].sort((x, y) => x - y)).toEqual(ids);
      await settle();
      expect(stream.events).toHaveLength(4);
      await closeAll();
    });

    it('applies filters, fields and populate as the GET does, and sends leave when a document stops matching', async () => {
      const tag = (await write('POST', '/api/tags', { name: 'live' })) as { documentId: string };
      const stream = await open(
        '/api/articles/stream?filters[views][$gte]=10&fields[0]=title&fields[1]=views&populate[tags][fields][0]=name',
        full(),
      );
      const a = await create({ title: 'Popular', views: 20, summary: 'hidden', tags: [tag.documentId] });
      const b = await create({ title: 'Quiet', views: 1 });
      await write('PUT', `/api/articles/${a.documentId}`, { views: 2 });
      await write('PUT', `/api/articles/${b.documentId}`, { views: 50 });
      const events = await stream.waitForEvents(3);
      expect(events.map((e) => [e.event, e.json.documentId])).toEqual([
        ['create', a.documentId],
        ['leave', a.documentId],
        ['update', b.documentId],
      ]);
      const first = events[0]?.json.data;
      expect(Object.keys(first).sort()).toEqual(['documentId', 'id', 'tags', 'title', 'views']);
      expect(first.tags).toEqual([expect.objectContaining({ name: 'live' })]);
      expect(Object.keys(first.tags[0]).sort()).toEqual(['documentId', 'id', 'name']);
      expect(events[1]?.json).toEqual({ documentId: a.documentId, locale: 'en' });
      await settle();
      expect(stream.events).toHaveLength(3);
      await closeAll();
    });

    it('guards the stream like find: 401, 403, 400 and 404 before it opens; Public sees only what it may', async () => {
      const bad = await open('/api/articles/stream', { authorization: 'Bearer not-a-valid-token-0123456789abcdef' });
      expect(bad.status).toBe(401);
      const secrets = await open('/api/secrets/stream');
      expect(secrets.status).toBe(403);
      expect(secrets.body).toMatchObject({ data: null, error: { status: 403, name: 'ForbiddenError' } });
      const authors = await open('/api/authors/stream');
      expect(authors.status).toBe(403);
      const query = await open('/api/articles/stream?filters[nope][$eq]=1');
      expect(query.status).toBe(400);
      expect(query.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
      expect((await open('/api/nothings/stream')).status).toBe(404);
      const byQuery = await open(`/api/secrets/stream?access_token=${server.tokens.full}`);
      expect(byQuery.status).toBe(200);
      byQuery.close();

      const author = (await write('POST', '/api/authors', { name: 'Ada' })) as { documentId: string };
      const anonymous = await open('/api/articles/stream?populate[author]=true');
      const token = await open('/api/articles/stream?populate[author]=true', full());
      expect([anonymous.status, token.status]).toEqual([200, 200]);
      const a = await create({ title: 'By Ada', author: author.documentId, secretCode: 'Sup3rSecret!' });
      await write('POST', '/api/secrets', { label: 'not for Public' });
      const [seen] = await anonymous.waitForEvents(1);
      const [full1] = await token.waitForEvents(1);
      expect(seen?.json.documentId).toBe(a.documentId);
      expect(seen?.json.data).not.toHaveProperty('author');
      expect(full1?.json.data.author).toMatchObject({ name: 'Ada' });
      expect(seen?.data).not.toContain('Sup3rSecret');
      expect(full1?.data).not.toContain('Sup3rSecret');
      await settle();
      expect(anonymous.events).toHaveLength(1);
      await closeAll();
    });

    it('resumes with Last-Event-ID: exactly the missed events, then live ones; reset past the window', async () => {
      const first = await open('/api/articles/stream', full());
      const a = await create({ title: 'Resume me' });
      const [created] = await first.waitForEvents(1);
      first.close();
      await waitUntil(() => server.app.realtime.connections() === 0);
      await write('PUT', `/api/articles/${a.documentId}`, { title: 'Missed' });
      const tag = await write('POST', '/api/tags', { name: 'other type' });
      await write('DELETE', `/api/articles/${a.documentId}`);
      expect(tag).toBeDefined();

      const resumed = await open('/api/articles/stream', { ...full(), 'last-event-id': created?.id ?? '' });
      const missed = await resumed.waitForEvents(2);
      expect(missed.map((e) => [e.event, e.json.documentId])).toEqual([
        ['leave', a.documentId],
        ['delete', a.documentId],
      ]);
      const b = await create({ title: 'Live again' });
      const [, , live] = await resumed.waitForEvents(3);
      expect([live?.event, live?.json.documentId]).toEqual(['create', b.documentId]);
      const lastId = live?.id ?? '';
      resumed.close();

      // Six changes of articles: the log keeps five, so the one after lastId is gone.
      for (let i = 0; i < 6; i++) await write('PUT', `/api/articles/${b.documentId}`, { views: i });
      const late = await open('/api/articles/stream', { ...full(), 'last-event-id': lastId });
      const [reset] = await late.waitForEvents(1);
      expect(reset?.event).toBe('reset');
      const garbage = await open(`/api/articles/stream?lastEventId=nope`, full());
      expect((await garbage.waitForEvents(1))[0]?.event).toBe('reset');
      await settle();
      expect(late.events).toHaveLength(1);
      await closeAll();
    });

    it('sends heartbeat comments on an idle stream', async () => {
      const stream = await open('/api/articles/stream', full());
      await waitUntil(() => stream.comments.filter((c) => c === 'heartbeat').length >= 2, 3000);
      expect(stream.events).toHaveLength(0);
      await closeAll();
    });

    it('limits open streams per caller (429) and frees a slot when one closes; one read per change per query', async () => {
      const streams = [
        await open('/api/articles/stream'),
        await open('/api/articles/stream'),
        await open('/api/tags/stream'),
      ];
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
      const refused = await open('/api/articles/stream');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ data: null, error: { status: 429, name: 'RateLimitError' } });
      const other = await open('/api/articles/stream', full());
      expect(other.status).toBe(200);
      streams[2]?.close();
      await waitUntil(() => server.app.realtime.connections() === 3);
      const again = await open('/api/articles/stream');
      expect(again.status).toBe(200);

      // Three Public streams share one read; the token's stream reads once more.
      const a = await create({ title: 'Counted' });
      await Promise.all([again, streams[0], streams[1], other].map((s) => s?.waitForEvents(1)));
      server.resetQueries();
      await write('PUT', `/api/articles/${a.documentId}`, { title: 'Counted twice' });
      await Promise.all([again, streams[0], streams[1], other].map((s) => s?.waitForEvents(2)));
      const withFour = server.queries.length;
      again.close();
      streams[0]?.close();
      await waitUntil(() => server.app.realtime.connections() === 2);
      server.resetQueries();
      await write('PUT', `/api/articles/${a.documentId}`, { title: 'Counted thrice' });
      await Promise.all([streams[1], other].map((s) => s?.waitForEvents(3)));
      expect(server.queries.length).toBe(withFour);
      await closeAll();
    });

    it('removes a stream when its client disconnects, and ends every stream when the server closes', async () => {
      const streams = await Promise.all([open('/api/articles/stream'), open('/api/tags/stream', full())]);
      expect(server.app.realtime.connections()).toBe(2);
      streams[0]?.close();
      await waitUntil(() => server.app.realtime.connections() === 1);
      await server.close();
      await streams[1]?.ended;
      expect(server.app.realtime.connections()).toBe(0);
      server = { close: async () => undefined } as unknown as TestServer;
    });
  });
}

async function waitUntil(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
