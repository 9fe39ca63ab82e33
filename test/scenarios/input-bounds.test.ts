import { expect } from 'vitest';
import { field, filePart, multipart } from '../support/multipart.js';
import { errorBody, scenario, type Step } from '../support/scenario.js';

// Issue 16 items 5 and 7: every class of hostile input that reached a stack overflow or the
// database as a 500, with the 400 each now gets (nesting depth, query-string numbers, NUL bytes
// bound for PostgreSQL, dates, sort joins, populate depth, items per write), and the edges that
// must still work.

const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
const brackets = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const fieldError = (path: string[], message: string, value?: unknown) =>
  errorBody(400, 'ValidationError', message, {
    errors: [{ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }],
  });
const bodyTooDeep = (at: string, path: string[]) =>
  errorBody(400, 'ValidationError', `The request body nests arrays and objects more than 100 levels deep (at ${at})`, {
    path,
    limit: 100,
  });
const invalidParameter = (name: string, expected: string, received: string) =>
  errorBody(
    400,
    'ValidationError',
    `Invalid parameter at '${name}'. Expected integer ${expected}, received: ${received}`,
    {},
  );
const badFilter = (field: string, value: string, expected: string) =>
  errorBody(
    400,
    'ValidationError',
    `Invalid value ${JSON.stringify(value)} for filter "${field}": expected ${expected}`,
    { key: field, source: 'query', param: 'filters' },
  );
const SAFE = '9007199254740991';
const INTEGER_RANGE = `an integer between -${SAFE} and ${SAFE}`;
const NUL_ERROR = errorBody(
  400,
  'ValidationError',
  'A value contains the NUL character (\\u0000), which PostgreSQL cannot store or compare: remove it',
  {},
);
const SQLITE_LIKE_NUL = errorBody(
  400,
  'ValidationError',
  'A search or text filter contains the NUL character (\\u0000), which SQLite cannot match: remove it',
  {},
);
const DATE_RANGE = errorBody(400, 'ValidationError', 'Invalid date, expected a year from 0001 to 9999', {});
const notPostgres = ['sqlite', 'mysql'] as const;
const notMysql = ['sqlite', 'postgres'] as const;

/** A relation path `author.articles` repeated `pairs` times. */
const hops = (pairs: number) => Array.from({ length: pairs }, () => 'author.articles').join('.');

/** A blocks value whose lists nest `levels` deep (each level: a list node and its children array). */
function nestedList(levels: number): unknown {
  let node: unknown = { type: 'list-item', children: [{ type: 'text', text: 'leaf' }] };
  for (let i = 0; i < levels; i += 1) node = { type: 'list', format: 'unordered', children: [node] };
  return [node];
}

