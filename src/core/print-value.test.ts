import { describe, it, expect } from 'vitest';
import { printValue } from './print-value.js';

describe('printValue: simple values', () => {
  it.each([
    ['abc', '"abc"'],
    ['', '""'],
    ['say "hi"', '"say "hi""'],
    [NaN, 'NaN'],
    [-0, '-0'],
    [0, '0'],
    [42, '42'],
    [-3.5, '-3.5'],
    [Infinity, 'Infinity'],
    [null, 'null'],
    [undefined, 'undefined'],
    [true, 'true'],
    [false, 'false'],
    [12n, '12n'],
    [new Date('2024-05-17T10:00:00Z'), '2024-05-17T10:00:00.000Z'],
    [new Date('nope'), 'Invalid Date'],
    [/a+b/gi, '/a+b/gi'],
    [new Error('boom'), '[Error: boom]'],
    [new TypeError('bad'), '[TypeError: bad]'],
    [Symbol('s'), 'Symbol(s)'],
  ])('%s → %s', (value, expected) => {
    expect(printValue(value)).toBe(expected);
  });

  it('prints functions with their name', () => {
    function named() {}
    expect(printValue(named)).toBe('[Function named]');
    expect(printValue(Object.defineProperty(() => {}, 'name', { value: '' }))).toBe('[Function anonymous]');
  });

  it('leaves strings unquoted when asked', () => {
    expect(printValue('abc', false)).toBe('abc');
    expect(printValue(5, false)).toBe('5');
  });
});

describe('printValue: objects and arrays', () => {
  it.each([
    [{ x: 1 }, '{\n  "x": "1"\n}'],
    [{}, '{}'],
    [[], '[]'],
    [[1, 2], '[\n  "1",\n  "2"\n]'],
    [{ a: 's' }, '{\n  "a": "\\"s\\""\n}'],
    [{ a: null, b: true, c: NaN, d: -0 }, '{\n  "a": "null",\n  "b": "true",\n  "c": "NaN",\n  "d": "-0"\n}'],
    [{ a: { b: [1, 'x'] } }, '{\n  "a": {\n    "b": [\n      "1",\n      "\\"x\\""\n    ]\n  }\n}'],
    [{ when: new Date('2024-05-17T10:00:00Z') }, '{\n  "when": "2024-05-17T10:00:00.000Z"\n}'],
  ])('%j', (value, expected) => {
    expect(printValue(value)).toBe(expected);
  });

  it('prints object leaves unquoted when strings are not quoted', () => {
    expect(printValue({ a: 's', n: 1 }, false)).toBe('{\n  "a": "s",\n  "n": "1"\n}');
  });

  it('prints undefined leaves (which JSON would drop) as "undefined"', () => {
    expect(printValue({ a: undefined })).toBe('{\n  "a": "undefined"\n}');
  });
});
