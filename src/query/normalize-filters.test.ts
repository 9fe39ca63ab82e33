import { describe, it, expect } from 'vitest';
import { buildSchema } from '../schema/build-schema.js';
import type { ContentType, Schema } from '../schema/types.js';
import { normalizeFilters } from './normalize-filters.js';
import type { FilterNode, Operator } from './query-types.js';
import { validationError, rawCollectionType as collectionType } from '../../test/support/unit.js';

const schema: Schema = buildSchema(
  [
    collectionType('api::article.article', 'article', 'articles', {
      title: { type: 'string' },
      views: { type: 'integer' },
      price: { type: 'float' },
      bigcount: { type: 'biginteger' },
      isFeatured: { type: 'boolean' },
      publishDate: { type: 'date' },
      startTime: { type: 'time' },
      happenedAt: { type: 'datetime' },
      secret: { type: 'string', private: true },
      password: { type: 'password' },
      blocks: { type: 'dynamiczone', components: ['shared.seo'] },
      seo: { type: 'component', component: 'shared.seo' },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
    }),
    collectionType('api::author.author', 'author', 'authors', {
      name: { type: 'string' },
      age: { type: 'integer' },
    }),
  ],
  [
    {
      uid: 'shared.seo',
      category: 'shared',
      file: 'seo.json',
      definition: {
        collectionName: 'components_shared_seos',
        attributes: { metaTitle: { type: 'string' }, rating: { type: 'integer' } },
      },
    },
  ],
);
const article = schema.contentTypes.get('api::article.article') as ContentType;

const normalize = (raw: unknown) => normalizeFilters(schema, article, raw);
const cmp = (field: string, op: Operator, value: unknown): FilterNode => ({ kind: 'compare', field, op, value });

describe('normalizeFilters: top level', () => {
  it('returns null without filters', () => {
    expect(normalize(undefined)).toBeNull();
  });

  it.each([[{}], [[]]])('returns null for an empty object or array (%j)', (raw) => {
    expect(normalize(raw)).toBeNull();
  });

  it.each([['abc'], [5], [true], [null]])('rejects a non-object filters parameter (%j)', (raw) => {
    const error = validationError(() => normalize(raw));
    expect(error.message).toBe('The filters parameter must be an object or an array');
  });

  it('combines several keys with and', () => {
    expect(normalize({ title: 'x', views: '3' })).toEqual({
      kind: 'and',
      children: [cmp('title', 'eq', 'x'), cmp('views', 'eq', 3)],
    });
  });

  it('combines the items of a root array with and', () => {
    expect(normalize([{ title: 'x' }, { views: '3' }])).toEqual({
      kind: 'and',
      children: [cmp('title', 'eq', 'x'), cmp('views', 'eq', 3)],
    });
  });
});

describe('normalizeFilters: implicit operators', () => {
  it.each([
    [{ title: 'x' }, cmp('title', 'eq', 'x')],
    [{ views: '5' }, cmp('views', 'eq', 5)],
    [{ views: ['1', '2'] }, cmp('views', 'in', [1, 2])],
    [{ title: ['a', 'b'] }, cmp('title', 'in', ['a', 'b'])],
    [{ title: null }, cmp('title', 'eq', null)],
  ])('%j', (raw, expected) => {
    expect(normalize(raw)).toEqual(expected);
  });
});

