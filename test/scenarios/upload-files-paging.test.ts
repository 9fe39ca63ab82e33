import { expect } from 'vitest';
import { errorBody, scenario, type Step } from '../support/scenario.js';
import { DOC, ID } from '../support/shapes.js';
import { NOTES, uploadStep } from '../support/uploads.js';

// Paging the media library as Strapi 5.54 does (observed on Strapi 5.54.0; upload plugin
// controllers/content-api.ts find and findPage, services/upload.ts findAndCountPage):
// - GET /api/upload/files is a plain array straight from the database query: `pagination[…]`
//   is ignored, the top-level `start`/`limit` apply (`limit` -1 or 0: all), `page`/`pageSize`
//   are checked then ignored, and mixing the two kinds is a PaginationError;
// - GET /api/upload/files/page (new in 5.54, its own permission `findPage`) pages like every
//   collection, `pagination[…]` with rest.defaultLimit/maxLimit/withCount, answering
//   `{ data, meta: { pagination } }`.
// Where Strapi answers 500 (a start beyond 2^53), Cairn answers 400.

const text = (filename: string) => ({ filename, content: NOTES, contentType: 'text/plain' });
const ALL = ['a.txt', 'b.txt', 'c.txt', 'd.txt'];
const names = (files: { name: string }[]) => files.map((file) => file.name);

/** A list case: GET /api/upload/files?<query>&sort=name (full token) answers these names. */
function list(query: string, expected: readonly string[]): Step {
  return {
    name: `files?${query} → ${expected.length === ALL.length ? 'all' : expected.join(', ') || 'none'}`,
    path: `/api/upload/files?${query}&sort=name`,
    auth: 'full',
    status: 200,
    check: (r) => expect(names(r.json)).toEqual(expected),
  };
}
/** An error case on either route. */
function refused(path: string, status: number, name: string, message: string): Step {
  return {
    name: `${path} → ${status} ${message}`,
    path,
    auth: 'full',
    status,
    equal: errorBody(status, name, message, {}),
  };
}
/** A page case: GET /api/upload/files/page?<query>&sort=name answers these names and this meta. */
function page(query: string, expected: readonly string[], pagination: Record<string, number>): Step {
  return {
    name: `files/page?${query} → ${expected.join(', ') || 'none'} ${JSON.stringify(pagination)}`,
    path: `/api/upload/files/page?${query}${query ? '&' : ''}sort=name`,
    auth: 'full',
    status: 200,
    check: (r) => {
      expect(Object.keys(r.json)).toEqual(['data', 'meta']);
      expect(names(r.json.data)).toEqual(expected);
      expect(r.json.meta).toEqual({ pagination });
      for (const file of r.json.data) expect(file.isUrlSigned).toBe(false);
    },
  };
}

const MIXED = 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object';

