import type { KnexWrites } from '../db/knex-connection.js';
import { EVERY_DOCUMENT, type ChangeBus } from '../events/change-bus.js';
import { getModel, type Schema } from '../schema/types.js';
import { afterOwnRowsWritten, HELD_TYPES, type CairnCaches } from './own-type-writes.js';

/** What the knex write notices are built from. */
export interface KnexWritesDeps {
  readonly schema: Schema;
  readonly changes: ChangeBus;
  readonly now: () => Date;
  /** What Cairn holds of its own types' rows (roles, tokens, webhooks, settings…), to read again. */
  readonly caches: CairnCaches;
}

/**
 * What committed writes through `strapi.db.connection` tell Cairn (db/knex-connection.ts), which
 * cannot know what SQL it did not write changed: every content type is taken as changed, one
 * `rowLevel` change of EVERY_DOCUMENT each (REST's cache and ETags drop what they kept, realtime
 * streams send `reset`, other instances hear of it; no webhook goes out, as Strapi sends none for
 * knex), and what Cairn holds of its own types (roles, permissions, tokens, webhooks, settings) is
 * read again when a statement names their tables.
 */
export function knexWriteNotices(deps: KnexWritesDeps): KnexWrites {
  const held = HELD_TYPES.flatMap((uid) => {
    const table = getModel(deps.schema, uid)?.table;
    return table ? [{ uid, table }] : [];
  });
  return async (statements) => {
    for (const { uid, table } of held)
      if (statements.some((sql) => sql.includes(table)))
        await afterOwnRowsWritten(deps.caches, { uid, kind: 'update', ids: [] });
    const at = deps.now();
    for (const type of deps.schema.contentTypes.values())
      deps.changes.publish({
        subject: 'document',
        kind: 'update',
        type,
        documentId: EVERY_DOCUMENT,
        locale: null,
        published: true,
        at,
        rowLevel: true,
      });
  };
}
