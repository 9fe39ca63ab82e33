import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Generated hostile requests (issue 16 item 7): query strings, paths and bodies made of the
 * values that used to reach the database or the stack as a 500 — huge and exponent numbers, NUL
 * bytes, malformed percent-encoding, out-of-range dates, deep nesting, arrays and objects where
 * scalars belong, prototype keys — combined at random over every parameter and attribute. A seeded
 * run, so a failure is reproduced by the same seed: every answer is below 500 and a 4xx comes in
 * Strapi's error envelope. New classes of hostile input show up here before users find them.
 */

const SEED = 16;
const RUNS = 1000;

const hugeNumbers = [
  '1e40',
  '-1e40',
  '100000000000000000000000',
  '9'.repeat(40),
  '9007199254740993',
  '9223372036854775808',
  '-9223372036854775809',
  '1e308',
  '1e400',
  '2147483648',
  '-0',
  '0x10',
  '1.5',
  'Infinity',
  'NaN',
];
const hostileDates = [
  '0000-01-01',
  '%2B275760-09-13T00%3A00%3A00Z',
  '8640000000000000',
  '-8640000000000000',
  '9999-12-31',
  '10000-01-01',
  '25%3A99',
  '2024-02-30',
  '0000-12-31T23%3A59%3A59Z',
];
const hostileText = [
  '%00',
  'a%00b',
  '%E0%A4%A',
  '%ED%A0%80',
  '%FF',
  '%25',
  '%5C',
  '__proto__',
  'constructor',
  '',
  '%20',
  "'",
  '"',
  '*',
  'a.b.c',
  'true',
  'null',
  'x'.repeat(2000),
];
const scalarValue = fc.oneof(
  { arbitrary: fc.constantFrom(...hugeNumbers), weight: 4 },
  { arbitrary: fc.constantFrom(...hostileDates), weight: 2 },
  { arbitrary: fc.constantFrom(...hostileText), weight: 3 },
  { arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent), weight: 1 },
  { arbitrary: fc.integer().map(String), weight: 1 },
);

const articleFields = [
  'title',
  'slug',
  'views',
  'rating',
  'price',
  'bigcount',
  'isFeatured',
  'publishDate',
  'publishTime',
  'eventAt',
  'stamp',
  'meta',
  'category',
  'content',
  'id',
  'documentId',
  'locale',
];
/** Filterable paths to typed scalars, through relations and components too. */
const typedPaths = [
  'views',
  'rating',
  'price',
  'bigcount',
  'isFeatured',
  'publishDate',
  'publishTime',
  'eventAt',
  'stamp',
  'id',
  'documentId',
  'title',
  'meta',
  '[author][id]',
  '[tags][id]',
  '[author][name]',
  '[seo][metaTitle]',
  '[localizations][title]',
  '[cover][size]',
];
const oddKeys = ['nope', '__proto__', 'constructor', '$eq', ''];
const relationPaths = [
  'author',
  'tags',
  'editor',
  'seo',
  'blocks',
  'cover',
  'gallery',
  'localizations',
  'author.articles',
  'seo.keywords',
  'tags.articles.author',
  'blocks.author',
];
const operators = [
  '$eq',
  '$ne',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$notIn',
  '$between',
  '$null',
  '$notNull',
  '$contains',
  '$containsi',
  '$startsWith',
  '$endsWith',
  '$eqi',
  '$not',
  '$and',
  '$or',
  '$nope',
];
const simpleOperators = ['$eq', '$ne', '$lt', '$gte', '$in][0', '$between][1', '$containsi', '$eqi'];

/** `[a][b]…` with `depth` segments chosen from `segments`. */
const brackets = (segments: readonly string[], maxDepth: number) =>
  fc
    .array(fc.constantFrom(...segments), { minLength: 1, maxLength: maxDepth })
    .map((parts) => parts.map((p) => `[${p}]`).join(''));
/** `author.articles` repeated: a valid relation path of any length. */
const relationChain = (max: number) =>
  fc.integer({ min: 1, max }).map((pairs) => Array.from({ length: pairs }, () => 'author.articles').join('.'));

