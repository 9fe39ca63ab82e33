import { describe, it, expect } from 'vitest';
import { PaginationError, ValidationError } from '../core/errors.js';
import { normalizePagination, type PaginationDefaults } from './normalize-pagination.js';

const defaults: PaginationDefaults = { defaultLimit: 25, maxLimit: 100, withCount: true };
const unlimited: PaginationDefaults = { defaultLimit: -1, maxLimit: null, withCount: true };

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error, nothing was thrown');
}

describe('normalizePagination: page mode', () => {
  it.each([
    [undefined, { mode: 'page', page: 1, pageSize: 25, withCount: true }],
    [{}, { mode: 'page', page: 1, pageSize: 25, withCount: true }],
    [
      { page: '2', pageSize: '3' },
      { mode: 'page', page: 2, pageSize: 3, withCount: true },
    ],
    [
      { page: 2, pageSize: 3 },
      { mode: 'page', page: 2, pageSize: 3, withCount: true },
    ],
    [{ page: '4' }, { mode: 'page', page: 4, pageSize: 25, withCount: true }],
    [{ pageSize: '10' }, { mode: 'page', page: 1, pageSize: 10, withCount: true }],
    // Clamping, without errors.
    [{ page: '0' }, { mode: 'page', page: 1, pageSize: 25, withCount: true }],
    [{ page: 0 }, { mode: 'page', page: 1, pageSize: 25, withCount: true }],
    [{ page: '-3' }, { mode: 'page', page: 1, pageSize: 25, withCount: true }],
    [{ pageSize: '0' }, { mode: 'page', page: 1, pageSize: 1, withCount: true }],
    [{ pageSize: 0 }, { mode: 'page', page: 1, pageSize: 1, withCount: true }],
    [{ pageSize: '-1' }, { mode: 'page', page: 1, pageSize: 1, withCount: true }],
    // maxLimit cap.
    [{ pageSize: '500' }, { mode: 'page', page: 1, pageSize: 100, withCount: true }],
    [{ pageSize: '100' }, { mode: 'page', page: 1, pageSize: 100, withCount: true }],
  ] as const)('%j → %j', (raw, expected) => {
    expect(normalizePagination(raw, defaults)).toEqual(expected);
  });

  it('does not cap without maxLimit', () => {
    expect(normalizePagination({ pageSize: '500' }, { ...defaults, maxLimit: null })).toEqual({
      mode: 'page',
      page: 1,
      pageSize: 500,
      withCount: true,
    });
  });

  it('caps the default limit too', () => {
    expect(normalizePagination(undefined, { defaultLimit: 200, maxLimit: 100, withCount: false })).toEqual({
      mode: 'page',
      page: 1,
      pageSize: 100,
      withCount: false,
    });
  });

  it.each([
    [{ page: 'abc' }, "Invalid parameter at 'start'. Expected integer >= 0, received: NaN"],
    [{ pageSize: 'abc' }, "Invalid parameter at 'limit'. Expected integer >= 1 or -1, received: NaN"],
    [{ pageSize: '1.5' }, "Invalid parameter at 'limit'. Expected integer >= 1 or -1, received: 1.5"],
    [{ page: '' }, "Invalid parameter at 'start'. Expected integer >= 0, received: NaN"],
    [{ page: '1.5' }, "Invalid parameter at 'start'. Expected integer >= 0, received: 12.5"],
  ])('rejects a non-integer page or pageSize (%j)', (raw, message) => {
    const error = thrown(() => normalizePagination(raw, defaults));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe(message);
  });
});

describe('normalizePagination: offset mode', () => {
  it.each([
    [{ start: '5' }, { mode: 'offset', start: 5, limit: 25, withCount: true }],
    [
      { start: '5', limit: '10' },
      { mode: 'offset', start: 5, limit: 10, withCount: true },
    ],
    [{ limit: '10' }, { mode: 'offset', start: 0, limit: 10, withCount: true }],
    [
      { start: 3, limit: 4 },
      { mode: 'offset', start: 3, limit: 4, withCount: true },
    ],
    // Clamping.
    [{ start: '-2' }, { mode: 'offset', start: 0, limit: 25, withCount: true }],
    [{ start: -2 }, { mode: 'offset', start: 0, limit: 25, withCount: true }],
    [{ limit: '0' }, { mode: 'offset', start: 0, limit: 1, withCount: true }],
    [{ limit: '-1' }, { mode: 'offset', start: 0, limit: 1, withCount: true }],
    // maxLimit cap.
    [{ limit: '500' }, { mode: 'offset', start: 0, limit: 100, withCount: true }],
  ] as const)('%j → %j', (raw, expected) => {
    expect(normalizePagination(raw, defaults)).toEqual(expected);
  });

  it.each([
    [{ start: 'abc' }, "Invalid parameter at 'start'. Expected integer >= 0, received: NaN"],
    [{ start: '1.5' }, "Invalid parameter at 'start'. Expected integer >= 0, received: 1.5"],
    [{ limit: 'abc' }, "Invalid parameter at 'limit'. Expected integer >= 1 or -1, received: NaN"],
    [{ limit: '2.5' }, "Invalid parameter at 'limit'. Expected integer >= 1 or -1, received: 2.5"],
  ])('rejects a non-integer start or limit (%j)', (raw, message) => {
    const error = thrown(() => normalizePagination(raw, defaults));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe(message);
  });
});

