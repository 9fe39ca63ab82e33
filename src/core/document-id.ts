import { init } from '@paralleldrive/cuid2';

const createCuid = init({ length: 24 });

/** A new document id: 24 lowercase alphanumerics, cuid2-style, as Strapi 5 generates them. */
export function createDocumentId(): string {
  return createCuid();
}