scenario('paging GET /api/upload/files and GET /api/upload/files/page', [
  ...ALL.map((name) => uploadStep(`seed ${name}`, { files: [text(name)] }, { status: 201 })),

  list('', ALL),
  list('pagination[page]=2&pagination[pageSize]=2', ALL),
  list('pagination[start]=1&pagination[limit]=2', ALL),
  list('pagination[pageSize]=1&pagination[withCount]=true', ALL),
  list('pagination[page]=1&pagination[limit]=2', ALL),
  list('start=1&limit=2', ['b.txt', 'c.txt']),
  list('start=1', ['b.txt', 'c.txt', 'd.txt']),
  list('limit=1', ['a.txt']),
  list('limit=-1', ALL),
  list('limit=0', ALL),
  list('limit=', ALL),
  list('limit[0]=1', ['a.txt']),
  list('start=1e0&limit=2', ['b.txt', 'c.txt']),
  list('start=0x2', ['c.txt', 'd.txt']),
  list('page=2&pageSize=1', ALL),
  list('bogus=1', ALL),
  {
    name: 'files?fields[0]=name&limit=2: the fields and the limit together',
    path: '/api/upload/files?fields[0]=name&limit=2&sort=name:desc',
    auth: 'full',
    status: 200,
    equal: ['d.txt', 'c.txt'].map((name) => ({ id: ID, documentId: DOC, name, isUrlSigned: false })),
  },
  refused(
    '/api/upload/files?limit=abc',
    400,
    'ValidationError',
    'convertLimitQueryParams expected a positive integer got NaN',
  ),
  refused(
    '/api/upload/files?limit=1.5',
    400,
    'ValidationError',
    'convertLimitQueryParams expected a positive integer got 1.5',
  ),
  refused(
    '/api/upload/files?limit=-2',
    400,
    'ValidationError',
    'convertLimitQueryParams expected a positive integer got -2',
  ),
  refused(
    '/api/upload/files?start=-1',
    400,
    'ValidationError',
    'convertStartQueryParams expected a positive integer got -1',
  ),
  refused(
    '/api/upload/files?start=abc&limit=1',
    400,
    'ValidationError',
    'convertStartQueryParams expected a positive integer got NaN',
  ),
  refused(
    '/api/upload/files?start=99999999999999999999',
    400,
    'ValidationError',
    'convertStartQueryParams expected a positive integer got 100000000000000000000',
  ),
  refused(
    '/api/upload/files?limit=1e300',
    400,
    'ValidationError',
    'convertLimitQueryParams expected a positive integer got 1e+300',
  ),
  refused(
    '/api/upload/files?page=abc',
    400,
    'PaginationError',
    "Invalid 'page' parameter. Expected an integer > 0, received: abc",
  ),
  refused(
    '/api/upload/files?pageSize=0',
    400,
    'PaginationError',
    "Invalid 'pageSize' parameter. Expected an integer > 0, received: 0",
  ),
  refused('/api/upload/files?limit=1&page=2', 400, 'PaginationError', MIXED),

  page('', ALL, { page: 1, pageSize: 25, pageCount: 1, total: 4 }),
  page('pagination[page]=2&pagination[pageSize]=1', ['b.txt'], { page: 2, pageSize: 1, pageCount: 4, total: 4 }),
  page('pagination[page]=2&pagination[pageSize]=3', ['d.txt'], { page: 2, pageSize: 3, pageCount: 2, total: 4 }),
  page('pagination[page]=5', [], { page: 5, pageSize: 25, pageCount: 1, total: 4 }),
  page('pagination[start]=1&pagination[limit]=2', ['b.txt', 'c.txt'], { start: 1, limit: 2, total: 4 }),
  page('pagination[withCount]=false&pagination[pageSize]=2', ['a.txt', 'b.txt'], { page: 1, pageSize: 2 }),
  page('pagination[pageSize]=1000', ALL, { page: 1, pageSize: 100, pageCount: 1, total: 4 }),
  page('filters[name][$in][0]=b.txt&filters[name][$in][1]=d.txt&pagination[pageSize]=1', ['b.txt'], {
    page: 1,
    pageSize: 1,
    pageCount: 2,
    total: 2,
  }),
  page('start=1&limit=1', ALL, { page: 1, pageSize: 25, pageCount: 1, total: 4 }),
  page('pagination=abc', ALL, { page: 1, pageSize: 25, pageCount: 1, total: 4 }),
  page('bogus=1', ALL, { page: 1, pageSize: 25, pageCount: 1, total: 4 }),
  {
    name: 'files/page?fields[0]=name: id, documentId, the field and isUrlSigned',
    path: '/api/upload/files/page?fields[0]=name&sort=name&pagination[pageSize]=1',
    auth: 'full',
    status: 200,
    equal: {
      data: [{ id: ID, documentId: DOC, name: 'a.txt', isUrlSigned: false }],
      meta: { pagination: { page: 1, pageSize: 1, pageCount: 4, total: 4 } },
    },
  },
  refused('/api/upload/files/page?page=2&pageSize=1', 400, 'PaginationError', MIXED),
  refused(
    '/api/upload/files/page?pagination[page]=1&pagination[limit]=2',
    400,
    'PaginationError',
    'Cannot use both page & offset pagination in the same query',
  ),
  {
    name: "files/page needs plugin::upload.content-api.findPage: the example's Public role holds find only (403)",
    path: '/api/upload/files/page',
    status: 403,
    equal: errorBody(403, 'ForbiddenError', 'Forbidden', {}),
  },
  {
    name: '… while Public may list with find',
    path: '/api/upload/files',
    status: 200,
    check: (r) => expect(r.json).toHaveLength(4),
  },
  {
    name: 'a non-numeric id on the files/:id route is still a 404 file.notFound',
    path: '/api/upload/files/pages',
    status: 404,
    equal: errorBody(404, 'NotFoundError', 'file.notFound', {}),
  },
]);
