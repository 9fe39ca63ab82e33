import { describe, expect, it } from 'vitest';
import { isQueryInteger, queryBigInt, queryNumber } from './query-numbers.js';

describe('queryNumber', () => {
  it.each([
    ['25', 25],
    [' 7 ', 7],
    ['1e3', 1000],
    ['0x10', 16],
    [12, 12],
    ['1e40', 1e40],
  ] as const)('%j → %d', (input, expected) => {
    expect(queryNumber(input)).toBe(expected);
  });

  it.each([[''], [' '], ['abc'], [null], [undefined], [['1']], [{ a: 1 }], [true]])('%j → NaN', (input) => {
    expect(queryNumber(input)).toBeNaN();
  });
});

describe('isQueryInteger', () => {
  it.each([
    [0, true],
    [-5, true],
    [Number.MAX_SAFE_INTEGER, true],
    [-Number.MAX_SAFE_INTEGER, true],
    [Number.MAX_SAFE_INTEGER + 1, false],
    [1e40, false],
    [1.5, false],
    [NaN, false],
    [Infinity, false],
  ] as const)('%d → %s', (input, expected) => {
    expect(isQueryInteger(input)).toBe(expected);
  });
});

describe('queryBigInt', () => {
  it.each([
    ['42', 42n],
    [' -9223372036854775808 ', -9223372036854775808n],
    ['9223372036854775807', 9223372036854775807n],
    [12, 12n],
  ] as const)('%j → %s', (input, expected) => {
    expect(queryBigInt(input)).toBe(expected);
  });

  it.each([
    ['9223372036854775808'],
    ['-9223372036854775809'],
    ['1.5'],
    ['1e3'],
    [''],
    [1e21],
    [null],
    ['12345678901234567890123'],
  ])('%j → null', (input) => {
    expect(queryBigInt(input)).toBeNull();
  });
});
