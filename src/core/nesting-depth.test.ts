import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, MAX_JSON_DEPTH, pathBeyondDepth, printDepthPath } from './nesting-depth.js';

const nested = (depth: number): unknown => JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

describe('pathBeyondDepth', () => {
  it.each([
    [1, 0, null],
    ['x', 0, null],
    [null, 0, null],
    [[], 0, []],
    [[], 1, null],
    [{ a: [[1]] }, 3, null],
    [{ a: [[1]] }, 2, ['a', '0']],
    [{ a: 1, b: { c: {} } }, 3, null],
    [{ a: 1, b: { c: {} } }, 2, ['b', 'c']],
    [{ a: 1, b: { c: {} } }, 1, ['b']],
  ] as const)('%j with limit %d → %j', (value, limit, expected) => {
    expect(pathBeyondDepth(value, limit)).toEqual(expected);
  });

  it('measures values far deeper than the stack allows without recursing into them', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(pathBeyondDepth(deep, MAX_BODY_DEPTH)).toHaveLength(MAX_BODY_DEPTH);
  });

  it('accepts a value exactly MAX_JSON_DEPTH deep', () => {
    expect(pathBeyondDepth(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBeNull();
    expect(pathBeyondDepth(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toEqual(Array(MAX_JSON_DEPTH).fill('a'));
  });
});

describe('printDepthPath', () => {
  it('shows the first six segments', () => {
    expect(printDepthPath(['data', 'meta'])).toBe('data.meta');
    expect(printDepthPath(['data', 'meta', 'a', 'a', 'a', 'a', 'a', 'a'])).toBe('data.meta.a.a.a.a…');
  });
});
