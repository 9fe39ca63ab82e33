import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { uploadBody } from './support/multipart.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { gradientImage } from './support/uploads.js';

/*
 * An upload linking its file to an entry (`ref`, `refId`, `field`) while that entry is deleted:
 * the upload either links first (and the delete then removes the link with the entry) or finds
 * the entry gone (400); never a link to a deleted row.
 */
for (const database of inject('databases')) {
  describe(`[${database}] an upload linking an entry while it is deleted`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database });
    });
    afterAll(() => server.close());

    it('40 rounds: uploads answer 201 or 400, deletes 204, and no media link is left to a deleted row', async () => {
      const png = await gradientImage(8, 8, 'png');
      const answers = new Set<string>();
      for (let round = 0; round < 40; round += 1) {
        const author = (
          await server.request('POST', '/api/authors', {
            auth: 'full',
            body: { data: { name: `avatar owner ${round}` } },
          })
        ).json.data;
        const body = uploadBody({
          files: [{ filename: `avatar${round}.png`, content: png, contentType: 'image/png' }],
          ref: 'api::author.author',
          refId: author.id,
          field: 'avatar',
        });
        const [upload, deleted] = await Promise.all([
          server.request('POST', '/api/upload', { payload: body.payload, headers: body.headers, auth: 'full' }),
          new Promise((done) => setTimeout(done, (round % 20) * 2)).then(() =>
            server.request('DELETE', `/api/authors/${author.documentId}`, { auth: 'full' }),
          ),
        ]);
        answers.add(`${upload.status}/${deleted.status}`);
        if (upload.status === 400)
          expect(upload.json.error.message).toBe(
            `Invalid refId "${author.id}": api::author.author has no row with that id`,
          );
      }
      expect([...answers].every((answer) => ['201/204', '400/204'].includes(answer))).toBe(true);
      const orphans = await server.app.db.all({
        sql: "select m.id from files_related_mph m where m.related_type = 'api::author.author' and not exists (select 1 from authors a where a.id = m.related_id)",
        params: [],
      });
      expect(orphans).toEqual([]);
    }, 180_000);
  });
}
