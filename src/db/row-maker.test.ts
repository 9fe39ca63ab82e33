import { describe, expect, it } from 'vitest';
import { rowMaker } from './row-maker.js';

describe('rowMaker', () => {
  it('makes the columns’ values an object keyed by their names, in column order', () => {
    const make = rowMaker(['id', 'title', 'published_at']);
    const row = make([7, 'A "quoted" title', null]);
    expect(row).toEqual({ id: 7, title: 'A "quoted" title', published_at: null });
    expect(Object.keys(row)).toEqual(['id', 'title', 'published_at']);
  });

  it('keeps the last value of a name given twice, at its first place, as better-sqlite3 does', () => {
    const row = rowMaker(['a', 'b', 'a'])([1, 2, 3]);
    expect(row).toEqual({ a: 3, b: 2 });
    expect(Object.keys(row)).toEqual(['a', 'b']);
  });

  it('writes any name as data: quotes, backslashes, newlines, code, __proto__', () => {
    const names = ['x"y', 'back\\slash', 'line\nbreak', '}); throw 1; ({', '__proto__', 'constructor', '0'];
    const row = rowMaker(names)([1, 2, 3, 4, 5, 6, 7]);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(5);
    for (const [index, name] of names.entries())
      expect(Object.getOwnPropertyDescriptor(row, name)?.value).toBe(index + 1);
  });
});
