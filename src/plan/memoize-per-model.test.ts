import { describe, expect, it } from 'vitest';
import type { Model } from '../schema/types.js';
import { boundedCachePerModel } from './memoize-per-model.js';

const modelA = { uid: 'api::a.a' } as unknown as Model;
const modelB = { uid: 'api::b.b' } as unknown as Model;

describe('boundedCachePerModel', () => {
  it('builds each key once per model and freezes it, up to the bound; past it, builds a fresh unfrozen value each time', () => {
    let built = 0;
    const cached = boundedCachePerModel<Model, string[]>(2);
    const build = (key: string) => () => {
      built++;
      return [key];
    };
    const first = cached(modelA, 'x', build('x'));
    expect(cached(modelA, 'x', build('x'))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(cached(modelA, 'y', build('y'))).toEqual(['y']);
    expect(built).toBe(2);
    // A third key of the same model is over the bound: built every time, never frozen, never kept.
    const over = cached(modelA, 'z', build('z'));
    expect(over).toEqual(['z']);
    expect(Object.isFrozen(over)).toBe(false);
    expect(cached(modelA, 'z', build('z'))).not.toBe(over);
    expect(built).toBe(4);
    // The bound is per model.
    expect(Object.isFrozen(cached(modelB, 'z', build('z')))).toBe(true);
  });

  it('freezes with the given function', () => {
    const cached = boundedCachePerModel<Model, { list: string[] }>(1, (value) =>
      Object.freeze({ list: Object.freeze([...value.list]) as string[] }),
    );
    const value = cached(modelA, 'k', () => ({ list: ['a'] }));
    expect(Object.isFrozen(value.list)).toBe(true);
    expect(Object.isFrozen(cached(modelA, 'other', () => ({ list: ['b'] })).list)).toBe(false);
  });
});
