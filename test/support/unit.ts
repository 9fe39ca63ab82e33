import { expect } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import type { RawAttribute, RawComponent, RawContentType } from '../../src/schema/raw-types.js';

/** A raw `collectionType` definition for buildSchema in unit tests. */
export function rawCollectionType(
  uid: string,
  singular: string,
  plural: string,
  attributes: Record<string, RawAttribute>,
  extra: Record<string, unknown> = {},
): RawContentType {
  return {
    uid,
    file: `${singular}.json`,
    origin: 'api',
    definition: {
      kind: 'collectionType',
      collectionName: plural,
      info: { singularName: singular, pluralName: plural },
      attributes,
      ...extra,
    },
  };
}

/** A raw component definition (`<category>.<name>`) for buildSchema in unit tests. */
export function rawComponent(
  uid: string,
  collectionName: string,
  attributes: Record<string, RawAttribute>,
): RawComponent {
  return { uid, category: uid.split('.')[0] ?? uid, file: `${uid}.json`, definition: { collectionName, attributes } };
}

/** Runs `fn`, which must throw a ValidationError, and returns that error. */
export function validationError(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError, nothing was thrown');
}