describe('normalizeFilters: operators', () => {
  it.each([
    ['$eq', 'x', cmp('title', 'eq', 'x')],
    ['$eqi', 'X', cmp('title', 'eqi', 'X')],
    ['$ne', 'x', cmp('title', 'ne', 'x')],
    ['$nei', 'X', cmp('title', 'nei', 'X')],
    ['$lt', 'm', cmp('title', 'lt', 'm')],
    ['$lte', 'm', cmp('title', 'lte', 'm')],
    ['$gt', 'm', cmp('title', 'gt', 'm')],
    ['$gte', 'm', cmp('title', 'gte', 'm')],
    ['$in', ['a', 'b'], cmp('title', 'in', ['a', 'b'])],
    ['$notIn', ['a', 'b'], cmp('title', 'notIn', ['a', 'b'])],
    ['$between', ['a', 'm'], cmp('title', 'between', ['a', 'm'])],
    ['$null', 'true', cmp('title', 'null', true)],
    ['$notNull', 'true', cmp('title', 'notNull', true)],
    ['$contains', 'ab', cmp('title', 'contains', 'ab')],
    ['$notContains', 'ab', cmp('title', 'notContains', 'ab')],
    ['$containsi', 'AB', cmp('title', 'containsi', 'AB')],
    ['$notContainsi', 'AB', cmp('title', 'notContainsi', 'AB')],
    ['$startsWith', 'ab', cmp('title', 'startsWith', 'ab')],
    ['$startsWithi', 'AB', cmp('title', 'startsWithi', 'AB')],
    ['$endsWith', 'ab', cmp('title', 'endsWith', 'ab')],
    ['$endsWithi', 'AB', cmp('title', 'endsWithi', 'AB')],
  ])('accepts %s', (op, value, expected) => {
    expect(normalize({ title: { [op]: value } })).toEqual(expected);
  });

  it('accepts a single value for $in', () => {
    expect(normalize({ views: { $in: '4' } })).toEqual(cmp('views', 'in', [4]));
  });

  it('accepts qs-style objects with numeric keys for $in', () => {
    expect(normalize({ views: { $in: { 0: '1', 1: '2' } } })).toEqual(cmp('views', 'in', [1, 2]));
  });

  it('turns an array under a single-value operator into or', () => {
    expect(normalize({ title: { $contains: ['a', 'b'] } })).toEqual({
      kind: 'or',
      children: [cmp('title', 'contains', 'a'), cmp('title', 'contains', 'b')],
    });
  });

  it('combines several operators on one attribute with and', () => {
    expect(normalize({ views: { $gte: '1', $lt: '10' } })).toEqual({
      kind: 'and',
      children: [cmp('views', 'gte', 1), cmp('views', 'lt', 10)],
    });
  });

  it.each(['$EQ', '$foo', '$and_', 'nope'])('rejects the unknown operator %s on an attribute', (op) => {
    const error = validationError(() => normalize({ title: { [op]: 'x' } }));
    expect(error.message).toBe(`Invalid key ${op} at title`);
    expect(error.details).toEqual({ key: op, path: 'title', source: 'query', param: 'filters' });
  });

  it('rejects an unknown operator at the root with a null path', () => {
    const error = validationError(() => normalize({ $eq: 'x' }));
    expect(error.message).toBe('Invalid key $eq');
    expect(error.details).toEqual({ key: '$eq', path: null, source: 'query', param: 'filters' });
  });

  it.each([[['1']], [['1', '2', '3']], ['1'], [[]]])('rejects $between without exactly two values (%j)', (value) => {
    const error = validationError(() => normalize({ views: { $between: value } }));
    expect(error.message).toMatch(/^Invalid value for \$between at views: expected exactly two values/);
    expect(error.details).toMatchObject({ key: '$between', path: 'views', source: 'query', param: 'filters' });
  });

  it('casts both $between values', () => {
    expect(normalize({ views: { $between: ['1', '10'] } })).toEqual(cmp('views', 'between', [1, 10]));
  });

  it('rejects an object as a single operator value', () => {
    const error = validationError(() => normalize({ title: { $eq: { nested: 'x' } } }));
    expect(error.details).toMatchObject({ key: 'title', source: 'query', param: 'filters' });
  });
});

