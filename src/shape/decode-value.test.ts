import { describe, expect, it } from 'vitest';
import { decodeValue } from './decode-value.js';

describe('decodeValue(datetime)', () => {
  it.each<[string, unknown, string | null]>([
    ['epoch milliseconds (SQLite)', 1_715_953_500_000, '2024-05-17T13:45:00.000Z'],
    ['epoch milliseconds as text', '1715953500000', '2024-05-17T13:45:00.000Z'],
    ['a Date (PostgreSQL, MySQL)', new Date('2024-05-17T13:45:00.123Z'), '2024-05-17T13:45:00.123Z'],
    ['an ISO string', '2024-05-17T13:45:00.000Z', '2024-05-17T13:45:00.000Z'],
    ['beyond what a Date holds', 8.64e15 + 1, null],
    ['text that is no date', 'soon', null],
    ['null', null, null],
  ])('%s', (_name, value, expected) => {
    expect(decodeValue('datetime', value)).toBe(expected);
  });
});
