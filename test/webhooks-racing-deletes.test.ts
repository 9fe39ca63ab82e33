import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import {
  serverFile,
  sleep,
  startWebhookReceiver,
  webhooksFile,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

/*
 * Two DELETEs of one document at once both answer 204 (as Strapi answers a delete of a missing
 * document), but only the one that removed the rows sends `entry.delete`.
 */
for (const database of inject('databases')) {
  describe(`[${database}] racing deletes and their webhooks`, () => {
    let server: TestServer;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      server = await startTestServer({
        database,
        files: {
          'config/webhooks.js': webhooksFile([{ name: 'deletes', url: receiver.url, events: ['entry.delete'] }]),
          'config/server.js': serverFile({ backoffMs: 50, timeoutMs: 5000 }),
        },
      });
    });
    afterAll(async () => {
      await server?.close();
      await receiver?.close();
    });

    it('ten documents each deleted twice at once: twenty 204s, ten entry.delete, one per document', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 10; i += 1)
        ids.push(
          (await server.request('POST', '/api/tags', { body: { data: { name: `deleted twice ${i}` } } })).json.data
            .documentId,
        );
      for (const id of ids) {
        const answers = await Promise.all([1, 2].map(() => server.request('DELETE', `/api/tags/${id}`)));
        expect(answers.map((answer) => answer.status)).toEqual([204, 204]);
      }
      await receiver.waitFor(10);
      await sleep(500);
      const deleted = receiver.requests.map((request) => request.json.entry.documentId as string);
      expect(deleted.sort()).toEqual([...ids].sort());
    });
  });
}