const queryPair = fc.oneof(
  {
    arbitrary: fc
      .tuple(fc.constantFrom('page', 'pageSize', 'start', 'limit', 'withCount'), scalarValue)
      .map(([key, value]) => `pagination[${key}]=${value}`),
    weight: 4,
  },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...typedPaths), fc.constantFrom(...simpleOperators), scalarValue)
      .map(([path, op, value]) => `filters${path.startsWith('[') ? path : `[${path}]`}[${op}]=${value}`),
    weight: 5,
  },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('publishDate', 'publishTime', 'eventAt', 'stamp'),
        fc.constantFrom('$eq', '$gt', '$lte', '$in][0'),
        fc.constantFrom(...hostileDates),
      )
      .map(([field, op, value]) => `filters[${field}][${op}]=${value}`),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constantFrom(...articleFields, ...relationPaths), fc.constantFrom(...oddKeys)),
        brackets([...operators, ...articleFields, '0', '1'], 6),
        scalarValue,
      )
      .map(([field, rest, value]) => `filters[${field}]${rest}=${value}`),
    weight: 1,
  },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...articleFields, ...oddKeys), fc.constantFrom(':asc', ':desc', ':nope', '', '%00'))
      .map(([field, order]) => `sort=${field}${order}`),
    weight: 1,
  },
  { arbitrary: relationChain(40).map((path) => `sort=${path}.title`), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...articleFields), scalarValue)
      .map(([field, value]) => `fields[0]=${field}&fields[1]=${value}`),
    weight: 1,
  },
  {
    arbitrary: fc
      .oneof(
        relationChain(1000),
        fc
          .array(fc.constantFrom(...relationPaths, '*', 'nope'), { minLength: 1, maxLength: 5 })
          .map((path) => path.join('.')),
      )
      .map((path) => `populate=${path}`),
    weight: 1,
  },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom(...relationPaths),
        brackets(
          [
            'populate',
            'on',
            'fields',
            'filters',
            'sort',
            'count',
            'shared.quote',
            'shared.seo',
            'author',
            'articles',
            'nope',
            '0',
          ],
          8,
        ),
        scalarValue,
      )
      .map(([field, rest, value]) => `populate[${field}]${rest}=${value}`),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(fc.constantFrom('_q', 'locale', 'status', 'publicationFilter', 'hasPublishedVersion'), scalarValue)
      .map(([key, value]) => `${key}=${value}`),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('_q', 'locale', 'status', 'pagination', 'filters', 'sort', 'fields', 'populate'),
        brackets(['0', '__proto__', 'a', '$eq'], 22),
        scalarValue,
      )
      .map(([key, rest, value]) => `${key}${rest}=${value}`),
    weight: 1,
  },
);
const queryString = fc.array(queryPair, { minLength: 1, maxLength: 2 }).map((pairs) => pairs.join('&'));

