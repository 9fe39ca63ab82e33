import { describe, expect, it } from 'vitest';
import { isoFromEpochMs } from './iso-datetime.js';

const LAST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

describe('isoFromEpochMs', () => {
  it.each([
    0,
    -1,
    1,
    86_399_999,
    86_400_000,
    951_782_400_000,
    951_868_799_999,
    1_715_953_500_000,
    4_102_444_800_000,
    -62_135_596_800_000,
    LAST,
  ])('writes %d as toISOString does', (ms) => {
    expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
  });

  it('agrees with toISOString on 200,000 instants across years 0000–9999 and around every leap day', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const FIRST_MS = new Date('0000-01-01T00:00:00.000Z').getTime();
    for (let i = 0; i < 200_000; i++) {
      const ms = Math.floor(FIRST_MS + random() * (LAST - FIRST_MS));
      expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
    }
    for (let year = 1600; year <= 2400; year += 4) {
      for (const ms of [Date.UTC(year, 1, 28, 23, 59, 59, 999), Date.UTC(year, 1, 29), Date.UTC(year, 2, 1)]) {
        expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
      }
    }
  });

  it('leaves years outside 0000–9999 to Date (signed six-digit years)', () => {
    expect(isoFromEpochMs(LAST + 1)).toBe('+010000-01-01T00:00:00.000Z');
    expect(isoFromEpochMs(-62_167_219_200_001)).toBe(new Date(-62_167_219_200_001).toISOString());
  });
});