describe('normalizePagination: mixing and shape', () => {
  it.each([
    [{ page: '1', start: '0' }],
    [{ page: '1', limit: '10' }],
    [{ pageSize: '10', start: '0' }],
    [{ pageSize: '10', limit: '10' }],
  ])('rejects mixing page and offset keys (%j)', (raw) => {
    const error = thrown(() => normalizePagination(raw, defaults));
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.name).toBe('PaginationError');
    expect(error.message).toBe('Cannot use both page & offset pagination in the same query');
  });

  it.each([['5'], [null], [['1']], [3]])('rejects a non-object pagination parameter (%j)', (raw) => {
    const error = thrown(() => normalizePagination(raw, defaults));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe(
      'Invalid pagination parameter. Expected an object such as pagination[page]=1&pagination[pageSize]=10',
    );
  });
});

describe('normalizePagination: withCount', () => {
  it.each([
    ['t', true],
    ['1', true],
    ['true', true],
    [true, true],
    ['false', false],
    ['0', false],
    ['f', false],
    [false, false],
  ] as const)('withCount %j → %s', (withCount, expected) => {
    expect(normalizePagination({ withCount }, { ...defaults, withCount: !expected }).withCount).toBe(expected);
    expect(normalizePagination({ start: '0', withCount }, { ...defaults, withCount: !expected }).withCount).toBe(
      expected,
    );
  });

  it.each([[true], [false]])('defaults to the configured withCount (%s)', (configured) => {
    expect(normalizePagination(undefined, { ...defaults, withCount: configured }).withCount).toBe(configured);
  });

  it.each([['yes'], ['TRUE'], [''], [1], [['true']]])('rejects withCount %j', (withCount) => {
    const error = thrown(() => normalizePagination({ withCount }, defaults));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
  });
});

describe('normalizePagination: defaultLimit -1', () => {
  it.each([
    [undefined, { mode: 'all', withCount: true }],
    [{}, { mode: 'all', withCount: true }],
    [{ withCount: 'false' }, { mode: 'all', withCount: false }],
    [{ start: '5' }, { mode: 'offset', start: 5, limit: null, withCount: true }],
    [{ limit: '5' }, { mode: 'offset', start: 0, limit: 5, withCount: true }],
    [
      { page: '2', pageSize: '10' },
      { mode: 'page', page: 2, pageSize: 10, withCount: true },
    ],
    [{ page: '2' }, { mode: 'page', page: 2, pageSize: 25, withCount: true }],
  ] as const)('%j → %j', (raw, expected) => {
    expect(normalizePagination(raw, unlimited)).toEqual(expected);
  });
});

describe('normalizePagination: bounds (query-numbers.ts)', () => {
  const max = Number.MAX_SAFE_INTEGER;
  it.each([
    [
      { start: '1e40' },
      defaults,
      "Invalid parameter at 'start'. Expected integer between 0 and 9007199254740991, received: 1e+40",
    ],
    [
      { start: '100000000000000000000000' },
      defaults,
      "Invalid parameter at 'start'. Expected integer between 0 and 9007199254740991, received: 1e+23",
    ],
    [
      { start: '9007199254740992' },
      defaults,
      "Invalid parameter at 'start'. Expected integer between 0 and 9007199254740991, received: 9007199254740992",
    ],
    [
      { page: '1e40' },
      defaults,
      "Invalid parameter at 'page'. Expected integer between 1 and 360287970189640 (pageSize 25), received: 1e+40",
    ],
    [
      { page: '360287970189641' },
      defaults,
      "Invalid parameter at 'page'. Expected integer between 1 and 360287970189640 (pageSize 25), received: 360287970189641",
    ],
    [
      { pageSize: '1e40' },
      unlimited,
      "Invalid parameter at 'pageSize'. Expected integer between 1 and 9007199254740991, received: 1e+40",
    ],
    [
      { limit: '1e40' },
      unlimited,
      "Invalid parameter at 'limit'. Expected integer between 1 and 9007199254740991, received: 1e+40",
    ],
  ] as const)('rejects %j', (raw, options, message) => {
    const error = thrown(() => normalizePagination(raw, options));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe(message);
  });

  it.each([
    [{ start: String(max) }, { mode: 'offset', start: max, limit: 25, withCount: true }],
    [{ page: '360287970189640' }, { mode: 'page', page: 360287970189640, pageSize: 25, withCount: true }],
    // maxLimit caps a huge size before the bound, as Strapi caps it.
    [{ pageSize: '1e40' }, { mode: 'page', page: 1, pageSize: 100, withCount: true }],
    [{ limit: '100000000000000000000000' }, { mode: 'offset', start: 0, limit: 100, withCount: true }],
    // Huge negative values clamp like small ones.
    [{ start: '-1e40' }, { mode: 'offset', start: 0, limit: 25, withCount: true }],
    [{ page: '-1e40' }, { mode: 'page', page: 1, pageSize: 25, withCount: true }],
  ] as const)('accepts %j', (raw, expected) => {
    expect(normalizePagination(raw, defaults)).toEqual(expected);
  });
});
