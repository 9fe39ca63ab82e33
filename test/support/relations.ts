import { expect } from 'vitest';
import { errorBody, type Step } from './scenario.js';
import { ID } from './shapes.js';

/*
 * Builders for relation answers and for the GET / PUT steps that read or write one document's
 * relations (any content type).
 */

/** A populated relation target as Strapi answers it: id, documentId `{{documentVar}}` and the selected fields. */
export const ref = (documentVar: string, fields: Record<string, unknown>) => ({
  id: ID,
  documentId: `{{${documentVar}}}`,
  ...fields,
});

/** A target whose `name` is the variable holding its documentId (tags t1 … t5, categories root, a, b): `ref(variable, { name: variable })`. */
export const nameRef = (variable: string) => ref(variable, { name: variable });

/** `nameRef` of each variable, in order: a to-many list of name-as-variable targets. */
export const nameRefs = (...variables: string[]) => variables.map(nameRef);

/** `{ data: { id, documentId: {{documentVar}}, ...fields }, meta: {} }`: one document as answered. */
export const one = (documentVar: string, fields: Record<string, unknown>) => ({
  data: ref(documentVar, fields),
  meta: {},
});

/** The answer to a create: any documentId (save it from the step). */
export const created = (fields: Record<string, unknown>) => ({
  data: { id: ID, documentId: expect.any(String), ...fields },
  meta: {},
});

/** Strapi's 400 for a relation target that does not exist (or is of another content type). */
export const notFoundDocument = (documentId: string) =>
  errorBody(400, 'ValidationError', `Document with id "${documentId}", locale "null" not found`, {});

/** Names of a to-many populated list, in order (from `name`, `label`, `title` or `heading`). */
export const names = (items: { name?: string; label?: string; title?: string; heading?: string }[]) =>
  items.map((item) => item.name ?? item.label ?? item.title ?? item.heading);

/** Prefix of a query reading or writing the draft version. */
export const DRAFT = 'status=draft&';

/**
 * Step builders for one document `{{variable}}` at `/api/<plural>/{{variable}}?<query>`: each
 * answers 200 with exactly `one(variable, expected)`.
 */
export function documentAt(plural: string, variable: string) {
  const path = (query: string) => `/api/${plural}/{{${variable}}}?${query}`;
  return {
    /** GET the document. */
    get: (name: string, query: string, expected: Record<string, unknown>): Step => ({
      name,
      path: path(query),
      status: 200,
      equal: one(variable, expected),
    }),
    /** PUT `{ data }` on the document. */
    put: (name: string, query: string, data: Record<string, unknown>, expected: Record<string, unknown>): Step => ({
      name,
      method: 'PUT',
      path: path(query),
      body: { data },
      status: 200,
      equal: one(variable, expected),
    }),
  };
}