describe('normalizeFilters: keys', () => {
  it('rejects an unknown root key with a null path', () => {
    const error = validationError(() => normalize({ nope: 'x' }));
    expect(error.message).toBe('Invalid key nope');
    expect(error.details).toEqual({ key: 'nope', path: null, source: 'query', param: 'filters' });
  });

  it.each(['password', 'secret', 'blocks', 'createdBy', 'updatedBy'])(
    'rejects the non-filterable attribute %s with path = key',
    (key) => {
      const error = validationError(() => normalize({ [key]: 'x' }));
      expect(error.message).toBe(`Invalid key ${key}`);
      expect(error.details).toEqual({ key, path: key, source: 'query', param: 'filters' });
    },
  );

  it('accepts id (cast to a number) and documentId (kept as text)', () => {
    expect(normalize({ id: '4' })).toEqual(cmp('id', 'eq', 4));
    expect(normalize({ documentId: 'abc123' })).toEqual(cmp('documentId', 'eq', 'abc123'));
  });

  it('accepts system datetimes', () => {
    expect(normalize({ createdAt: { $gt: '2024-01-01T00:00:00Z' } })).toEqual(
      cmp('createdAt', 'gt', new Date('2024-01-01T00:00:00Z')),
    );
  });
});

describe('normalizeFilters: logical groups', () => {
  it('builds or from a $or array', () => {
    expect(normalize({ $or: [{ title: 'a' }, { views: '2' }] })).toEqual({
      kind: 'or',
      children: [cmp('title', 'eq', 'a'), cmp('views', 'eq', 2)],
    });
  });

  it('builds and from a $and array', () => {
    expect(normalize({ $and: [{ title: 'a' }, { views: '2' }] })).toEqual({
      kind: 'and',
      children: [cmp('title', 'eq', 'a'), cmp('views', 'eq', 2)],
    });
  });

  it('accepts $or as a qs object with numeric keys', () => {
    expect(normalize({ $or: { 0: { title: 'a' }, 1: { title: 'b' } } })).toEqual({
      kind: 'or',
      children: [cmp('title', 'eq', 'a'), cmp('title', 'eq', 'b')],
    });
  });

  it('collapses a one-item $or to its only child', () => {
    expect(normalize({ $or: [{ title: 'a' }] })).toEqual(cmp('title', 'eq', 'a'));
  });

  it.each([[{ title: 'a' }], ['x'], [{}], [5]])('rejects a non-array $or (%j)', (value) => {
    const error = validationError(() => normalize({ $or: value }));
    expect(error.message).toMatch(/^Invalid value for \$or: expected an array of conditions/);
    expect(error.details).toEqual({ key: '$or', path: null, source: 'query', param: 'filters' });
  });

  it('rejects a non-array $and on an attribute, naming the path', () => {
    const error = validationError(() => normalize({ title: { $and: 'x' } }));
    expect(error.message).toMatch(/^Invalid value for \$and at title: /);
    expect(error.details).toEqual({ key: '$and', path: 'title', source: 'query', param: 'filters' });
  });

  it('builds not from a root $not', () => {
    expect(normalize({ $not: { title: 'a' } })).toEqual({ kind: 'not', child: cmp('title', 'eq', 'a') });
  });

  it('builds not from $not on an attribute', () => {
    expect(normalize({ title: { $not: { $contains: 'a' } } })).toEqual({
      kind: 'not',
      child: cmp('title', 'contains', 'a'),
    });
  });

  it('applies $or on an attribute to that attribute', () => {
    expect(normalize({ views: { $or: [{ $lt: '1' }, { $gt: '9' }] } })).toEqual({
      kind: 'or',
      children: [cmp('views', 'lt', 1), cmp('views', 'gt', 9)],
    });
  });

  it('rejects a non-object condition inside $or', () => {
    const error = validationError(() => normalize({ $or: ['title'] }));
    expect(error.message).toMatch(/^Invalid filter: expected an object of conditions/);
  });
});

