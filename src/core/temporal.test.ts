import { describe, it, expect } from 'vitest';
import { ValidationError } from './errors.js';
import { parseDateOnly, parseDateTime, parseTimeOfDay } from './temporal.js';
import { validationError } from '../../test/support/unit.js';

const DATE_MESSAGE = 'Invalid format, expected yyyy-MM-dd';
const TIME_MESSAGE = 'Invalid time format, expected HH:mm:ss.SSS';
const DATETIME_MESSAGE = 'Invalid format, expected a timestamp or an ISO date';
const RANGE_MESSAGE = 'Invalid date, expected a year from 0001 to 9999';

describe('parseDateOnly', () => {
  it.each([
    ['2024-05-17', '2024-05-17'],
    [' 2024-05-17 ', '2024-05-17'],
    ['2024-05-17T10:00:00Z', '2024-05-17'],
    ['2024-05-17T10:00:00.123Z', '2024-05-17'],
    ['2024-05-17T23:30:00-02:00', '2024-05-18'],
    ['2024-05-17T01:00:00+02:00', '2024-05-16'],
    ['2024-02-29', '2024-02-29'],
    ['2000-02-29', '2000-02-29'],
    ['2024-12-31', '2024-12-31'],
  ])('%j → %j', (input, expected) => {
    expect(parseDateOnly(input)).toBe(expected);
  });

  it('accepts a valid Date (UTC date)', () => {
    expect(parseDateOnly(new Date('2024-05-17T22:00:00-05:00'))).toBe('2024-05-18');
  });

  it.each([
    ['2024-13-45'],
    ['2024-02-30'],
    ['2023-02-29'],
    ['1900-02-29'],
    ['2024-04-31'],
    ['2024-00-10'],
    ['2024-01-00'],
    ['2024-5-17'],
    ['17/05/2024'],
    ['yesterday'],
    [''],
    ['2024-05-17T25:00:00Z'],
    [20240517],
    [null],
    [undefined],
    [new Date('nope')],
  ])('rejects %j', (input) => {
    const error = validationError(() => parseDateOnly(input));
    expect(error.message).toBe(DATE_MESSAGE);
    expect(error.details).toEqual({});
  });
});

describe('parseTimeOfDay', () => {
  it.each([
    ['13:45:00', '13:45:00.000'],
    ['23:59:59.5', '23:59:59.500'],
    ['23:59:59.05', '23:59:59.050'],
    ['00:00:00.123', '00:00:00.123'],
    ['09:30:15', '09:30:15.000'],
  ])('%j → %j', (input, expected) => {
    expect(parseTimeOfDay(input)).toBe(expected);
  });

  it.each([
    ['09:30'],
    ['25:99'],
    ['24:00:00'],
    ['12:60:00'],
    ['12:00:60'],
    ['9:30:00'],
    ['12:00:00.1234'],
    ['12:00:00.'],
    [' 12:00:00'],
    ['abc'],
    [''],
    [930],
    [null],
  ])('rejects %j', (input) => {
    const error = validationError(() => parseTimeOfDay(input));
    expect(error.message).toBe(TIME_MESSAGE);
    expect(error.details).toEqual({});
  });
});

describe('parseDateTime', () => {
  it.each([
    ['2024-05-17T10:00:00+02:00', '2024-05-17T08:00:00.000Z'],
    ['2024-05-17T10:00:00-0530', '2024-05-17T15:30:00.000Z'],
    ['2024-05-17T10:00:00+02', '2024-05-17T08:00:00.000Z'],
    ['2024-05-17T10:00:00Z', '2024-05-17T10:00:00.000Z'],
    ['2024-05-17T10:00:00', '2024-05-17T10:00:00.000Z'],
    ['2024-05-17 10:00:00', '2024-05-17T10:00:00.000Z'],
    ['2024-05-17T10:00', '2024-05-17T10:00:00.000Z'],
    ['2024-05-17T10:00:00.5Z', '2024-05-17T10:00:00.500Z'],
    ['2024-05-17T10:00:00.123456789Z', '2024-05-17T10:00:00.123Z'],
    ['2024-05-17', '2024-05-17T00:00:00.000Z'],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
    ['1715940000000', '2024-05-17T10:00:00.000Z'],
    [' 1715940000000 ', '2024-05-17T10:00:00.000Z'],
    ['0', '1970-01-01T00:00:00.000Z'],
    ['-1000', '1969-12-31T23:59:59.000Z'],
    [1715940000000, '2024-05-17T10:00:00.000Z'],
    [0, '1970-01-01T00:00:00.000Z'],
  ])('%j → %s', (input, expected) => {
    const date = parseDateTime(input);
    expect(date).toBeInstanceOf(Date);
    expect(date.toISOString()).toBe(expected);
  });

  it('returns a valid Date as is', () => {
    const date = new Date('2024-05-17T10:00:00Z');
    expect(parseDateTime(date)).toBe(date);
  });

  it.each([
    ['yesterday'],
    ['2024-02-30'],
    ['2024-02-30T10:00:00Z'],
    ['2023-02-29T00:00:00Z'],
    ['2024-13-01T00:00:00Z'],
    ['2024-05-17T24:00:00Z'],
    ['2024-05-17T10:60:00Z'],
    ['2024-05-17T10:00:60Z'],
    ['2024-05-17T10:00:00+2'],
    ['17 May 2024'],
    [''],
    ['1.5'],
    [NaN],
    [Infinity],
    ['99999999999999999999'],
    [new Date('nope')],
    [null],
    [undefined],
    [true],
    [{}],
  ])('rejects %j', (input) => {
    const error = validationError(() => parseDateTime(input));
    expect(error.message).toBe(DATETIME_MESSAGE);
    expect(error.details).toEqual({});
  });
});

describe('years outside 0001–9999 (what every database stores)', () => {
  it.each([
    () => parseDateOnly('0000-01-01'),
    () => parseDateOnly('0001-01-01T00:30:00+01:00'),
    () => parseDateOnly(new Date(Date.UTC(10000, 0, 1))),
    () => parseDateTime('0000-12-31T23:59:59Z'),
    () => parseDateTime(8.64e15),
    () => parseDateTime('8640000000000000'),
    () => parseDateTime(-62198755200001),
    () => parseDateTime(new Date(-8.64e15)),
  ])('rejects case %#', (parse) => {
    const error = validationError(parse);
    expect(error.message).toBe(RANGE_MESSAGE);
    expect(error.details).toEqual({});
  });

  it.each([
    [() => parseDateOnly('0001-01-01'), '0001-01-01'],
    [() => parseDateOnly('9999-12-31'), '9999-12-31'],
    [() => parseDateTime('9999-12-31T23:59:59.999Z').toISOString(), '9999-12-31T23:59:59.999Z'],
    [() => parseDateTime('0001-01-01T00:00:00Z').toISOString(), '0001-01-01T00:00:00.000Z'],
  ])('accepts the edges (case %#)', (parse, expected) => {
    expect(parse()).toBe(expected);
  });
});
