import { expect } from 'vitest';
import { errorBody, scenario } from '../support/scenario.js';

const blocks = [
  { type: 'paragraph', children: [{ type: 'text', text: 'Blocks paragraph' }] },
  { type: 'heading', level: 2, children: [{ type: 'text', text: 'A heading', bold: true }] },
];
const allScalars = {
  title: 'Hello Strapi',
  slug: 'hello-strapi',
  summary: 'A summary\nover two lines',
  body: '# Heading\n\nSome *markdown* body with ünïcödé ✓.',
  content: blocks,
  views: 10,
  rating: 4.5,
  price: 19.99,
  bigcount: '123456789012345',
  isFeatured: true,
  publishDate: '2024-05-17',
  publishTime: '13:45:00',
  eventAt: '2024-05-17T13:45:00.000Z',
  stamp: '2024-05-17T13:45:00.000Z',
  meta: { a: 1, nested: { b: [1, 2, 3] }, s: 'x', n: null },
  category: 'tech',
  contactEmail: 'contact@example.com',
  secretCode: 'hunter2',
};
const stored = {
  ...allScalars,
  bigcount: '123456789012345',
  publishTime: '13:45:00.000',
  stamp: '1715953500000',
  locale: 'en',
};
const { secretCode: _password, ...visible } = stored;

const fieldError = (path: string[], message: string, value?: unknown) =>
  errorBody(400, 'ValidationError', message, {
    errors: [{ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }],
  });

scenario('every scalar attribute type is stored, cast and returned as Strapi does', [
  {
    name: 'create with every scalar type',
    method: 'POST',
    path: '/api/articles',
    body: { data: allScalars },
    status: 201,
    match: { data: visible },
    save: { a1: 'data.documentId' },
    check: ({ json }) => expect(json.data).not.toHaveProperty('secretCode'),
  },
  { name: 'read back identically', path: '/api/articles/{{a1}}', status: 200, match: { data: visible } },
  {
    name: 'the draft holds the same values with publishedAt null',
    path: '/api/articles/{{a1}}?status=draft',
    status: 200,
    match: { data: { ...visible, publishedAt: null } },
  },
  {
    name: 'the password is stored as a bcrypt hash, never in clear',
    path: '/api/articles/{{a1}}',
    status: 200,
    check: async (_response, { server }) => {
      const rows = await server.app.db.all({ sql: 'select secret_code from articles', params: [] });
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(String(row.secret_code)).toMatch(/^\$2[aby]\$10\$.{53}$/);
    },
  },
  {
    name: 'defaults apply on create',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Defaults only' } },
    status: 201,
    match: { data: { views: 0, isFeatured: false, rating: null, meta: null, content: null } },
  },
  {
    name: 'strings are cast to numbers and booleans, numbers to bigint strings',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Casting', views: '42', rating: '3.25', price: '10.5', isFeatured: 'true', bigcount: 77 } },
    status: 201,
    match: { data: { views: 42, rating: 3.25, price: 10.5, isFeatured: true, bigcount: '77' } },
  },
  {
    name: 'bigintegers beyond 2^53 stay exact',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Huge', bigcount: '9223372036854775807' } },
    status: 201,
    match: { data: { bigcount: '9223372036854775807' } },
  },
  {
    name: 'bigintegers beyond 64 bits are refused',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Too huge', bigcount: '9223372036854775808' } },
    status: 400,
    match: { error: { name: 'ValidationError', details: { errors: [{ path: ['bigcount'] }] } } },
  },
  {
    name: 'time with milliseconds',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Millis', publishTime: '23:59:59.123' } },
    status: 201,
    match: { data: { publishTime: '23:59:59.123' } },
  },
  {
    name: 'time without seconds is refused',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Short', publishTime: '09:30' } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid time format, expected HH:mm:ss.SSS', {}),
  },
  {
    name: 'datetime with offset is stored in UTC; timestamp accepts epoch ms',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Offset', eventAt: '2024-05-17T15:45:00+02:00', stamp: 1715953500000 } },
    status: 201,
    match: { data: { eventAt: '2024-05-17T13:45:00.000Z', stamp: '1715953500000' } },
  },
  {
    name: 'a date accepts a datetime and keeps the day',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Day', publishDate: '2024-05-17T10:00:00.000Z' } },
    status: 201,
    match: { data: { publishDate: '2024-05-17' } },
  },
  {
    name: 'an impossible date is refused',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Bad date', publishDate: '2024-13-45' } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid format, expected yyyy-MM-dd', {}),
  },
  {
    name: 'a non-date datetime is refused',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Bad datetime', eventAt: 'yesterday' } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid format, expected a timestamp or an ISO date', {}),
  },
  {
    name: 'JSON keeps arrays',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Json array', meta: [1, 'two', { three: 3 }, null, true] } },
    status: 201,
    match: { data: { meta: [1, 'two', { three: 3 }, null, true] } },
  },
  {
    name: 'JSON keeps a bare string',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Json string', meta: 'just a string' } },
    status: 201,
    match: { data: { meta: 'just a string' } },
  },
  {
    // Strapi stores such a string as the column's text and reads it back parsed; the admin
    // panel's JSON editor sends its text this way.
    name: 'JSON given as a string of JSON text is that JSON value',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Json text', meta: '{"mood": "bright", "tags": [1, 2]}' } },
    status: 201,
    match: { data: { meta: { mood: 'bright', tags: [1, 2] } } },
  },
  {
    name: 'JSON keeps a bare number',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Json number', meta: 42.5 } },
    status: 201,
    match: { data: { meta: 42.5 } },
  },
  {
    name: 'zeros and false are kept',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Zeros', isFeatured: false, views: 0, rating: 0, price: 0 } },
    status: 201,
    match: { data: { isFeatured: false, views: 0, rating: 0, price: 0 } },
  },
  {
    name: 'negative floats; SQLite keeps every decimal digit',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Negative', rating: -2.75, price: 1234.5678 } },
    status: 201,
    match: { data: { rating: -2.75, price: 1234.5678 } },
    databases: ['sqlite'],
  },
  {
    name: 'decimal(10,2) rounds on PostgreSQL and MySQL, as in Strapi',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Negative', rating: -2.75, price: 1234.5678 } },
    status: 201,
    match: { data: { rating: -2.75, price: 1234.57 } },
    databases: ['postgres', 'mysql'],
  },
  {
    name: 'update replaces values, including JSON and null',
    method: 'PUT',
    path: '/api/articles/{{a1}}',
    body: {
      data: {
        views: 11,
        rating: 1.25,
        isFeatured: false,
        category: 'life',
        publishDate: '2025-01-02',
        meta: { replaced: true },
        summary: null,
        secretCode: 'changed',
      },
    },
    status: 200,
    match: {
      data: {
        ...visible,
        views: 11,
        rating: 1.25,
        isFeatured: false,
        category: 'life',
        publishDate: '2025-01-02',
        meta: { replaced: true },
        summary: null,
      },
    },
  },
  {
    name: 'a uid must match its pattern',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Bad uid', slug: 'has spaces!' } },
    status: 400,
    equal: fieldError(['slug'], 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', 'has spaces!'),
  },
  {
    name: 'a boolean must look like one',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Bad bool', isFeatured: 'maybe' } },
    status: 400,
    equal: fieldError(
      ['isFeatured'],
      'isFeatured must be a `boolean` type, but the final value was: `"maybe"`.',
      'maybe',
    ),
  },
  {
    name: 'a float must be a number',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Bad float', rating: 'high' } },
    status: 400,
    equal: fieldError(
      ['rating'],
      'rating must be a `number` type, but the final value was: `NaN` (cast from the value `"high"`).',
      null,
    ),
  },
  {
    name: 'an integer must be whole',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Int', views: 3.7 } },
    status: 400,
    equal: fieldError(['views'], 'views must be an integer', 3.7),
  },
  {
    name: 'a biginteger must be digits',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Bad bigint', bigcount: '12ab' } },
    status: 400,
    equal: fieldError(['bigcount'], 'bigcount must be a valid integer', '12ab'),
  },
  {
    name: 'the password attribute cannot be selected',
    path: '/api/articles?fields[0]=secretCode',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key secretCode', {
      key: 'secretCode',
      path: 'secretCode',
      source: 'query',
      param: 'fields',
    }),
  },
]);