describe('normalizeFilters: value casting', () => {
  it.each([
    [{ views: '5' }, cmp('views', 'eq', 5)],
    [{ views: 7 }, cmp('views', 'eq', 7)],
    [{ views: { $gt: ' 5 ' } }, cmp('views', 'gt', 5)],
    [{ price: '1.5' }, cmp('price', 'eq', 1.5)],
    [{ bigcount: '9007199254740993' }, cmp('bigcount', 'eq', 9007199254740993n)],
    [{ bigcount: '-9223372036854775808' }, cmp('bigcount', 'eq', -9223372036854775808n)],
    [{ views: '-9007199254740991' }, cmp('views', 'eq', -9007199254740991)],
    [{ views: '1e3' }, cmp('views', 'eq', 1000)],
    [{ isFeatured: 't' }, cmp('isFeatured', 'eq', true)],
    [{ isFeatured: '1' }, cmp('isFeatured', 'eq', true)],
    [{ isFeatured: 'true' }, cmp('isFeatured', 'eq', true)],
    [{ isFeatured: true }, cmp('isFeatured', 'eq', true)],
    [{ isFeatured: 'f' }, cmp('isFeatured', 'eq', false)],
    [{ isFeatured: '0' }, cmp('isFeatured', 'eq', false)],
    [{ isFeatured: 'false' }, cmp('isFeatured', 'eq', false)],
    [{ title: { $null: 'false' } }, cmp('title', 'null', false)],
    [{ title: { $null: 'f' } }, cmp('title', 'null', false)],
    [{ title: { $null: '1' } }, cmp('title', 'null', true)],
    [{ views: { $notNull: 'false' } }, cmp('views', 'notNull', false)],
    [{ publishDate: '2024-05-17' }, cmp('publishDate', 'eq', '2024-05-17')],
    [{ startTime: '13:45:00' }, cmp('startTime', 'eq', '13:45:00.000')],
    [{ happenedAt: '2024-05-17T10:00:00+02:00' }, cmp('happenedAt', 'eq', new Date('2024-05-17T08:00:00.000Z'))],
  ])('%j', (raw, expected) => {
    expect(normalize(raw)).toEqual(expected);
  });

  it.each([
    [{ views: { $contains: '5' } }, cmp('views', 'contains', '5')],
    [{ views: { $startsWith: 12 } }, cmp('views', 'startsWith', '12')],
    [{ publishDate: { $startsWith: '2024-13' } }, cmp('publishDate', 'startsWith', '2024-13')],
    [{ isFeatured: { $containsi: 'T' } }, cmp('isFeatured', 'containsi', 'T')],
    [{ title: { $endsWithi: '%_' } }, cmp('title', 'endsWithi', '%_')],
  ])('LIKE operators keep the text (%j)', (raw, expected) => {
    expect(normalize(raw)).toEqual(expected);
  });

  it.each([
    [{ views: 'abc' }],
    [{ views: '' }],
    [{ views: { $in: ['1', 'x'] } }],
    [{ price: { $lt: 'cheap' } }],
    [{ bigcount: '12ab' }],
    [{ id: 'abc' }],
    // Integers PostgreSQL could not read or JavaScript could not hold exactly.
    [{ views: '1.5' }],
    [{ views: { $lt: '2.5' } }],
    [{ views: '1e30' }],
    [{ views: '9007199254740992' }],
    [{ id: { $in: ['1', '1.5'] } }],
    [{ bigcount: '9223372036854775808' }],
    [{ bigcount: '-9223372036854775809' }],
    [{ bigcount: '1.5' }],
    [{ price: '1e400' }],
  ])('rejects an uncastable number (%j)', (raw) => {
    const error = validationError(() => normalize(raw));
    expect(error.details).toMatchObject({ source: 'query', param: 'filters' });
  });

  it('names the field and the expected form for an uncastable integer', () => {
    const error = validationError(() => normalize({ views: 'abc' }));
    expect(error.message).toBe(
      'Invalid value "abc" for filter "views": expected an integer between -9007199254740991 and 9007199254740991',
    );
    expect(error.details).toEqual({ key: 'views', source: 'query', param: 'filters' });
  });

  it.each(['2024-13-45', '2024-02-30', 'yesterday'])('rejects the invalid date %s', (value) => {
    const error = validationError(() => normalize({ publishDate: value }));
    expect(error.message).toBe('Invalid format, expected yyyy-MM-dd');
  });

  it('rejects an invalid time', () => {
    const error = validationError(() => normalize({ startTime: '25:99' }));
    expect(error.message).toBe('Invalid time format, expected HH:mm:ss.SSS');
  });

  it('rejects an invalid datetime', () => {
    const error = validationError(() => normalize({ happenedAt: 'yesterday' }));
    expect(error.message).toBe('Invalid format, expected a timestamp or an ISO date');
  });
});

