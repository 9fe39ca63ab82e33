import { describe, expect, it } from 'vitest';
import { literalKey } from './literal-key.js';

describe('literalKey', () => {
  it('writes names as JSON string literals, __proto__ computed', () => {
    expect(literalKey('title')).toBe('"title"');
    expect(literalKey('a"b\\c\nd')).toBe('"a\\"b\\\\c\\nd"');
    expect(literalKey('__proto__')).toBe('["__proto__"]');
  });

  it('gives keys that make own properties holding exactly the names given', () => {
    const names = ['title', '}); throw 1; ({', '__proto__', 'constructor'];
    const make = new Function('v', `return { ${names.map((name, i) => `${literalKey(name)}: v[${i}]`).join(', ')} };`);
    const made = make([1, 2, 3, 4]) as Record<string, unknown>;
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(made)).toEqual(names);
    expect(names.map((name) => Object.getOwnPropertyDescriptor(made, name)?.value)).toEqual([1, 2, 3, 4]);
  });
});
