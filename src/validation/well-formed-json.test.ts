import { describe, expect, it } from 'vitest';
import { wellFormedJson } from './well-formed-json.js';

describe('wellFormedJson', () => {
  it('replaces lone surrogates in strings and keys with U+FFFD', () => {
    expect(wellFormedJson({ a: 'x\ud800', '\udc00': ['\udbff', 1, null] })).toEqual({
      a: 'x\ufffd',
      '\ufffd': ['\ufffd', 1, null],
    });
  });

  it('keeps valid surrogate pairs and returns an untouched value as is', () => {
    const value = { emoji: '\ud83d\ude00', list: ['plain', 2, true] };
    expect(wellFormedJson(value)).toBe(value);
  });

  it.each([[1], [null], ['text'], [[]]])('leaves %j alone', (value) => {
    expect(wellFormedJson(value)).toBe(value);
  });
});