describe('normalizeFilters: relations and components', () => {
  it('nests conditions on a relation', () => {
    expect(normalize({ author: { name: { $eq: 'A' } } })).toEqual({
      kind: 'nested',
      attribute: 'author',
      child: cmp('name', 'eq', 'A'),
    });
  });

  it.each([
    [3, cmp('id', 'eq', 3)],
    ['3', cmp('id', 'eq', 3)],
    [['1', '2'], cmp('id', 'in', [1, 2])],
    [{ $in: ['1', '2'] }, cmp('id', 'in', [1, 2])],
    [{ $null: 'true' }, cmp('id', 'null', true)],
    [
      { $eq: '4', $not: { $eq: '5' } },
      { kind: 'and', children: [cmp('id', 'eq', 4), { kind: 'not', child: cmp('id', 'eq', 5) }] },
    ],
  ] as const)('compares a scalar or operator value on a relation to its id (%j)', (value, child) => {
    expect(normalize({ author: value })).toEqual({ kind: 'nested', attribute: 'author', child });
  });

  it('casts values with the target attribute types', () => {
    expect(normalize({ author: { age: { $gte: '18' } } })).toEqual({
      kind: 'nested',
      attribute: 'author',
      child: cmp('age', 'gte', 18),
    });
  });

  it('rejects mixing operators and attribute keys on a relation', () => {
    const error = validationError(() => normalize({ author: { $eq: '1', name: 'x' } }));
    expect(error.message).toMatch(
      /^Invalid filter at author: operators \(\$eq\) and attribute keys \(name\) cannot be mixed on a relation/,
    );
    expect(error.details).toEqual({ key: 'name', path: 'author', source: 'query', param: 'filters' });
  });

  it('reports an unknown key inside a relation with the relation path', () => {
    const error = validationError(() => normalize({ author: { nope: 'x' } }));
    expect(error.message).toBe('Invalid key nope at author');
    expect(error.details).toEqual({ key: 'nope', path: 'author', source: 'query', param: 'filters' });
  });

  it('reports a wrong operator deep inside a relation with the dotted path', () => {
    const error = validationError(() => normalize({ author: { name: { $EQ: 'x' } } }));
    expect(error.message).toBe('Invalid key $EQ at author.name');
    expect(error.details).toEqual({ key: '$EQ', path: 'author.name', source: 'query', param: 'filters' });
  });

  it('nests conditions on a component', () => {
    expect(normalize({ seo: { metaTitle: { $containsi: 'x' }, rating: '2' } })).toEqual({
      kind: 'nested',
      attribute: 'seo',
      child: { kind: 'and', children: [cmp('metaTitle', 'containsi', 'x'), cmp('rating', 'eq', 2)] },
    });
  });

  it('accepts logical groups inside a relation', () => {
    expect(normalize({ author: { $or: [{ name: 'a' }, { name: 'b' }] } })).toEqual({
      kind: 'nested',
      attribute: 'author',
      child: { kind: 'or', children: [cmp('name', 'eq', 'a'), cmp('name', 'eq', 'b')] },
    });
  });

  it('drops an empty nested condition', () => {
    expect(normalize({ author: {} })).toBeNull();
  });
});
