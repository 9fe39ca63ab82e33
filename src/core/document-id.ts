import { init } from '@paralleldrive/cuid2';

/**
 * cuid2's generator, made by the first id: making it hashes a fingerprint of the process (SHA-3
 * and a base-36 conversion through bignumber.js, a few milliseconds), which a server that starts
 * and only reads never needs.
 */
let createCuid: (() => string) | undefined;

/** A new document id: 24 lowercase alphanumerics, cuid2-style, as Strapi 5 generates them. */
export function createDocumentId(): string {
  createCuid ??= init({ length: 24 });
  return createCuid();
}