const depthSteps: Step[] = [
  {
    name: 'a JSON attribute nested 5,000 deep (10 KB): 400 naming where and the limit',
    method: 'POST',
    path: '/api/articles',
    raw: `{"data":{"title":"deep","meta":${nested(5000)}}}`,
    status: 400,
    equal: bodyTooDeep('data.meta.a.a.a.a…', ['data', 'meta', 'a', 'a', 'a', 'a']),
  },
  {
    name: 'arrays 20,000 deep in a plain string attribute',
    method: 'POST',
    path: '/api/articles',
    raw: `{"data":{"title":${brackets(20000)}}}`,
    status: 400,
    equal: bodyTooDeep('data.title.0.0.0.0…', ['data', 'title', '0', '0', '0', '0']),
  },
  {
    name: 'deep relation input',
    method: 'POST',
    path: '/api/articles',
    raw: `{"data":{"title":"x","author":{"connect":[${nested(3000)}]}}}`,
    status: 400,
    match: { error: { name: 'ValidationError', details: { limit: 100 } } },
  },
  {
    name: 'deep component field',
    method: 'POST',
    path: '/api/articles',
    raw: `{"data":{"title":"x","seo":{"metaTitle":${nested(3000)}}}}`,
    status: 400,
    match: { error: { details: { path: ['data', 'seo', 'metaTitle', 'a', 'a', 'a'], limit: 100 } } },
  },
  {
    name: 'deep users-permissions body',
    method: 'POST',
    path: '/api/auth/local',
    raw: `{"identifier":${nested(3000)},"password":"Secret-123"}`,
    status: 400,
    equal: bodyTooDeep('identifier.a.a.a.a.a…', ['identifier', 'a', 'a', 'a', 'a', 'a']),
  },
  {
    name: 'a whole body of brackets',
    method: 'POST',
    path: '/api/articles',
    raw: brackets(50000),
    status: 400,
    match: { error: { name: 'ValidationError', details: { limit: 100 } } },
  },
  {
    name: 'a JSON attribute 32 levels deep: the field error names the attribute and the limit',
    method: 'POST',
    path: '/api/articles',
    raw: `{"data":{"title":"x","meta":${nested(32)}}}`,
    status: 400,
    equal: fieldError(
      ['meta'],
      'meta must not nest arrays and objects more than 31 levels deep',
      JSON.parse(nested(32)),
    ),
  },
  {
    name: 'a JSON attribute 31 levels deep is stored (MariaDB included) and read back',
    method: 'POST',
    path: '/api/articles?fields[0]=meta',
    raw: `{"data":{"title":"deep 31","meta":${nested(31)}}}`,
    status: 201,
    match: { data: { meta: JSON.parse(nested(31)) } },
    save: { deep31: 'data.documentId' },
  },
  {
    name: 'the 31-deep value reads back',
    path: '/api/articles/{{deep31}}?fields[0]=meta',
    status: 200,
    match: { data: { meta: JSON.parse(nested(31)) } },
  },
  {
    name: 'blocks lists nested 16 deep (33 levels)',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', content: nestedList(16) } },
    status: 400,
    equal: fieldError(['content'], 'content must not nest arrays and objects more than 31 levels deep', nestedList(16)),
  },
  {
    name: 'blocks lists nested 12 deep are stored',
    method: 'POST',
    path: '/api/articles?fields[0]=content',
    body: { data: { title: 'lists', content: nestedList(12) } },
    status: 201,
    match: { data: { content: nestedList(12) } },
  },
  {
    name: 'fileInfo nested 5,000 deep',
    method: 'POST',
    path: '/api/upload',
    payload: multipart([
      field('fileInfo', `{"name":${brackets(5000)}}`),
      filePart('files', 'note.txt', 'hello', 'text/plain'),
    ]),
    status: 400,
    equal: errorBody(400, 'ValidationError', 'fileInfo nests arrays and objects more than 100 levels deep', {}),
  },
  {
    name: "a body of whitespace is koa-body's SyntaxError",
    method: 'POST',
    path: '/api/articles',
    raw: ' \n\t ',
    status: 400,
    equal: {
      data: null,
      error: { status: 400, name: 'SyntaxError', message: 'invalid JSON, only supports object and array' },
    },
  },
  {
    name: 'a populate path 1,800 levels deep',
    path: `/api/articles?populate=${hops(900)}`,
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid populate: it nests 1800 levels; at most 20 are allowed', {
      source: 'query',
      param: 'populate',
    }),
  },
  {
    name: 'a populate 22 levels deep',
    path: `/api/articles?populate=${hops(11)}`,
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid populate: it nests 22 levels; at most 20 are allowed', {
      source: 'query',
      param: 'populate',
    }),
  },
  { name: 'a populate 20 levels deep works', path: `/api/articles?populate=${hops(10)}`, status: 200 },
  {
    name: 'a sort through 22 relations (MariaDB joins 61 tables at most)',
    path: `/api/articles?sort=${hops(11)}.title`,
    status: 400,
    equal: errorBody(
      400,
      'ValidationError',
      'Invalid sort: it goes through 22 relations, components or media; at most 20 are allowed',
      { source: 'query', param: 'sort' },
    ),
  },
  {
    name: 'a sort through 20 relations works on every database',
    path: `/api/articles?sort=${hops(10)}.title`,
    status: 200,
  },
];

