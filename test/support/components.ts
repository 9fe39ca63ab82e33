import { expect } from 'vitest';
import { fileEntry } from './files.js';
import { errorBody, type Step } from './scenario.js';
import { DOC } from './shapes.js';

/* Expected answers and queries for component, dynamic-zone and media writes on the blog example. */

/** Populates an article's seo component and blocks dynamic zone with everything one level inside. */
export const POP_ALL = 'populate[seo][populate]=*&populate[blocks][populate]=*';

/** One validation error, as Strapi's envelope carries it. */
export function oneError(path: string[], message: string, value?: unknown): unknown {
  return errorBody(400, 'ValidationError', message, {
    errors: [{ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }],
  });
}

/** A type error whose message text was not recorded (Strapi prints the value oddly): path and value only. */
export function typeError(path: string[], value: unknown): unknown {
  return {
    data: null,
    error: {
      status: 400,
      name: 'ValidationError',
      message: expect.stringContaining(path.join('.')),
      details: { errors: [{ path, value, name: 'ValidationError', message: expect.any(String) }] },
    },
  };
}

/** Strapi's 400 for an attribute the component (at `path`) does not have. */
export const invalidBodyKey = (key: string, path: string) =>
  errorBody(400, 'ValidationError', `Invalid key ${key} at ${path}`, { key, path, source: 'body' });

/** Strapi's 400 for an article whose seo component lacks its required metaTitle. */
export const missingMetaTitle = oneError(
  ['seo', 'metaTitle'],
  'seo.metaTitle must be a `string` type, but the final value was: `null`.',
  null,
);

/** Strapi's 400 for a media id that names no file (matched: details not recorded). */
export const mediaMissing = {
  data: null,
  error: {
    status: 400,
    name: 'ValidationError',
    message: '1 relation(s) of type plugin::upload.file associated with this entity do not exist',
  },
};

/** A POST of article `data` refused with exactly `expected` (400). */
export const refusedCreate = (name: string, data: Record<string, unknown>, expected: unknown): Step => ({
  name,
  method: 'POST',
  path: '/api/articles',
  body: { data },
  status: 400,
  equal: expected,
});

/** Strapi's 400 for a component id that is not one of this document's `attribute` components (message and status only). */
export const notRelated = (attribute: string) => ({
  data: null,
  error: { status: 400, message: `Some of the provided components in ${attribute} are not related to the entity` },
});

/** A populated file with every key, as `insertFile(server, name)` stores it; its id was saved as `vars[idVar]`. */
export const storedFile = (idVar: string, name: string) => fileEntry(name, { id: `{{${idVar}}}`, documentId: DOC });

/** A file populated with `fields[0]=name`. */
export const namedFile = (idVar: string, name: string) => ({ id: `{{${idVar}}}`, documentId: DOC, name });
