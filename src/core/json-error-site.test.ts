import { describe, expect, it } from 'vitest';
import { jsonErrorSite } from './json-error-site.js';

const parseError = (text: string): unknown => {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error('parsed');
};

describe('jsonErrorSite', () => {
  it('turns the position of a JSON.parse error into line:column', () => {
    const text = '{\n  "a": 1,\n  oops\n}';
    expect(jsonErrorSite(text, parseError(text))).toBe('3:3');
  });
  it('is null for an error that names no position', () => {
    expect(jsonErrorSite('{', new Error('the file must contain a JSON object'))).toBeNull();
  });
});