const paginationSteps: Step[] = [
  {
    name: 'a 24-digit page',
    path: '/api/tags?pagination[page]=100000000000000000000000',
    status: 400,
    equal: invalidParameter('page', 'between 1 and 360287970189640 (pageSize 25)', '1e+23'),
  },
  {
    name: 'an exponent page',
    path: '/api/tags?pagination[page]=1e40',
    status: 400,
    equal: invalidParameter('page', 'between 1 and 360287970189640 (pageSize 25)', '1e+40'),
  },
  {
    name: 'a 40-digit start',
    path: `/api/tags?pagination[start]=${'9'.repeat(40)}`,
    status: 400,
    equal: invalidParameter('start', `between 0 and ${SAFE}`, '1e+40'),
  },
  {
    name: 'an exponent start',
    path: '/api/tags?pagination[start]=1e40',
    status: 400,
    equal: invalidParameter('start', `between 0 and ${SAFE}`, '1e+40'),
  },
  {
    name: 'a start one past 2^53 - 1',
    path: '/api/tags?pagination[start]=9007199254740992',
    status: 400,
    equal: invalidParameter('start', `between 0 and ${SAFE}`, '9007199254740992'),
  },
  {
    name: "a non-integer pageSize: Strapi's limit message",
    path: '/api/tags?pagination[pageSize]=1.5',
    status: 400,
    equal: invalidParameter('limit', '>= 1 or -1', '1.5'),
  },
  {
    name: 'the largest start reaches the database and finds nothing',
    path: `/api/tags?pagination[start]=${SAFE}`,
    status: 200,
    equal: { data: [], meta: { pagination: { start: Number(SAFE), limit: 25, total: 1 } } },
  },
  {
    name: 'the last page reaches the database and finds nothing',
    path: '/api/tags?pagination[page]=360287970189640',
    status: 200,
    equal: { data: [], meta: { pagination: { page: 360287970189640, pageSize: 25, pageCount: 1, total: 1 } } },
  },
  {
    name: 'maxLimit caps a huge pageSize, as Strapi',
    path: '/api/tags?fields[0]=name&pagination[pageSize]=1e40',
    status: 200,
    match: { meta: { pagination: { page: 1, pageSize: 100 } } },
  },
  {
    name: 'maxLimit caps a huge limit',
    path: '/api/tags?fields[0]=name&pagination[limit]=100000000000000000000000',
    status: 200,
    match: { meta: { pagination: { start: 0, limit: 100 } } },
  },
  {
    name: 'a huge negative start clamps to 0',
    path: '/api/tags?fields[0]=name&pagination[start]=-1e40',
    status: 200,
    match: { meta: { pagination: { start: 0, limit: 25 } } },
  },
  {
    name: 'the same bound on /api/users',
    path: '/api/users?pagination[start]=1e40',
    auth: 'full',
    status: 400,
    equal: invalidParameter('start', `between 0 and ${SAFE}`, '1e+40'),
  },
  // The files list reads the top-level start/limit, as Strapi 5.54 (pagination[…] is ignored there).
  {
    name: 'the same bound on /api/upload/files',
    path: '/api/upload/files?start=1e40',
    status: 400,
    equal: {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'convertStartQueryParams expected a positive integer got 1e+40',
        details: {},
      },
    },
  },
];

