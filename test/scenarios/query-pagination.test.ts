import { expect } from 'vitest';
import { errorBody, scenario, type Step } from '../support/scenario.js';

const names = (json: { data: { name: string }[] }) => json.data.map((t) => t.name);
const seven = ['t01', 't02', 't03', 't04', 't05', 't06', 't07'];

function page(name: string, query: string, expected: string[], pagination: Record<string, number>): Step {
  return {
    name,
    path: `/api/tags?sort=name&fields[0]=name&${query}`,
    status: 200,
    check: ({ json }) => {
      expect(names(json)).toEqual(expected);
      expect(json.meta).toEqual({ pagination });
    },
  };
}

scenario('pagination: page and offset modes, counts, clamping, errors', [
  {
    name: 'meta on an empty collection',
    path: '/api/tags?pagination[page]=1&pagination[pageSize]=5',
    status: 200,
    equal: { data: [], meta: { pagination: { page: 1, pageSize: 5, pageCount: 0, total: 0 } } },
  },
  ...seven.map((name): Step => ({
    name: `seed ${name}`,
    method: 'POST',
    path: '/api/tags',
    body: { data: { name } },
    status: 201,
  })),
  {
    name: 'seed a published article',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'P one' } },
    status: 201,
  },
  {
    name: 'seed another published article',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'P two' } },
    status: 201,
  },
  {
    name: 'seed a draft article',
    method: 'POST',
    path: '/api/articles?status=draft',
    body: { data: { title: 'P three draft' } },
    status: 201,
  },
  page('default page meta', '', seven, { page: 1, pageSize: 25, pageCount: 1, total: 7 }),
  page('page 2 of size 3', 'pagination[page]=2&pagination[pageSize]=3', ['t04', 't05', 't06'], {
    page: 2,
    pageSize: 3,
    pageCount: 3,
    total: 7,
  }),
  page('last partial page', 'pagination[page]=3&pagination[pageSize]=3', ['t07'], {
    page: 3,
    pageSize: 3,
    pageCount: 3,
    total: 7,
  }),
  page('page only', 'pagination[page]=2', [], { page: 2, pageSize: 25, pageCount: 1, total: 7 }),
  page('pageSize only', 'pagination[pageSize]=4', seven.slice(0, 4), { page: 1, pageSize: 4, pageCount: 2, total: 7 }),
  page('start and limit', 'pagination[start]=2&pagination[limit]=3', ['t03', 't04', 't05'], {
    start: 2,
    limit: 3,
    total: 7,
  }),
  page('start only', 'pagination[start]=5', ['t06', 't07'], { start: 5, limit: 25, total: 7 }),
  page('limit only', 'pagination[limit]=2', ['t01', 't02'], { start: 0, limit: 2, total: 7 }),
  page(
    'withCount=false (page)',
    'pagination[page]=1&pagination[pageSize]=2&pagination[withCount]=false',
    ['t01', 't02'],
    { page: 1, pageSize: 2 },
  ),
  page(
    'withCount=false (offset)',
    'pagination[start]=1&pagination[limit]=2&pagination[withCount]=false',
    ['t02', 't03'],
    { start: 1, limit: 2 },
  ),
  page('withCount=0', 'pagination[pageSize]=2&pagination[withCount]=0', ['t01', 't02'], { page: 1, pageSize: 2 }),
  page('withCount=t', 'pagination[pageSize]=2&pagination[withCount]=t', ['t01', 't02'], {
    page: 1,
    pageSize: 2,
    pageCount: 4,
    total: 7,
  }),
  page('pageSize capped by maxLimit', 'pagination[pageSize]=500', seven, {
    page: 1,
    pageSize: 100,
    pageCount: 1,
    total: 7,
  }),
  page('limit capped by maxLimit', 'pagination[start]=0&pagination[limit]=1000', seven, {
    start: 0,
    limit: 100,
    total: 7,
  }),
  page('pageSize 0 → 1', 'pagination[pageSize]=0', ['t01'], { page: 1, pageSize: 1, pageCount: 7, total: 7 }),
  page('pageSize -1 → 1', 'pagination[pageSize]=-1', ['t01'], { page: 1, pageSize: 1, pageCount: 7, total: 7 }),
  page('page 0 → 1', 'pagination[page]=0&pagination[pageSize]=2', ['t01', 't02'], {
    page: 1,
    pageSize: 2,
    pageCount: 4,
    total: 7,
  }),
  page('negative page → 1', 'pagination[page]=-3&pagination[pageSize]=2', ['t01', 't02'], {
    page: 1,
    pageSize: 2,
    pageCount: 4,
    total: 7,
  }),
  page('negative start → 0', 'pagination[start]=-2&pagination[limit]=2', ['t01', 't02'], {
    start: 0,
    limit: 2,
    total: 7,
  }),
  page('limit 0 → 1', 'pagination[limit]=0', ['t01'], { start: 0, limit: 1, total: 7 }),
  page('limit -1 → 1 (not "all")', 'pagination[limit]=-1', ['t01'], { start: 0, limit: 1, total: 7 }),
  page('page beyond the end', 'pagination[page]=9&pagination[pageSize]=3', [], {
    page: 9,
    pageSize: 3,
    pageCount: 3,
    total: 7,
  }),
  page('start beyond the end', 'pagination[start]=50&pagination[limit]=3', [], { start: 50, limit: 3, total: 7 }),
  page(
    'totals count filtered rows',
    'filters[name][$gte]=t03&pagination[pageSize]=2&pagination[page]=2',
    ['t05', 't06'],
    { page: 2, pageSize: 2, pageCount: 3, total: 5 },
  ),
  page('top-level limit is ignored', 'limit=2', seven, { page: 1, pageSize: 25, pageCount: 1, total: 7 }),
  {
    name: 'published articles only are counted',
    path: '/api/articles?fields[0]=title&pagination[pageSize]=1',
    status: 200,
    match: { meta: { pagination: { total: 2, pageCount: 2 } } },
  },
  {
    name: 'drafts counted with status=draft',
    path: '/api/articles?status=draft&fields[0]=title&pagination[pageSize]=1',
    status: 200,
    match: { meta: { pagination: { total: 3, pageCount: 3 } } },
  },
  {
    name: 'invalid withCount',
    path: '/api/tags?pagination[withCount]=nope',
    status: 400,
    equal: errorBody(
      400,
      'ValidationError',
      'Invalid withCount parameter. Expected "t","1","true","false","0","f"',
      {},
    ),
  },
  {
    name: 'page and start mixed',
    path: '/api/tags?pagination[page]=1&pagination[start]=0',
    status: 400,
    equal: errorBody(400, 'PaginationError', 'Cannot use both page & offset pagination in the same query', {}),
  },
  {
    name: 'pageSize and limit mixed',
    path: '/api/tags?pagination[pageSize]=2&pagination[limit]=2',
    status: 400,
    equal: errorBody(400, 'PaginationError', 'Cannot use both page & offset pagination in the same query', {}),
  },
  {
    name: 'non-numeric page',
    path: '/api/tags?pagination[page]=abc',
    status: 400,
    equal: errorBody(400, 'ValidationError', "Invalid parameter at 'start'. Expected integer >= 0, received: NaN", {}),
  },
  {
    name: 'top-level page',
    path: '/api/tags?page=2',
    status: 400,
    equal: errorBody(
      400,
      'ValidationError',
      'Invalid pagination parameters. Cannot use both page-based (page, pageSize) and offset-based (start, limit) pagination in the same query.',
      {},
    ),
  },
  {
    name: 'pagination must be an object',
    path: '/api/tags?pagination=5',
    status: 400,
    match: { error: { name: 'ValidationError' } },
  },
]);

scenario(
  'pagination without maxLimit and with defaultLimit -1',
  [
    ...Array.from({ length: 3 }, (_, i): Step => ({
      name: `seed ${i}`,
      method: 'POST',
      path: '/api/tags',
      body: { data: { name: `t${i}` } },
      status: 201,
    })),
    page('no pagination asked: everything', '', ['t0', 't1', 't2'], { page: 1, pageSize: 3, pageCount: 1, total: 3 }),
    page('a large pageSize is not capped', 'pagination[pageSize]=1000', ['t0', 't1', 't2'], {
      page: 1,
      pageSize: 1000,
      pageCount: 1,
      total: 3,
    }),
    page('offset without limit: the rest', 'pagination[start]=1', ['t1', 't2'], { start: 1, limit: -1, total: 3 }),
  ],
  { files: { 'config/api.js': 'module.exports = { rest: { defaultLimit: -1, withCount: true } };' } },
);