/** JSON text nested `depth` deep, in objects or arrays. */
const deepJson = fc
  .tuple(fc.integer({ min: 25, max: 6000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  );
const jsonScalar = fc.oneof(
  fc.constantFrom(
    '1e400',
    '-1e400',
    '1e30',
    '9007199254740993',
    '9223372036854775808',
    '1.5',
    '-0',
    'true',
    'null',
    '"\\u0000"',
    '"a\\u0000b"',
    '"\\ud800"',
    '"0000-01-01"',
    '"+275760-09-13T00:00:00.000Z"',
    '8640000000000000',
    '"25:99:99"',
    '"2100-01-01T00:00:00Z"',
    '"__proto__"',
    '""',
    '"x"',
  ),
  fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
  fc.double().map((n) => (Number.isFinite(n) ? String(n) : '0')),
);
const jsonValue: fc.Arbitrary<string> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonScalar,
    deepJson,
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(
        fc.tuple(
          fc.constantFrom(
            '__proto__',
            'id',
            'documentId',
            'connect',
            'set',
            'disconnect',
            '__component',
            'type',
            'children',
            'title',
            'a',
          ),
          tie('value'),
        ),
        { maxLength: 3 },
      )
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value as fc.Arbitrary<string>;
const bodyAttributes = [
  ...articleFields.filter((f) => f !== 'id' && f !== 'documentId' && f !== 'locale'),
  ...relationPaths.filter((p) => !p.includes('.') && p !== 'localizations'),
  'secretCode',
  'contactEmail',
];
const articleBody = fc
  .array(fc.tuple(fc.constantFrom(...bodyAttributes), jsonValue), { minLength: 1, maxLength: 2 })
  .map((entries) => `{"data":{"title":"generated"${entries.map(([k, v]) => `,${JSON.stringify(k)}:${v}`).join('')}}}`);

interface HostileRequest {
  readonly method: string;
  readonly path: string;
  readonly raw?: string;
}

const pathSegment = fc.oneof(
  fc.constant('{{doc}}'),
  fc.constantFrom('ab%00cd', '%E0%A4%A', '1e40', '9'.repeat(30), '%00', 'x'.repeat(300), '..%2F..', '__proto__'),
);
const request: fc.Arbitrary<HostileRequest> = fc.oneof(
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('/api/articles', '/api/tags', '/api/authors', '/api/users', '/api/upload/files', '/api/global'),
        queryString,
      )
      .map(([base, query]) => ({ method: 'GET', path: `${base}?${query}` })),
    weight: 6,
  },
  {
    arbitrary: fc
      .tuple(pathSegment, queryString)
      .map(([id, query]) => ({ method: 'GET', path: `/api/articles/${id}?${query}` })),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(fc.constantFrom('/api/users/', '/api/upload/files/', '/api/tags/', '/api/articles/'), pathSegment)
      .map(([base, id]) => ({ method: 'GET', path: `${base}${id}` })),
    weight: 1,
  },
  {
    arbitrary: fc
      .tuple(articleBody, fc.constantFrom('', '?status=draft', '?locale=fr', '?locale=%00'))
      .map(([raw, query]) => ({ method: 'POST', path: `/api/articles${query}`, raw })),
    weight: 4,
  },
  {
    arbitrary: fc
      .tuple(pathSegment, articleBody)
      .map(([id, raw]) => ({ method: 'PUT', path: `/api/articles/${id}`, raw })),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('/api/auth/local', '/api/auth/local/register', '/api/auth/forgot-password'),
        fc.array(fc.tuple(fc.constantFrom('identifier', 'username', 'email', 'password'), jsonValue), { maxLength: 3 }),
      )
      .map(([path, entries]) => ({
        method: 'POST',
        path,
        raw: `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`,
      })),
    weight: 1,
  },
  { arbitrary: pathSegment.map((id) => ({ method: 'DELETE', path: `/api/articles/${id}` })), weight: 1 },
);

for (const database of inject('databases')) {
  describe(`[${database}] generated hostile requests`, () => {
    let server: TestServer;
    let doc = '';
    beforeAll(async () => {
      server = await startTestServer({ database });
      const created = await server.request('POST', '/api/articles', {
        auth: 'full',
        body: {
          data: {
            title: 'target',
            seo: { metaTitle: 'm' },
            blocks: [{ __component: 'shared.quote', title: 'q' }],
            tags: [],
          },
        },
      });
      doc = created.json.data.documentId;
    });
    afterAll(async () => {
      await server?.close();
    });

    it(`${RUNS} requests (seed ${SEED}): no 5xx, every 4xx in Strapi's envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(request, async ({ method, path, raw }) => {
          const url = path.replace('{{doc}}', doc);
          const response = await server.request(method, url, { auth: 'full', ...(raw === undefined ? {} : { raw }) });
          const label = `${method} ${url.slice(0, 300)} ${(raw ?? '').slice(0, 200)} → ${response.status} ${response.text.slice(0, 300)}`;
          expect(response.status, label).toBeLessThan(500);
          if (response.status >= 400 && response.status !== 405) {
            expect(response.json, label).toMatchObject({
              data: null,
              error: { status: response.status, name: expect.any(String), message: expect.any(String) },
            });
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }, 300_000);
  });
}