const numberSteps: Step[] = [
  {
    name: 'a fractional integer filter (PostgreSQL read "1.5" as integer text)',
    path: '/api/articles?filters[views][$lt]=2.5',
    status: 400,
    equal: badFilter('views', '2.5', INTEGER_RANGE),
  },
  {
    name: 'an exponent integer filter',
    path: '/api/articles?filters[views][$eq]=1e30',
    status: 400,
    equal: badFilter('views', '1e30', INTEGER_RANGE),
  },
  {
    name: 'a 30-digit integer filter',
    path: `/api/articles?filters[views][$gt]=${'1'.repeat(30)}`,
    status: 400,
    equal: badFilter('views', '1'.repeat(30), INTEGER_RANGE),
  },
  {
    name: 'a huge id filter',
    path: '/api/articles?filters[id][$eq]=1e300',
    status: 400,
    equal: badFilter('id', '1e300', INTEGER_RANGE),
  },
  {
    name: 'a huge relation id filter',
    path: '/api/articles?filters[author][id][$in][0]=1e300',
    status: 400,
    equal: badFilter('id', '1e300', INTEGER_RANGE),
  },
  {
    name: 'a biginteger past 2^63 - 1',
    path: '/api/articles?filters[bigcount][$eq]=9223372036854775808',
    status: 400,
    equal: badFilter(
      'bigcount',
      '9223372036854775808',
      'an integer between -9223372036854775808 and 9223372036854775807',
    ),
  },
  {
    name: 'the smallest biginteger works',
    path: '/api/articles?fields[0]=title&filters[bigcount][$eq]=-9223372036854775808',
    status: 200,
    match: { data: [] },
  },
  {
    name: 'an int32 edge filter works everywhere',
    path: '/api/articles?fields[0]=title&filters[views][$lt]=2147483647',
    status: 200,
  },
  {
    name: 'a huge decimal filter is a number',
    path: '/api/articles?fields[0]=title&filters[price][$lt]=1e300',
    status: 200,
  },
  {
    name: 'a body integer beyond 2^53',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', views: 1e30 } },
    status: 400,
    equal: fieldError(['views'], `views must be less than or equal to ${SAFE}`, 1e30),
  },
];

