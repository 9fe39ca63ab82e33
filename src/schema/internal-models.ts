import { buildSchema } from './build-schema.js';
import type { RawComponent } from './raw-types.js';
import type { Component } from './types.js';

/*
 * Strapi's models that are neither content types nor components but that its Query Engine reads
 * and writes all the same (`strapi.db.query('strapi::core-store')`, `'strapi::webhook'`): a
 * table, an `id` and plain attributes, as Strapi's core declares them (core-store.ts and
 * webhook-store.ts in @strapi/core). Their tables are created with the others (core-tables.ts
 * INTERNAL_MODEL_TABLES, the same columns).
 */

const internal = (uid: string, table: string, attributes: RawComponent['definition']['attributes']): RawComponent => ({
  uid,
  category: 'strapi',
  file: `<built-in ${uid}>`,
  definition: { collectionName: table, info: { displayName: table }, attributes },
});

const INTERNAL: readonly RawComponent[] = [
  internal('strapi::core-store', 'strapi_core_store_settings', {
    key: { type: 'string' },
    value: { type: 'text' },
    type: { type: 'string' },
    environment: { type: 'string' },
    tag: { type: 'string' },
  }),
  internal('strapi::webhook', 'strapi_webhooks', {
    name: { type: 'string' },
    url: { type: 'text' },
    headers: { type: 'json' },
    events: { type: 'json' },
    enabled: { type: 'boolean' },
  }),
];

/**
 * Strapi's internal models by uid, built as components are: like a component's, their rows have
 * no `documentId`, no timestamps and no draft or locale, which is all the Query Engine needs to
 * know of them. They are never part of the project's Schema (no route, no admin view).
 */
export function internalModels(): ReadonlyMap<string, Component> {
  return buildSchema([], INTERNAL).components;
}
