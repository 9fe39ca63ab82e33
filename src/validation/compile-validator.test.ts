import { describe, it, expect } from 'vitest';
import { ValidationError, type FieldError } from '../core/errors.js';
import { buildSchema } from '../schema/build-schema.js';
import type { ContentType } from '../schema/types.js';
import { compileValidator, type ValidationMode } from './compile-validator.js';

const schema = buildSchema(
  [
    {
      uid: 'api::article.article',
      file: 'article.json',
      origin: 'api',
      definition: {
        kind: 'collectionType',
        collectionName: 'articles',
        info: { singularName: 'article', pluralName: 'articles' },
        attributes: {
          title: { type: 'string', required: true, maxLength: 120 },
          name: { type: 'string', required: true },
          summary: { type: 'text', minLength: 3 },
          views: { type: 'integer', min: 0, max: 1000 },
          price: { type: 'float' },
          category: { type: 'enumeration', enum: ['news', 'tech', 'life'] },
          status: { type: 'enumeration', enum: ['draft', 'final'], required: true },
          contactEmail: { type: 'email' },
          isFeatured: { type: 'boolean' },
          bigcount: { type: 'biginteger', min: '-5', max: '9000000000000000000' },
          slug: { type: 'uid' },
          code: { type: 'string', regex: '^[A-Z]+$' },
          meta: { type: 'json', required: true },
          publishDate: { type: 'date' },
          internal: { type: 'string', writable: false },
          author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
        },
      },
    },
    {
      uid: 'api::author.author',
      file: 'author.json',
      origin: 'api',
      definition: {
        kind: 'collectionType',
        collectionName: 'authors',
        info: { singularName: 'author', pluralName: 'authors' },
        attributes: { name: { type: 'string' } },
      },
    },
  ],
  [],
);
const validate = compileValidator(schema.contentTypes.get('api::article.article') as ContentType);

const CREATE: ValidationMode = { creating: true, draft: false };
const UPDATE: ValidationMode = { creating: false, draft: false };
const DRAFT_CREATE: ValidationMode = { creating: true, draft: true };

/** Valid values for every required attribute. */
const base = { title: 'Hello', name: 'N', status: 'draft', meta: {} };

function errorsOf(
  data: Record<string, unknown>,
  mode: ValidationMode = UPDATE,
): { message: string; errors: FieldError[] } {
  try {
    validate(data, mode);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const { message, details } = error as ValidationError;
    return { message, errors: (details as { errors: FieldError[] }).errors };
  }
  throw new Error('expected a ValidationError, nothing was thrown');
}

/** Expects exactly one error and returns it. */
function onlyError(data: Record<string, unknown>, mode: ValidationMode = UPDATE): FieldError {
  const { message, errors } = errorsOf(data, mode);
  expect(errors).toHaveLength(1);
  const [error] = errors as [FieldError];
  expect(message).toBe(error.message);
  expect(error.name).toBe('ValidationError');
  return error;
}

describe('compileValidator: required attributes', () => {
  it('requires a missing required attribute on create, without a value key', () => {
    const { name: _omitted, ...data } = base;
    const error = onlyError(data, CREATE);
    expect(error).toEqual({ path: ['name'], message: 'name must be defined.', name: 'ValidationError' });
    expect('value' in error).toBe(false);
  });

  it('does not require missing attributes on update', () => {
    expect(validate({ views: 3 }, UPDATE)).toEqual({ views: 3 });
  });

  it.each([[CREATE], [UPDATE]])('rejects null on a required string (%j)', (mode) => {
    const error = onlyError({ ...base, title: null }, mode);
    expect(error).toEqual({
      path: ['title'],
      message: 'title must be a `string` type, but the final value was: `null`.',
      name: 'ValidationError',
      value: null,
    });
  });

  it('rejects null on a required enumeration as a string type error', () => {
    expect(onlyError({ ...base, status: null }).message).toBe(
      'status must be a `string` type, but the final value was: `null`.',
    );
  });

  it('rejects null on a required untyped attribute (json) as not defined, with value null', () => {
    expect(onlyError({ ...base, meta: null })).toEqual({
      path: ['meta'],
      message: 'meta must be defined.',
      name: 'ValidationError',
      value: null,
    });
  });

  it('skips required checks for drafts', () => {
    expect(validate({}, DRAFT_CREATE)).toEqual({});
    expect(validate({ title: null, meta: null }, DRAFT_CREATE)).toEqual({ title: null, meta: null });
  });

  it('still checks the other rules for drafts', () => {
    expect(onlyError({ title: 'x'.repeat(121) }, DRAFT_CREATE).message).toBe('title must be at most 120 characters');
  });

  it('keeps null for optional attributes', () => {
    expect(validate({ views: null, category: null, isFeatured: null }, UPDATE)).toEqual({
      views: null,
      category: null,
      isFeatured: null,
    });
  });

  it('lists every missing required attribute in attribute order', () => {
    const { message, errors } = errorsOf({}, CREATE);
    expect(message).toBe('4 errors occurred');
    expect(errors.map((e) => e.path[0])).toEqual(['title', 'name', 'status', 'meta']);
    expect(errors.every((e) => e.message === `${e.path[0]} must be defined.`)).toBe(true);
  });
});