const nulSteps: Step[] = [
  {
    name: 'NUL in a documentId (PostgreSQL)',
    path: '/api/articles/ab%00cd',
    status: 400,
    equal: NUL_ERROR,
    databases: ['postgres'],
  },
  {
    name: 'NUL in a documentId elsewhere: not found',
    path: '/api/articles/ab%00cd',
    status: 404,
    databases: notPostgres,
  },
  {
    name: 'NUL in _q (PostgreSQL)',
    path: '/api/articles?_q=a%00b',
    status: 400,
    equal: NUL_ERROR,
    databases: ['postgres'],
  },
  {
    name: 'NUL in _q on MySQL: nothing matches',
    path: '/api/articles?_q=a%00b',
    status: 200,
    match: { data: [] },
    databases: ['mysql'],
  },
  // SQLite's LIKE stops reading its pattern at a NUL: `%a` would match every value ending in "a".
  {
    name: 'NUL in _q on SQLite: refused, not matched wrongly',
    path: '/api/articles?_q=a%00b',
    status: 400,
    equal: SQLITE_LIKE_NUL,
    databases: ['sqlite'],
  },
  {
    name: 'NUL in a $endsWith filter on SQLite: refused too',
    path: '/api/articles?filters[title][$endsWith]=%00',
    status: 400,
    equal: SQLITE_LIKE_NUL,
    databases: ['sqlite'],
  },
  {
    name: 'NUL in a filter value (PostgreSQL)',
    path: '/api/articles?filters[author][name][$containsi]=%00',
    status: 400,
    equal: NUL_ERROR,
    databases: ['postgres'],
  },
  {
    name: 'NUL in a populate filter (PostgreSQL)',
    path: '/api/articles?populate[author][filters][name][$eq]=a%00',
    status: 400,
    equal: NUL_ERROR,
    databases: ['postgres'],
  },
  {
    name: 'NUL in a documentId filter list (PostgreSQL)',
    path: '/api/articles?filters[documentId][$in][0]=%00',
    status: 400,
    equal: NUL_ERROR,
    databases: ['postgres'],
  },
  {
    name: 'NUL in a body string (PostgreSQL)',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'a\u0000b' } },
    status: 400,
    equal: NUL_ERROR,
    databases: ['postgres'],
  },
  {
    name: 'NUL in a JSON value (PostgreSQL jsonb)',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'json nul', meta: { k: 'x\u0000' } } },
    status: 400,
    equal: NUL_ERROR,
    databases: ['postgres'],
  },
  {
    name: 'NUL in a body string is stored elsewhere',
    method: 'POST',
    path: '/api/articles?fields[0]=title&fields[1]=meta',
    body: { data: { title: 'a\u0000b', meta: { k: 'x\u0000' } } },
    status: 201,
    match: { data: { title: 'a\u0000b', meta: { k: 'x\u0000' } } },
    databases: notPostgres,
  },
  {
    name: 'a literal backslash-u0000 in JSON is plain text everywhere',
    method: 'POST',
    path: '/api/articles?fields[0]=meta',
    body: { data: { title: 'escaped', meta: { k: '\\u0000' } } },
    status: 201,
    match: { data: { meta: { k: '\\u0000' } } },
  },
  {
    name: 'NUL in a login identifier (PostgreSQL)',
    method: 'POST',
    path: '/api/auth/local',
    body: { identifier: 'a\u0000', password: 'Secret-123' },
    status: 400,
    equal: NUL_ERROR,
    databases: ['postgres'],
  },
  {
    name: 'a lone surrogate in a JSON value is stored as U+FFFD (jsonb and JSON_VALID refused the escape)',
    method: 'POST',
    path: '/api/articles?fields[0]=meta&fields[1]=content',
    raw: '{"data":{"title":"surrogates","meta":{"k":"x\\ud800","\\udc00":["\\ud83d\\ude00"]},"content":[{"type":"paragraph","children":[{"type":"text","text":"\\udbff"}]}]}}',
    status: 201,
    match: {
      data: {
        meta: { k: 'x\ufffd', '\ufffd': ['\u{1F600}'] },
        content: [{ type: 'paragraph', children: [{ type: 'text', text: '\ufffd' }] }],
      },
    },
  },
  {
    name: 'a sort on a JSON attribute (PostgreSQL cannot collate jsonb)',
    path: '/api/articles?fields[0]=title&sort=meta:desc',
    status: 200,
  },
  {
    name: 'seed a JSON value to filter on',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'json filter', meta: { k: 'Needle' } } },
    status: 201,
  },
  ...[
    '$containsi]=needle',
    '$contains]=Needle',
    '$startsWith]={&filters[title][$eq]=json filter',
    '$notContainsi]=zzz&filters[title][$eq]=json filter',
  ].map((filter): Step => ({
    name: `filters[meta][${filter} compares the JSON text`,
    path: `/api/articles?fields[0]=title&filters[meta][${filter}`,
    status: 200,
    check: ({ json }) => expect(json.data.map((d: { title: string }) => d.title)).toEqual(['json filter']),
  })),
  ...[
    '$eq]=abc',
    '$ne]=abc',
    '$lt]=abc',
    '$in][0]=abc',
    '$eqi]=abc',
    '$between][0]=a&filters[meta][$between][1]=b',
    '$null]=false&filters[content][$containsi]=x',
  ].map((filter): Step => ({
    name: `filters[meta][${filter}: no jsonb parse of the value`,
    path: `/api/articles?fields[0]=title&filters[meta][${filter}`,
    status: 200,
  })),
  {
    name: 'NUL in a relation documentId (PostgreSQL)',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', author: { connect: ['a\u0000'] } } },
    status: 400,
    equal: NUL_ERROR,
    databases: ['postgres'],
  },
];

const dateSteps: Step[] = [
  {
    name: 'year 0000 in a date (PostgreSQL has no year 0)',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', publishDate: '0000-01-01' } },
    status: 400,
    equal: DATE_RANGE,
  },
  {
    name: 'a timestamp in year 275760',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', eventAt: 8.64e15 } },
    status: 400,
    equal: DATE_RANGE,
  },
  {
    name: 'year 0000 in a date filter',
    path: '/api/articles?filters[publishDate][$gt]=0000-01-01',
    status: 400,
    equal: DATE_RANGE,
  },
  {
    name: 'a year-275760 timestamp filter',
    path: '/api/articles?filters[eventAt][$gt]=8640000000000000',
    status: 400,
    equal: DATE_RANGE,
  },
  {
    name: 'the first and last supported days are stored and read back',
    method: 'POST',
    path: '/api/articles?fields[0]=publishDate&fields[1]=eventAt',
    body: { data: { title: 'edges', publishDate: '0001-01-01', eventAt: '9999-12-31T23:59:59.999Z' } },
    status: 201,
    match: { data: { publishDate: '0001-01-01', eventAt: '9999-12-31T23:59:59.999Z' } },
  },
  {
    name: 'a timestamp attribute in 2100 on MySQL: 400 naming the column and the range',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', stamp: '2100-01-01T00:00:00.000Z' } },
    status: 400,
    equal: errorBody(
      400,
      'ValidationError',
      'A date is out of range for its column (stamp): MySQL timestamp columns hold 1970-01-01 to 2038-01-19 (UTC); use a datetime attribute for other dates',
      {},
    ),
    databases: ['mysql'],
  },
  {
    name: 'a timestamp attribute in 2100 elsewhere',
    method: 'POST',
    path: '/api/articles?fields[0]=stamp',
    body: { data: { title: 'x', stamp: '2100-01-01T00:00:00.000Z' } },
    status: 201,
    match: { data: { stamp: '4102444800000' } },
    databases: notMysql,
  },
];

