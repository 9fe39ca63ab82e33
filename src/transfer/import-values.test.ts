import { describe, expect, it } from 'vitest';
import type { ScalarAttribute } from '../schema/types.js';
import { importedValue } from './import-values.js';

const attribute = (type: ScalarAttribute['type'], extra: Partial<ScalarAttribute> = {}) =>
  ({ name: 'x', type, column: 'x', ...extra }) as ScalarAttribute;

describe('importedValue (an archive value against its attribute)', () => {
  it('keeps what Strapi exports, converted for the database', () => {
    expect(importedValue(attribute('date'), '2024-03-01')).toEqual({ ok: true, value: '2024-03-01' });
    expect(importedValue(attribute('time'), '12:34:56.000')).toEqual({ ok: true, value: '12:34:56.000' });
    expect(importedValue(attribute('datetime'), '2024-03-01T10:00:00.000Z')).toEqual({
      ok: true,
      value: new Date('2024-03-01T10:00:00.000Z'),
    });
    expect(importedValue(attribute('biginteger'), '9007199254740993')).toEqual({ ok: true, value: '9007199254740993' });
    expect(importedValue(attribute('boolean'), 1)).toEqual({ ok: true, value: true });
    expect(importedValue(attribute('enumeration', { enum: ['news', 'tech'] }), 'tech')).toEqual({
      ok: true,
      value: 'tech',
    });
    expect(importedValue(attribute('json'), { a: [1] })).toEqual({ ok: true, value: { a: [1] } });
  });

  it('gives a missing value its default, else null', () => {
    expect(importedValue(attribute('integer', { default: 0 }), undefined)).toEqual({ ok: true, value: 0 });
    expect(importedValue(attribute('string'), undefined)).toEqual({ ok: true, value: null });
    expect(importedValue(attribute('integer', { default: 5 }), null)).toEqual({ ok: true, value: null });
  });

  it('names what does not fit', () => {
    expect(importedValue(attribute('date'), 'not a date')).toEqual({
      ok: false,
      problem: '"not a date" is not a date (Invalid format, expected yyyy-MM-dd)',
    });
    expect(importedValue(attribute('enumeration', { enum: ['news', 'tech'] }), 'gossip')).toEqual({
      ok: false,
      problem: '"gossip" is not one of news, tech',
    });
    expect(importedValue(attribute('integer'), 1.5)).toMatchObject({ ok: false });
    expect(importedValue(attribute('integer'), 2 ** 40)).toMatchObject({ ok: false });
    expect(importedValue(attribute('biginteger'), '1e3')).toMatchObject({ ok: false });
    expect(importedValue(attribute('float'), 'abc')).toEqual({ ok: false, problem: '"abc" is not a number' });
    expect(importedValue(attribute('string'), { a: 1 })).toEqual({ ok: false, problem: '{"a":1} is not a string' });
    expect(importedValue(attribute('boolean'), 'yes')).toMatchObject({ ok: false });
  });
});
