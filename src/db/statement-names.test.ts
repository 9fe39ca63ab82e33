import { describe, expect, it } from 'vitest';
import { statementNamer } from './statement-names.js';

describe('statementNamer', () => {
  it('names a text the second time it runs, and keeps that name', () => {
    const name = statementNamer(10);
    expect(name('select 1')).toBeUndefined();
    expect(name('select 1')).toBe('cairn_1');
    expect(name('select 1')).toBe('cairn_1');
    expect(name('select 2')).toBeUndefined();
    expect(name('select 2')).toBe('cairn_2');
  });

  it('never names more than the limit; later texts stay unnamed', () => {
    const name = statementNamer(2);
    for (const sql of ['a', 'a', 'b', 'b']) name(sql);
    expect(name('a')).toBe('cairn_1');
    expect(name('b')).toBe('cairn_2');
    expect(name('c')).toBeUndefined();
    expect(name('c')).toBeUndefined();
  });
});
