import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import { buildSchema } from '../schema/build-schema.js';
import type { RawAttribute } from '../schema/raw-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import { rawCollectionType } from '../../test/support/unit.js';
import { expandDeepPopulate, MAX_DEEP_POPULATE_NODES } from './expand-deep-populate.js';
import type { PopulateNode } from './populate-types.js';

/** Ten types, each with a one-way relation to every other: the widest graph a depth can meet. */
const TYPES = Array.from({ length: 10 }, (_, i) => `t${i}`);
const uid = (name: string) => `api::${name}.${name}`;
const schema: Schema = buildSchema(
  [
    ...BUILTIN_CONTENT_TYPES,
    ...TYPES.map((name) =>
      rawCollectionType(uid(name), name, `${name}s`, {
        title: { type: 'string' },
        ...Object.fromEntries(
          TYPES.filter((other) => other !== name).map((other): [string, RawAttribute] => [
            other,
            { type: 'relation', relation: 'oneToOne', target: uid(other) },
          ]),
        ),
        image: { type: 'media', multiple: false },
      }),
    ),
  ],
  [],
);
const t0 = schema.contentTypes.get(uid('t0')) as ContentType;

/** Populate nodes in the tree, a dynamic zone counting one per component. */
function size(nodes: readonly PopulateNode[]): number {
  return nodes.reduce(
    (sum, node) =>
      sum +
      (node.kind === 'dynamiczone'
        ? [...node.fragments.values()].reduce((inner, fragment) => inner + 1 + size(fragment.populate), 0)
        : 1 + size(node.populate)),
    0,
  );
}

describe('expandDeepPopulate', () => {
  it('depth 1 is the document alone, depth 2 its attributes, media a leaf', () => {
    expect(expandDeepPopulate(schema, t0, 1)).toEqual([]);
    const two = expandDeepPopulate(schema, t0, 2);
    expect(two.map((node) => node.attribute)).toEqual([...TYPES.slice(1), 'image']);
    expect(two.every((node) => node.kind !== 'dynamiczone' && node.populate.length === 0)).toBe(true);
  });

  it('leaves out relations to types already on the path', () => {
    const three = expandDeepPopulate(schema, t0, 3);
    const t1 = three.find((node) => node.attribute === 't1');
    expect(t1?.kind !== 'dynamiczone' && t1?.populate.map((node) => node.attribute)).toEqual([
      ...TYPES.slice(2),
      'image',
    ]);
    // 9 relations + image, then under each relation 8 relations + image
    expect(size(three)).toBe(10 + 9 * 9);
  });

  it(`refuses a tree of more than ${MAX_DEEP_POPULATE_NODES} nodes with a 400`, () => {
    expect(size(expandDeepPopulate(schema, t0, 4))).toBe(10 + 9 * 9 + 9 * 8 * 8);
    const refusal = (() => {
      try {
        expandDeepPopulate(schema, t0, 5);
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ValidationError);
    expect((refusal as ValidationError).message).toBe(
      'Invalid populate: a deep populate of depth 5 reads more than 1000 relations, components and media; ask for a smaller depth',
    );
  });
});
