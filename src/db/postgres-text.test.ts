import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import { checkPostgresText } from './postgres-text.js';

describe('checkPostgresText', () => {
  it('accepts parameters without NUL, whatever their type', () => {
    expect(() => checkPostgresText(['text', 1, null, true, '{"k":"\\\\u0000"}', 5n])).not.toThrow();
  });

  it.each([['a\u0000b'], ['{"k":"x\u0000"}'], ['\u0000']])('refuses %j with a 400', (param) => {
    expect(() => checkPostgresText(['ok', param])).toThrow(ValidationError);
  });
});
