import { describe, expect, it } from 'vitest';
import { validationError } from '../../test/support/unit.js';
import { parseMediaInput } from './media-input.js';

describe('parseMediaInput: accepted values', () => {
  it.each<[string, boolean, unknown, number[]]>([
    ['a file id (single)', false, 7, [7]],
    ['a digit string (single)', false, '7', [7]],
    ['{ id } (single)', false, { id: 7 }, [7]],
    ['{ id } with a digit string (single)', false, { id: '7' }, [7]],
    ['an array of one (single)', false, [7], [7]],
    ['null (single)', false, null, []],
    ['an empty array (single)', false, [], []],
    ['a file id (multiple)', true, 3, [3]],
    ['an array of ids (multiple)', true, [3, 1, 2], [3, 1, 2]],
    ['mixed forms (multiple)', true, [3, '4', { id: 5 }, { id: '6' }], [3, 4, 5, 6]],
    ['null (multiple)', true, null, []],
    ['an empty array (multiple)', true, [], []],
  ])('%s', (_name, multiple, value, expected) => {
    expect(parseMediaInput('gallery', multiple, value)).toEqual(expected);
  });

  it('removes duplicates, keeping the first occurrence in order', () => {
    expect(parseMediaInput('gallery', true, [3, 1, 3, '1', { id: 2 }, 2])).toEqual([3, 1, 2]);
  });

  it('a single media attribute given the same file twice holds that file', () => {
    expect(parseMediaInput('cover', false, [7, '7'])).toEqual([7]);
  });
});

describe('parseMediaInput: rejected values', () => {
  it.each([['0'], ['00'], ['99999999999999999999']])('the digit string %s is not a file id', (value) => {
    const error = validationError(() => parseMediaInput('cover', false, value));
    expect(error.message.startsWith('Invalid media value for cover: ')).toBe(true);
  });

  it('a single media attribute takes one file', () => {
    const error = validationError(() => parseMediaInput('cover', false, [1, 2]));
    expect(error.message.startsWith('Invalid media value for cover: ')).toBe(true);
  });

  it.each<[string, unknown]>([
    ['zero', 0],
    ['a negative id', -2],
    ['a fractional id', 1.5],
    ['an unsafe integer', 2 ** 53],
    ['a non-digit string', 'abc'],
    ['an empty string', ''],
    ['a signed digit string', '-1'],
    ['true', true],
    ['an empty object', {}],
    ['an object without id', { documentId: 'abc' }],
    ['{ id: 0 }', { id: 0 }],
    ['{ id } with a non-digit string', { id: 'x' }],
    ['{ id: null }', { id: null }],
    ['a nested array', [[1]]],
    ['a bad item among good ones', [1, 'x']],
    ['a null item', [null]],
  ])('%s', (_name, value) => {
    for (const multiple of [false, true]) {
      const error = validationError(() => parseMediaInput('seo.shareImage', multiple, value));
      expect(error.message.startsWith('Invalid media value for seo.shareImage: ')).toBe(true);
    }
  });
});