const tooMany = (count: number) =>
  errorBody(
    400,
    'ValidationError',
    `A write may carry at most 1000 relation references, files and component items; this one carries ${count}. Split it into several requests (relations: connect in batches)`,
    {},
  );
const ids = (count: number, make: (i: number) => unknown) => Array.from({ length: count }, (_, i) => make(i));

const sizeSteps: Step[] = [
  {
    name: '40,000 relation references (too many SQL parameters before)',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', tags: ids(40_000, (i) => `tag${i}`) } },
    status: 400,
    equal: tooMany(40_000),
  },
  {
    name: '40,000 files in a media attribute',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', gallery: ids(40_000, (i) => i + 1) } },
    status: 400,
    equal: tooMany(40_000),
  },
  {
    name: '10,000 dynamic-zone items',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', blocks: ids(10_000, () => ({ __component: 'shared.rich-text', body: 'b' })) } },
    status: 400,
    equal: tooMany(10_000),
  },
  {
    name: 'the items of every level count together',
    method: 'PUT',
    path: '/api/global',
    body: { data: { defaultSeo: { metaTitle: 't', keywords: ids(1000, (i) => ({ word: `w${i}` })) } } },
    status: 400,
    equal: tooMany(1001),
  },
  {
    name: '1,000 references reach the database (one statement) and are each looked up',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', tags: { connect: ids(1000, (i) => `missing${i}`) } } },
    status: 400,
    match: { error: { message: 'Document with id "missing0", locale "null" not found' } },
  },
  {
    name: '999 keywords under one seo are written',
    method: 'PUT',
    path: '/api/global?populate[defaultSeo][populate]=keywords',
    body: { data: { defaultSeo: { metaTitle: 't', keywords: ids(999, (i) => ({ word: `w${i}` })) } } },
    status: 200,
    check: ({ json }) => expect(json.data.defaultSeo.keywords).toHaveLength(999),
  },
];

scenario('hostile input: nesting, numbers, NUL bytes, dates, joins and populate depth are 400s', [
  { name: 'seed a tag', method: 'POST', path: '/api/tags', body: { data: { name: 'only' } }, status: 201 },
  ...depthSteps,
  ...paginationSteps,
  ...numberSteps,
  ...nulSteps,
  ...dateSteps,
  ...sizeSteps,
]);

scenario(
  'query-string numbers without maxLimit',
  [
    {
      name: 'a huge pageSize is a 400 when nothing caps it',
      path: '/api/tags?pagination[pageSize]=1e40',
      status: 400,
      equal: invalidParameter('pageSize', `between 1 and ${SAFE}`, '1e+40'),
    },
    {
      name: 'a huge limit too',
      path: '/api/tags?pagination[limit]=1e40',
      status: 400,
      equal: invalidParameter('limit', `between 1 and ${SAFE}`, '1e+40'),
    },
    {
      name: 'the largest limit reaches the database',
      path: `/api/tags?pagination[limit]=${SAFE}`,
      status: 200,
      check: ({ json }) => expect(json.meta.pagination).toEqual({ start: 0, limit: Number(SAFE), total: 0 }),
    },
  ],
  { files: { 'config/api.js': 'module.exports = { rest: { defaultLimit: 25, withCount: true } };' } },
);