const privateSchema = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'secrets',
  info: { singularName: 'secret', pluralName: 'secrets', displayName: 'Secret' },
  options: { draftAndPublish: false },
  attributes: { label: { type: 'string' }, internalNote: { type: 'text', private: true } },
});

scenario(
  'private attributes are writable but never returned, filtered or sorted on',
  [
    {
      name: 'create with a private attribute',
      method: 'POST',
      path: '/api/secrets',
      auth: 'full',
      body: { data: { label: 'l', internalNote: 'hidden' } },
      status: 201,
      save: { s: 'data.documentId' },
      check: ({ json }) => {
        expect(json.data.label).toBe('l');
        expect(json.data).not.toHaveProperty('internalNote');
      },
    },
    {
      name: 'not in lists',
      path: '/api/secrets',
      auth: 'full',
      status: 200,
      check: ({ json }) => expect(json.data[0]).not.toHaveProperty('internalNote'),
    },
    {
      name: 'stored',
      path: '/api/secrets',
      auth: 'full',
      status: 200,
      check: async (_r, { server }) =>
        expect(await server.app.db.all({ sql: 'select internal_note from secrets', params: [] })).toEqual([
          { internal_note: 'hidden' },
        ]),
    },
    {
      name: 'not selectable',
      path: '/api/secrets?fields=internalNote',
      auth: 'full',
      status: 400,
      match: { error: { message: 'Invalid key internalNote' } },
    },
    {
      name: 'not filterable',
      path: '/api/secrets?filters[internalNote]=hidden',
      auth: 'full',
      status: 400,
      match: { error: { message: 'Invalid key internalNote', details: { path: 'internalNote' } } },
    },
    {
      name: 'not sortable',
      path: '/api/secrets?sort=internalNote',
      auth: 'full',
      status: 400,
      match: { error: { message: 'Invalid key internalNote' } },
    },
    { name: 'not searchable', path: '/api/secrets?_q=hidden', auth: 'full', status: 200, match: { data: [] } },
  ],
  { files: { 'src/api/secret/content-types/secret/schema.json': privateSchema } },
);

scenario(
  'config api.responses.privateAttributes',
  [
    {
      name: 'create an author',
      method: 'POST',
      path: '/api/authors',
      body: { data: { name: 'Ada', bio: 'b' } },
      status: 201,
      check: ({ json }) => {
        expect(json.data.name).toBe('Ada');
        expect(json.data).not.toHaveProperty('bio');
      },
    },
    {
      name: 'bio is hidden in lists',
      path: '/api/authors',
      status: 200,
      check: ({ json }) => expect(json.data[0]).not.toHaveProperty('bio'),
    },
  ],
  {
    files: {
      'config/api.js':
        "module.exports = { responses: { privateAttributes: ['bio'] }, rest: { defaultLimit: 25, maxLimit: 100 } };",
    },
  },
);