describe('compileValidator: accepted values', () => {
  it.each([
    [{ title: 'x'.repeat(120) }, { title: 'x'.repeat(120) }],
    [{ summary: 'abc' }, { summary: 'abc' }],
    [{ views: '42' }, { views: 42 }],
    [{ views: ' 4 2 ' }, { views: 42 }],
    [{ views: 0 }, { views: 0 }],
    [{ views: 1000 }, { views: 1000 }],
    [{ views: '1e3' }, { views: 1000 }],
    [{ price: '3.5' }, { price: 3.5 }],
    [{ category: 'tech' }, { category: 'tech' }],
    [{ contactEmail: 'x@y.com' }, { contactEmail: 'x@y.com' }],
    [{ contactEmail: '' }, { contactEmail: '' }],
    [{ isFeatured: true }, { isFeatured: true }],
    [{ isFeatured: 'true' }, { isFeatured: true }],
    [{ isFeatured: 'TRUE' }, { isFeatured: true }],
    [{ isFeatured: '1' }, { isFeatured: true }],
    [{ isFeatured: 1 }, { isFeatured: true }],
    [{ isFeatured: 'false' }, { isFeatured: false }],
    [{ isFeatured: '0' }, { isFeatured: false }],
    [{ isFeatured: 0 }, { isFeatured: false }],
    [{ bigcount: 77 }, { bigcount: '77' }],
    [{ bigcount: ' 123 ' }, { bigcount: '123' }],
    [{ bigcount: '8999999999999999999' }, { bigcount: '8999999999999999999' }],
    [{ slug: 'my-slug_1.0~x' }, { slug: 'my-slug_1.0~x' }],
    [{ slug: '' }, { slug: '' }],
    [{ code: 'ABC' }, { code: 'ABC' }],
    [{ code: '' }, { code: '' }],
    [{ meta: { any: ['thing'] } }, { meta: { any: ['thing'] } }],
    [{ publishDate: 'not checked here' }, { publishDate: 'not checked here' }],
  ])('%j → %j', (data, expected) => {
    expect(validate(data, UPDATE)).toEqual(expected);
  });

  it('returns only writable scalar attributes', () => {
    expect(validate({ ...base, internal: 'x', author: 1, createdAt: 'now', unknown: 1 }, CREATE)).toEqual(base);
  });
});

describe('compileValidator: rejected values', () => {
  it.each([
    [{ title: 'x'.repeat(121) }, 'title must be at most 120 characters', 'x'.repeat(121)],
    [{ summary: 'ab' }, 'summary must be at least 3 characters', 'ab'],
    [{ title: 5 }, 'title must be a `string` type, but the final value was: `5`.', 5],
    [
      { views: 'abc' },
      'views must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).',
      NaN,
    ],
    [{ views: '' }, 'views must be a `number` type, but the final value was: `NaN` (cast from the value `""`).', NaN],
    [{ views: 3.7 }, 'views must be an integer', 3.7],
    [{ views: '3.7' }, 'views must be an integer', 3.7],
    [{ views: -1 }, 'views must be greater than or equal to 0', -1],
    [{ views: '1001' }, 'views must be less than or equal to 1000', 1001],
    [{ category: 'sport' }, 'category must be one of the following values: news, tech, life, ', 'sport'],
    [{ status: 'other' }, 'status must be one of the following values: draft, final', 'other'],
    [{ contactEmail: 'a@b' }, 'contactEmail must be a valid email', 'a@b'],
    [{ contactEmail: 'not an email' }, 'contactEmail must be a valid email', 'not an email'],
    [{ isFeatured: 'maybe' }, 'isFeatured must be a `boolean` type, but the final value was: `"maybe"`.', 'maybe'],
    [{ bigcount: '12ab' }, 'bigcount must be a valid integer', '12ab'],
    [{ bigcount: 1.5 }, 'bigcount must be a valid integer', 1.5],
    [{ bigcount: '-6' }, 'bigcount must be greater than or equal to -5', '-6'],
    [
      { bigcount: '9000000000000000001' },
      'bigcount must be less than or equal to 9000000000000000000',
      '9000000000000000001',
    ],
    [
      { bigcount: '9223372036854775808' },
      'bigcount must be between -9223372036854775808 and 9223372036854775807',
      '9223372036854775808',
    ],
    [{ slug: 'has spaces!' }, 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', 'has spaces!'],
    [{ code: 'abc' }, 'code must match the following: "/^[A-Z]+$/"', 'abc'],
  ])('%j → %s', (data, message, value) => {
    const error = onlyError(data);
    expect(error).toEqual({ path: [Object.keys(data)[0]], message, name: 'ValidationError', value });
  });

  it('reports several errors in attribute order with "N errors occurred"', () => {
    const { message, errors } = errorsOf(
      { slug: 'bad slug', views: 'abc', title: 'x'.repeat(200), isFeatured: 'maybe', name: null, meta: {} },
      CREATE,
    );
    expect(message).toBe('6 errors occurred');
    expect(errors.map((e) => e.path)).toEqual([['title'], ['name'], ['views'], ['status'], ['isFeatured'], ['slug']]);
    expect(errors.map((e) => e.message)).toEqual([
      'title must be at most 120 characters',
      'name must be a `string` type, but the final value was: `null`.',
      'views must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).',
      'status must be defined.',
      'isFeatured must be a `boolean` type, but the final value was: `"maybe"`.',
      'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"',
    ]);
  });

  it('uses the single error message when there is exactly one error', () => {
    const { message } = errorsOf({ views: -1 });
    expect(message).toBe('views must be greater than or equal to 0');
  });
});
