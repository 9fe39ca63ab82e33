import { expect } from 'vitest';
import { errorBody, scenario } from '../support/scenario.js';
import { ISO } from '../support/shapes.js';

const titlesOf = (json: { data: { title: string | null }[] }) => json.data.map((d) => d.title);
const notFound = errorBody(404, 'NotFoundError', 'Not Found', {});

scenario('draft & publish: two rows per document, published by default', [
  {
    name: 'POST publishes by default',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Published on create', views: 1 } },
    status: 201,
    save: { pub: 'data.documentId', pubId: 'data.id' },
    check: ({ json }) => expect(json.data.publishedAt).toMatch(ISO),
  },
  {
    name: 'a draft row and a published row exist, with different ids',
    path: '/api/articles/{{pub}}?status=draft',
    status: 200,
    check: ({ json }, { vars }) => {
      expect(json.data.publishedAt).toBeNull();
      expect(json.data.id).not.toBe(vars.pubId);
    },
  },
  {
    name: 'POST ?status=draft writes only the draft',
    method: 'POST',
    path: '/api/articles?status=draft',
    body: { data: { title: 'Draft only', views: 2 } },
    status: 201,
    save: { draft: 'data.documentId' },
    match: { data: { publishedAt: null, title: 'Draft only' } },
  },
  {
    name: 'explicit status=published',
    method: 'POST',
    path: '/api/articles?status=published&fields[0]=title&fields[1]=publishedAt',
    body: { data: { title: 'Explicitly published' } },
    status: 201,
    save: { pub2: 'data.documentId' },
    check: ({ json }) => expect(json.data.publishedAt).toMatch(ISO),
  },
  {
    name: 'lists return published rows only',
    path: '/api/articles?fields[0]=title&sort=title',
    status: 200,
    check: ({ json }) => expect(titlesOf(json)).toEqual(['Explicitly published', 'Published on create']),
  },
  {
    name: 'status=draft lists every document as its draft',
    path: '/api/articles?status=draft&fields[0]=title&fields[1]=publishedAt&sort=title',
    status: 200,
    check: ({ json }) => {
      expect(titlesOf(json)).toEqual(['Draft only', 'Explicitly published', 'Published on create']);
      expect(json.data.every((d: { publishedAt: unknown }) => d.publishedAt === null)).toBe(true);
    },
  },
  {
    name: 'a draft-only document is 404 without status=draft',
    path: '/api/articles/{{draft}}',
    status: 404,
    equal: notFound,
  },
  {
    name: 'and found with it',
    path: '/api/articles/{{draft}}?status=draft',
    status: 200,
    match: { data: { title: 'Draft only' } },
  },
  {
    name: 'PUT ?status=draft edits only the draft',
    method: 'PUT',
    path: '/api/articles/{{pub}}?status=draft&fields[0]=title',
    body: { data: { title: 'Edited draft' } },
    status: 200,
    match: { data: { title: 'Edited draft' } },
  },
  {
    name: 'the published version is unchanged',
    path: '/api/articles/{{pub}}?fields[0]=title',
    status: 200,
    match: { data: { title: 'Published on create' } },
  },
  {
    name: 'PUT with empty data publishes the draft as is',
    method: 'PUT',
    path: '/api/articles/{{pub}}?fields[0]=title&fields[1]=publishedAt',
    body: { data: {} },
    status: 200,
    save: { republishedId: 'data.id' },
    check: ({ json }) => {
      expect(json.data.title).toBe('Edited draft');
      expect(json.data.publishedAt).toMatch(ISO);
    },
  },
  {
    name: 'republishing gives the published row a new id',
    path: '/api/articles/{{pub}}',
    status: 200,
    check: ({ json }, { vars }) => {
      expect(json.data.id).toBe(vars.republishedId);
      expect(json.data.id).not.toBe(vars.pubId);
    },
  },
  {
    name: 'PUT on a draft-only document publishes it',
    method: 'PUT',
    path: '/api/articles/{{draft}}?fields[0]=title&fields[1]=views',
    body: { data: { views: 20 } },
    status: 200,
    match: { data: { title: 'Draft only', views: 20 } },
  },
  {
    name: 'now listed',
    path: '/api/articles?fields[0]=title&sort=title',
    status: 200,
    check: ({ json }) => expect(titlesOf(json)).toEqual(['Draft only', 'Edited draft', 'Explicitly published']),
  },
  {
    name: 'drafts skip required attributes',
    method: 'POST',
    path: '/api/articles?status=draft',
    body: { data: { summary: 'No title yet' } },
    status: 201,
    save: { untitled: 'data.documentId' },
    match: { data: { title: null, summary: 'No title yet' } },
  },
  {
    name: 'still skipped on draft updates',
    method: 'PUT',
    path: '/api/articles/{{untitled}}?status=draft&fields[0]=title&fields[1]=summary',
    body: { data: { summary: 'Still no title' } },
    status: 200,
    match: { data: { title: null, summary: 'Still no title' } },
  },
  {
    name: 'publishing checks them',
    method: 'PUT',
    path: '/api/articles/{{untitled}}',
    body: { data: { views: 5 } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'title must be a `string` type, but the final value was: `null`.', {
      errors: [
        {
          path: ['title'],
          message: 'title must be a `string` type, but the final value was: `null`.',
          name: 'ValidationError',
          value: null,
        },
      ],
    }),
  },
  {
    name: 'a failed publish leaves the draft untouched too',
    path: '/api/articles/{{untitled}}?status=draft&fields[0]=views',
    status: 200,
    match: { data: { views: 0 } },
  },
  { name: 'and nothing published', path: '/api/articles/{{untitled}}', status: 404 },
  {
    name: 'drafts still validate other rules',
    method: 'POST',
    path: '/api/articles?status=draft',
    body: { data: { title: 'x'.repeat(130) } },
    status: 400,
    match: { error: { message: 'title must be at most 120 characters' } },
  },
  {
    name: 'publishedAt in the body is ignored',
    method: 'POST',
    path: '/api/articles?fields[0]=publishedAt',
    body: { data: { title: 'Back-dated', publishedAt: '2020-01-01T00:00:00.000Z' } },
    status: 201,
    check: ({ json }) => expect(json.data.publishedAt.startsWith('2020')).toBe(false),
  },
  {
    name: 'publishedAt null in the body still publishes',
    method: 'POST',
    path: '/api/articles?fields[0]=publishedAt',
    body: { data: { title: 'Null publishedAt', publishedAt: null } },
    status: 201,
    check: ({ json }) => expect(json.data.publishedAt).toMatch(ISO),
  },
  {
    name: 'publishedAt does not publish a draft',
    method: 'POST',
    path: '/api/articles?status=draft&fields[0]=publishedAt',
    body: { data: { title: 'Draft with date', publishedAt: '2021-06-01T00:00:00.000Z' } },
    status: 201,
    match: { data: { publishedAt: null } },
  },
  {
    name: 'invalid status',
    path: '/api/articles?status=archived',
    status: 400,
    equal: errorBody(
      400,
      'ValidationError',
      "Invalid parameter at 'status'. Expected 'published' or 'draft', received: archived",
      {},
    ),
  },
  {
    name: 'invalid status on POST',
    method: 'POST',
    path: '/api/articles?status=live',
    body: { data: { title: 'x' } },
    status: 400,
    equal: errorBody(
      400,
      'ValidationError',
      "Invalid parameter at 'status'. Expected 'published' or 'draft', received: live",
      {},
    ),
  },
  {
    name: 'status is ignored on types without draft & publish',
    method: 'POST',
    path: '/api/tags?status=draft&fields[0]=publishedAt',
    body: { data: { name: 'non-dp' } },
    status: 201,
    check: ({ json }) => expect(json.data.publishedAt).toMatch(ISO),
  },
  {
    name: 'publicationFilter=never-published',
    path: '/api/articles?status=draft&publicationFilter=never-published&fields[0]=title&sort=title',
    status: 200,
    check: ({ json }) => expect(titlesOf(json)).toEqual([null, 'Draft with date']),
  },
  {
    name: 'publicationFilter=has-published-version',
    path: '/api/articles?status=draft&publicationFilter=has-published-version&fields[0]=title&sort=title',
    status: 200,
    check: ({ json }) =>
      expect(titlesOf(json)).toEqual([
        'Back-dated',
        'Draft only',
        'Edited draft',
        'Explicitly published',
        'Null publishedAt',
      ]),
  },
  {
    name: 'a fresh publish is unmodified',
    path: '/api/articles?status=draft&publicationFilter=modified&fields[0]=title',
    status: 200,
    match: { data: [] },
  },
  {
    name: 'edit a draft after publishing',
    method: 'PUT',
    path: '/api/articles/{{pub2}}?status=draft',
    body: { data: { views: 33 } },
    status: 200,
  },
  {
    name: 'publicationFilter=modified',
    path: '/api/articles?status=draft&publicationFilter=modified&fields[0]=title',
    status: 200,
    check: ({ json }) => expect(titlesOf(json)).toEqual(['Explicitly published']),
  },
  {
    name: 'modified also selects the published version',
    path: '/api/articles?publicationFilter=modified&fields[0]=views',
    status: 200,
    check: ({ json }) => expect(json.data.map((d: { views: number }) => d.views)).toEqual([0]),
  },
  {
    name: 'publicationFilter=unmodified',
    path: '/api/articles?publicationFilter=unmodified&fields[0]=title&sort=title',
    status: 200,
    check: ({ json }) =>
      expect(titlesOf(json)).toEqual(['Back-dated', 'Draft only', 'Edited draft', 'Null publishedAt']),
  },
  {
    name: 'publicationFilter=published-with-draft',
    path: '/api/articles?publicationFilter=published-with-draft&fields[0]=title',
    status: 200,
    match: { meta: { pagination: { total: 5 } } },
  },
  {
    name: 'publicationFilter=published-without-draft',
    path: '/api/articles?publicationFilter=published-without-draft',
    status: 200,
    match: { data: [] },
  },
  {
    name: 'hasPublishedVersion=false',
    path: '/api/articles?status=draft&hasPublishedVersion=false&fields[0]=title&sort=title',
    status: 200,
    check: ({ json }) => expect(titlesOf(json)).toEqual([null, 'Draft with date']),
  },
  {
    name: 'hasPublishedVersion must be a boolean',
    path: '/api/articles?hasPublishedVersion=yes',
    status: 400,
    match: {
      error: { message: "Invalid value for 'hasPublishedVersion'. Expected boolean or 'true'/'false' string." },
    },
  },
  {
    name: 'publicationFilter must be known',
    path: '/api/articles?publicationFilter=whatever',
    status: 400,
    equal: errorBody(
      400,
      'ValidationError',
      "Invalid value for 'publicationFilter'. Expected one of: never-published, has-published-version, modified, unmodified, never-published-document, has-published-version-document, published-without-draft, published-with-draft.",
      { param: 'publicationFilter', source: 'query' },
    ),
  },
  {
    name: 'DELETE ?status=draft (Strapi: 500) is a 400',
    method: 'DELETE',
    path: '/api/articles/{{pub}}?status=draft',
    status: 400,
    match: { error: { name: 'ValidationError' } },
  },
  { name: 'DELETE removes draft and published', method: 'DELETE', path: '/api/articles/{{pub}}', status: 204 },
  { name: 'no draft left', path: '/api/articles/{{pub}}?status=draft', status: 404 },
  { name: 'no published left', path: '/api/articles/{{pub}}', status: 404 },
  {
    name: 'two rows per published document in the table',
    path: '/api/articles',
    status: 200,
    check: async (_r, { server }) => {
      const rows = await server.app.db.all({
        sql: 'select document_id, count(case when published_at is null then 1 end) as drafts from articles group by document_id',
        params: [],
      });
      for (const row of rows) expect(Number(row.drafts)).toBe(1);
    },
  },
]);
