import { expect } from 'vitest';
import { errorBody, scenario, type Step } from '../support/scenario.js';
import { seedArticles, titles } from '../support/seed.js';

const ALPHA = 'Alpha release notes';
const BETA = 'beta testing guide';
const ZETA = 'Zeta databases deep dive';
const HELLO = 'Hello Strapi';
const GAMMA = 'gamma notes';

/** A list request sorted by title that must return exactly `expected`. */
function filter(name: string, query: string, expected: string[], databases?: Step['databases']): Step {
  return {
    name,
    ...(databases ? { databases } : {}),
    path: `/api/articles?${query}&fields[0]=title&sort=title`,
    status: 200,
    check: ({ json }) => {
      expect(titles(json)).toEqual(expected);
      expect(json.meta.pagination.total).toBe(expected.length);
    },
  };
}

scenario('filters: every operator, logic, casting and invalid keys', [
  ...seedArticles(),
  filter('$eq', 'filters[category][$eq]=tech', [HELLO, ZETA]),
  filter('implicit $eq', 'filters[category]=news', [ALPHA]),
  filter('$eq is case-sensitive', 'filters[title][$eq]=hello%20strapi', [], ['sqlite', 'postgres']),
  filter(
    '$eq follows the *_ci collation on MySQL, as in Strapi',
    'filters[title][$eq]=hello%20strapi',
    [HELLO],
    ['mysql'],
  ),
  filter('$eqi', 'filters[title][$eqi]=HELLO%20STRAPI', [HELLO]),
  filter('$ne excludes nulls', 'filters[category][$ne]=tech', [ALPHA, BETA]),
  filter('$nei', 'filters[category][$nei]=TECH', [ALPHA, BETA]),
  filter('$lt and $lte together', 'filters[views][$lt]=50&filters[rating][$lte]=4.5', [HELLO]),
  filter('$gt and $gte together', 'filters[views][$gt]=0&filters[views][$gte]=50', [ALPHA, ZETA]),
  filter('$in', 'filters[category][$in][0]=news&filters[category][$in][1]=life', [ALPHA, BETA]),
  filter('$in with a scalar', 'filters[views][$in]=10', [HELLO, GAMMA]),
  filter('$notIn', 'filters[views][$notIn][0]=0&filters[views][$notIn][1]=10', [ALPHA, ZETA]),
  filter('implicit $in from an array', 'filters[views][0]=0&filters[views][1]=120', [ZETA, BETA]),
  filter(
    '$contains is case-insensitive on SQLite and MySQL',
    'filters[title][$contains]=BETA',
    [BETA],
    ['sqlite', 'mysql'],
  ),
  filter('$contains is case-sensitive on PostgreSQL, as in Strapi', 'filters[title][$contains]=BETA', [], ['postgres']),
  filter('$containsi', 'filters[summary][$containsi]=beta', [BETA]),
  filter('$notContains', 'filters[title][$notContains]=notes', [HELLO, ZETA, BETA]),
  filter('$notContainsi', 'filters[title][$notContainsi]=ZETA', [ALPHA, HELLO, BETA, GAMMA]),
  filter('$startsWith', 'filters[title][$startsWith]=Zeta', [ZETA]),
  filter('$startsWithi', 'filters[title][$startsWithi]=hel', [HELLO]),
  filter('$endsWith', 'filters[title][$endsWith]=notes', [ALPHA, GAMMA]),
  filter('$endsWithi', 'filters[title][$endsWithi]=GUIDE', [BETA]),
  filter('an array on $contains is an OR', 'filters[title][$contains][0]=Zeta&filters[title][$contains][1]=gamma', [
    ZETA,
    GAMMA,
  ]),
  filter('% is escaped in LIKE', 'filters[summary][$contains]=100%25', [HELLO]),
  filter('_ is escaped in LIKE', 'filters[summary][$contains]=pure_fun', [HELLO]),
  filter('$null=true', 'filters[summary][$null]=true', [ALPHA]),
  filter('$null=false', 'filters[contactEmail][$null]=false', [HELLO, ZETA]),
  filter('$notNull', 'filters[publishTime][$notNull]=true', [ALPHA, BETA]),
  filter('$eq without a value means null', 'filters[category][$eq]', [GAMMA]),
  filter('$between integers', 'filters[views][$between][0]=5&filters[views][$between][1]=60', [ALPHA, HELLO, GAMMA]),
  filter(
    '$between dates',
    'filters[publishDate][$between][0]=2024-01-01&filters[publishDate][$between][1]=2024-12-31',
    [HELLO, BETA],
  ),
  filter('date $gte', 'filters[publishDate][$gte]=2024-05-17', [HELLO, ZETA, BETA]),
  filter('datetime $lt', 'filters[eventAt][$lt]=2024-12-24T12:30:00.000Z', [ALPHA]),
  filter('time $gt', 'filters[publishTime][$gt]=09:00:00', [BETA]),
  filter('boolean true', 'filters[isFeatured]=true', [HELLO, BETA]),
  filter('boolean 0', 'filters[isFeatured][$eq]=0', [ALPHA, ZETA, GAMMA]),
  filter('float $gt', 'filters[rating][$gt]=4.4', [HELLO, BETA]),
  filter('decimal $lte', 'filters[price][$lte]=19.99', [ALPHA, HELLO, BETA]),
  filter('biginteger $gte compares numerically', 'filters[bigcount][$gte]=2000', [ZETA, BETA]),
  filter('email $endsWith', 'filters[contactEmail][$endsWith]=@example.com', [HELLO, ZETA]),
  filter('createdAt $gt', 'filters[createdAt][$gt]=2001-01-01T00:00:00.000Z', [ALPHA, HELLO, ZETA, BETA, GAMMA]),
  filter('$or', 'filters[$or][0][category][$eq]=news&filters[$or][1][views][$gt]=100', [ALPHA, ZETA]),
  filter('$and', 'filters[$and][0][category][$eq]=tech&filters[$and][1][views][$lt]=100', [HELLO]),
  filter('$not at the root', 'filters[$not][category][$eq]=tech', [ALPHA, BETA]),
  filter('$not on an attribute', 'filters[title][$not][$contains]=notes', [HELLO, ZETA, BETA]),
  filter(
    '$or inside $and',
    'filters[$and][0][$or][0][views][$lt]=5&filters[$and][0][$or][1][views][$gt]=100&filters[$and][1][title][$containsi]=e',
    [ZETA, BETA],
  ),
  filter('$not wrapping $or', 'filters[$not][$or][0][category]=tech&filters[$not][$or][1][category]=life', [ALPHA]),
  filter('$or on one attribute', 'filters[views][$or][0][$eq]=0&filters[views][$or][1][$eq]=120', [ZETA, BETA]),
  filter('documentId', 'filters[documentId][$eq]={{a2}}', [ZETA]),
  filter('documentId $in', 'filters[documentId][$in][0]={{a0}}&filters[documentId][$in][1]={{a3}}', [ALPHA, HELLO]),
  filter('id $in', 'filters[id][$in][0]={{id0}}&filters[id][$in][1]={{id1}}', [ALPHA, BETA]),
  filter('a filter array is an AND', 'filters[0][views][$gt]=5&filters[1][views][$lt]=100', [ALPHA, HELLO, GAMMA]),
  filter('on drafts', 'status=draft&filters[views][$gte]=50', [ALPHA, ZETA]),
  {
    name: 'unknown operator',
    path: '/api/articles?filters[title][$foo]=1',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key $foo at title', {
      key: '$foo',
      path: 'title',
      source: 'query',
      param: 'filters',
    }),
  },
  {
    name: 'operators are case-sensitive',
    path: '/api/articles?filters[title][$EQ]=x',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key $EQ at title', {
      key: '$EQ',
      path: 'title',
      source: 'query',
      param: 'filters',
    }),
  },
  {
    name: 'unknown attribute',
    path: '/api/articles?filters[nope][$eq]=1',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key nope', {
      key: 'nope',
      path: null,
      source: 'query',
      param: 'filters',
    }),
  },
  {
    name: 'unknown attribute inside $or',
    path: '/api/articles?filters[$or][0][nope]=1',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key nope', {
      key: 'nope',
      path: null,
      source: 'query',
      param: 'filters',
    }),
  },
  {
    name: 'password attribute',
    path: '/api/articles?filters[secretCode][$eq]=x',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key secretCode', {
      key: 'secretCode',
      path: 'secretCode',
      source: 'query',
      param: 'filters',
    }),
  },
  {
    name: 'dynamic zone',
    path: '/api/articles?filters[blocks][title][$eq]=Q',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key blocks', {
      key: 'blocks',
      path: 'blocks',
      source: 'query',
      param: 'filters',
    }),
  },
  {
    name: 'creator fields are private',
    path: '/api/articles?filters[createdBy][id][$eq]=1',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key createdBy', {
      key: 'createdBy',
      path: 'createdBy',
      source: 'query',
      param: 'filters',
    }),
  },
  {
    name: 'invalid date value',
    path: '/api/articles?filters[publishDate][$eq]=not-a-date',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid format, expected yyyy-MM-dd', {}),
  },
  {
    name: 'filters must be an object',
    path: '/api/articles?filters=abc',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'The filters parameter must be an object or an array', {}),
  },
  {
    name: 'non-numeric value on a number (Strapi: 500) is a 400',
    path: '/api/articles?filters[views][$gt]=abc',
    status: 400,
    match: { error: { name: 'ValidationError', details: { key: 'views', param: 'filters' } } },
  },
  {
    name: 'non-array $or (Strapi: 500) is a 400',
    path: '/api/articles?filters[$or][title]=x',
    status: 400,
    match: { error: { name: 'ValidationError', details: { key: '$or' } } },
  },
  {
    name: '$between with one value (Strapi: 500) is a 400',
    path: '/api/articles?filters[views][$between]=5',
    status: 400,
    match: { error: { name: 'ValidationError', details: { key: '$between' } } },
  },
  {
    name: 'an object value on a scalar operator is a 400',
    path: '/api/articles?filters[title][$eq][x]=1',
    status: 400,
    match: { error: { name: 'ValidationError' } },
  },
]);
