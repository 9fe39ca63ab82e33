import type { Executor } from '../db/database.js';
import { simpleSelect } from '../plan/simple-plans.js';
import { INTERNAL_MODEL_TABLES } from '../schema/core-tables.js';
import { relationLink } from '../schema/links.js';
import { modelTables } from '../schema/tables.js';
import type { Model, Schema } from '../schema/types.js';
import { compileDelete } from '../sql/compile-write.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { STORE as CORE_STORE_TABLE } from '../db/core-store.js';
import { WEBHOOKS as WEBHOOKS_TABLE } from '../webhooks/webhook-store.js';
import { isTransferredType, type TransferScope } from './transfer-scope.js';

/** Content types whose rows make a database "hold content": the project's own, the media library and the users. */
function isContentType(uid: string): boolean {
  return uid.startsWith('api::') || uid === 'plugin::upload.file' || uid === 'plugin::users-permissions.user';
}

/** Rows per content type that an import would delete (the project's types, files and users only), for the `--force` check. */
export async function countContent(exec: Executor, dialect: Dialect, schema: Schema): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const type of schema.contentTypes.values()) {
    if (!isContentType(type.uid)) continue;
    const plan = simpleSelect(type.table, { n: ['id', 'integer', 'count'] });
    const [row] = await exec.all(compileSelect(dialect, plan));
    const count = Number(row?.n ?? 0);
    if (count > 0) counts.set(type.uid, count);
  }
  return counts;
}

/**
 * The tables an import empties before it writes, in an order foreign keys accept (links, then
 * component links, then components, then content types), as Strapi's restore strategy clears its
 * destination: with `content`, every transferred content type (all but the admin's and content
 * releases), every component, the link tables touching them and, with `config` too, Strapi's
 * internal models (content history, AI jobs); with `config`, the core store and the webhooks.
 */
export function tablesToClear(schema: Schema, scope: TransferScope): string[] {
  const links: string[] = [];
  const componentLinks: string[] = [];
  const rows: string[] = [];
  if (scope.content) {
    const cleared = new Set<string>([
      ...[...schema.contentTypes.keys()].filter(isTransferredType),
      ...schema.components.keys(),
    ]);
    const models: Model[] = [...schema.contentTypes.values(), ...schema.components.values()];
    for (const model of models) {
      const tables = modelTables(schema, model);
      if (cleared.has(model.uid)) {
        links.push(...tables.links.map((link) => link.name));
        if (tables.componentLinks) componentLinks.push(tables.componentLinks.name);
        rows.push(tables.table.name);
        continue;
      }
      // A kept model's link table pointing at a cleared type (its rows would point at nothing).
      for (const attribute of model.attributes.values()) {
        if (attribute.type !== 'relation' || attribute.target === undefined || !cleared.has(attribute.target)) continue;
        const link = relationLink(schema, model, attribute);
        if (link?.kind === 'joinTable' && link.owner) links.push(link.table);
      }
    }
    rows.sort((a, b) => Number(isComponentTable(schema, b)) - Number(isComponentTable(schema, a)));
    if (scope.config) {
      rows.push(
        ...INTERNAL_MODEL_TABLES.map((table) => table.name).filter(
          (name) => name !== CORE_STORE_TABLE && name !== WEBHOOKS_TABLE,
        ),
      );
    }
  }
  if (scope.config) rows.push(CORE_STORE_TABLE, WEBHOOKS_TABLE);
  return [...new Set([...links, ...componentLinks, ...rows])];
}

function isComponentTable(schema: Schema, table: string): boolean {
  return [...schema.components.values()].some((component) => component.table === table);
}

/** Deletes every row of the tables (one statement each). */
export async function clearTables(exec: Executor, dialect: Dialect, tables: readonly string[]): Promise<void> {
  for (const table of tables) await exec.run(compileDelete(dialect, { table, where: { kind: 'true' } }));
}
