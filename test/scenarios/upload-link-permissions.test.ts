import { expect } from 'vitest';
import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import { queryRows } from '../support/row-counts.js';
import { dbStep, errorBody, scenario, type Step } from '../support/scenario.js';
import { expectUploadCounts, NOTES, saveUploadCounts, uploadStep } from '../support/uploads.js';

/*
 * A deliberate deviation from Strapi 5.54 (README, deviations): POST /api/upload with
 * ref/refId/field changes the entry it links the files to, so besides the upload permission the
 * caller needs `update` on that entry's content type (users-permissions roles and API tokens; a
 * full-access token passes). Without it: Strapi's 403 Forbidden, and nothing is stored (no file
 * row, no object, no link). Public may upload here but not update articles (config/permissions.js).
 */

const ARTICLE = 'api::article.article';
const forbidden = { status: 403, equal: errorBody(403, 'ForbiddenError', 'Forbidden', {}) };
const note = (filename: string) => ({ filename, content: NOTES, contentType: 'text/plain' });
const linkTo = (filename: string) => ({
  files: [note(filename)],
  ref: ARTICLE,
  refId: '{{article}}',
  field: 'gallery',
});
const bearer = (name: string) => ({ authorization: `Bearer {{${name}}}` });

/** Creates a custom API token holding `permissions`; its key is saved as `vars[name]`. */
function customToken(name: string, permissions: string[]): Step {
  return dbStep(`custom token ${name}: ${permissions.join(', ')}`, async ({ server, vars }) => {
    const { config } = server.app.project;
    const secrets = { salt: config.admin.apiTokenSalt, encryptionKey: config.admin.encryptionKey };
    vars[name] = await createApiToken(server.app.db, secrets, { name, type: 'custom', permissions }, new Date());
  });
}

/** The names of the files linked to the article's published row, in order. */
const linkedNames = (expected: string[]) =>
  dbStep(`the article's gallery holds ${JSON.stringify(expected)}`, async ({ server, vars }) => {
    const rows = await queryRows(
      server,
      `select f.name from files_related_mph m join files f on f.id = m.file_id where m.related_type = '${ARTICLE}' and m.related_id = ${Number(vars.article)} order by m.id`,
    );
    expect(rows.map((row) => row.name)).toEqual(expected);
  });

scenario(
  'uploads linked to an entry need update permission on its type (a deviation from Strapi)',
  [
    {
      name: 'a published article',
      method: 'POST',
      path: '/api/articles',
      auth: 'full',
      body: { data: { title: 'Live' } },
      status: 201,
      save: { article: 'data.id' },
    },
    saveUploadCounts('counts before', 'base'),
    customToken('uploadOnly', ['plugin::upload.content-api.upload']),
    customToken('uploadAndUpdate', ['plugin::upload.content-api.upload', `${ARTICLE}.update`]),
    uploadStep('a token holding only upload: 403', linkTo('token.txt'), {
      headers: bearer('uploadOnly'),
      ...forbidden,
    }),
    uploadStep('Public (upload, no article update): 403', linkTo('public.txt'), forbidden),
    expectUploadCounts('nothing stored, nothing linked', 'base'),
    linkedNames([]),
    uploadStep(
      'the same token may still upload without ref',
      { files: [note('loose.txt')] },
      {
        headers: bearer('uploadOnly'),
        status: 201,
      },
    ),
    uploadStep('a token holding upload and article update: 201, linked', linkTo('granted.txt'), {
      headers: bearer('uploadAndUpdate'),
      status: 201,
    }),
    uploadStep('a full-access token: 201, linked', linkTo('full.txt'), { auth: 'full', status: 201 }),
    linkedNames(['granted.txt', 'full.txt']),
    expectUploadCounts('three files, two links', 'base', { files: 3, links: 2, objects: 3 }),
  ],
  {
    files: {
      'config/permissions.js': `module.exports = () => ({ public: ['${ARTICLE}.find', 'plugin::upload.content-api.upload'] });\n`,
    },
  },
);
