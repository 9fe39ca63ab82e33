import type { KnexWrites } from '../db/knex-connection.js';
import { EVERY_DOCUMENT, type ChangeBus } from '../events/change-bus.js';
import { getModel, type Schema } from '../schema/types.js';

/** What the knex write notices are built from. */
export interface KnexWritesDeps {
  readonly schema: Schema;
  readonly changes: ChangeBus;
  readonly now: () => Date;
  /** Reads the users-permissions roles and permissions the access checks use again. */
  readonly reloadRoles: () => Promise<void>;
  /** The uids of the types whose rows `reloadRoles` reads. */
  readonly roleTypes: ReadonlySet<string>;
}

/**
 * What committed writes through `strapi.db.connection` tell Cairn (db/knex-connection.ts), which
 * cannot know what SQL it did not write changed: every content type is taken as changed, one
 * `rowLevel` change of EVERY_DOCUMENT each (REST's cache and ETags drop what they kept, realtime
 * streams send `reset`, other instances hear of it; no webhook goes out, as Strapi sends none for
 * knex), and the roles and permissions are read again when a statement names their tables.
 */
export function knexWriteNotices(deps: KnexWritesDeps): KnexWrites {
  const roleTables = [...deps.roleTypes].flatMap((uid) => getModel(deps.schema, uid)?.table ?? []);
  return async (statements) => {
    if (statements.some((sql) => roleTables.some((table) => sql.includes(table)))) await deps.reloadRoles();
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
