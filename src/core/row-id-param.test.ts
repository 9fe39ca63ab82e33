import { describe, expect, it } from 'vitest';
import { rowIdParam } from './row-id-param.js';

describe('rowIdParam', () => {
  it.each([
    ['12', 12],
    ['012', 12],
    ['2147483647', 2147483647],
    ['2147483648', null],
    ['999999999999999', null],
    ['abc', null],
    ['-1', null],
    ['1.5', null],
    ['', null],
    [undefined, null],
  ])('%s → %s', (value, expected) => {
    expect(rowIdParam(value)).toBe(expected);
  });
});
