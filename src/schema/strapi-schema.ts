import { createHash } from 'node:crypto';
import { INTERNAL_MODEL_TABLES } from './core-tables.js';
import type { ColumnSpec, ColumnType, ForeignKeySpec, IndexSpec, TableSpec } from './table-spec.js';
import { modelTables } from './tables.js';
import type { Model, Schema } from './types.js';

/**
 * The database schema as Strapi 5.54 records it in `strapi_database_schema` after a start (its
 * `metadataToSchema` output) and the hash it compares at the next start. When the hash Strapi
 * computes from the project equals the stored one, it skips its schema diff entirely; otherwise it
 * diffs the database against its models, treating the stored schema as what it tracked before.
 *
 *   { tables: [{ name, indexes: [{ name, columns, type? }], foreignKeys: [{ name, columns, … }],
 *                columns: [{ name, type, args, defaultTo, notNullable, unsigned }] }] }
 *
 * Tables come in Strapi's order: each model's `_cmps` table then its own table (content types in
 * the registry's order, then components), Strapi's internal models, then the link tables in the
 * order their relations are declared. Cairn's own tables and indexes are left out.
 */
export interface StrapiSchemaRecord {
  /** `JSON.stringify` of the schema, as Strapi stores it. */
  readonly json: string;
  /** sha256 (hex) of the schema with its tables sorted by name, as Strapi computes it. */
  readonly hash: string;
}

/** Where Strapi 5.54's registry lists the built-in content types: plugins before the project's, admin after. */
export const PLUGIN_TYPES_FIRST: readonly string[] = [
  'plugin::upload.file',
  'plugin::upload.folder',
  'plugin::i18n.locale',
  'plugin::content-releases.release',
  'plugin::content-releases.release-action',
  'plugin::review-workflows.workflow',
  'plugin::review-workflows.workflow-stage',
  'plugin::users-permissions.permission',
  'plugin::users-permissions.role',
  'plugin::users-permissions.user',
];
/** Where Strapi 5.54's registry lists the admin's own content types: after the project's. */
export const ADMIN_TYPES_LAST: readonly string[] = [
  'admin::permission',
  'admin::user',
  'admin::role',
  'admin::api-token',
  'admin::api-token-permission',
  'admin::transfer-token',
  'admin::transfer-token-permission',
  'admin::session',
];

/** Builds the schema Strapi 5.54 would record for this content model, and its hash. */
export function strapiSchemaRecord(schema: Schema): StrapiSchemaRecord {
  const models = strapiModelOrder(schema);
  const tables: StrapiTable[] = [];
  const links: StrapiTable[] = [];
  for (const model of models) {
    const { componentLinks, table, links: owned } = modelTables(schema, model);
    if (componentLinks) tables.push(strapiTable(componentLinks));
    tables.push(strapiTable(table));
    links.push(...owned.map(strapiTable));
  }
  tables.push(...INTERNAL_MODEL_TABLES.map(strapiTable), ...links);
  const sorted = [...tables].sort((a, b) => a.name.localeCompare(b.name));
  return {
    json: JSON.stringify({ tables }),
    hash: createHash('sha256')
      .update(JSON.stringify({ tables: sorted }))
      .digest('hex'),
  };
}

/** Models in the order Strapi 5.54's registry lists them: plugin types, the project's, admin types, then components. */
export function strapiModelOrder(schema: Schema): Model[] {
  const types = [...schema.contentTypes.values()];
  const known = new Set([...PLUGIN_TYPES_FIRST, ...ADMIN_TYPES_LAST]);
  const pick = (uids: readonly string[]) => uids.flatMap((uid) => schema.contentTypes.get(uid) ?? []);
  return [
    ...pick(PLUGIN_TYPES_FIRST),
    ...types.filter((type) => !known.has(type.uid)),
    ...pick(ADMIN_TYPES_LAST),
    ...schema.components.values(),
  ];
}

interface StrapiColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly args: readonly unknown[];
  readonly defaultTo: null;
  readonly notNullable: boolean;
  readonly unsigned: boolean;
}
type StrapiIndex = { readonly name: string; readonly columns: readonly string[]; readonly type?: 'unique' | null };
interface StrapiTable {
  readonly name: string;
  readonly indexes: readonly StrapiIndex[];
  readonly foreignKeys: readonly Record<string, unknown>[];
  readonly columns: readonly StrapiColumn[];
}

function strapiTable(table: TableSpec): StrapiTable {
  return {
    name: table.name,
    indexes: table.indexes.filter((index) => !index.cairnOnly).map(strapiIndex),
    foreignKeys: table.foreignKeys.map(strapiForeignKey),
    columns: table.columns.map(strapiColumn),
  };
}

/** The knex arguments Strapi's `getColumnType` gives each type. */
const DATETIME_ARGS = [{ useTz: false, precision: 6 }];
const COLUMN_ARGS: Partial<Record<ColumnType, readonly unknown[]>> = {
  increments: [{ primary: true, primaryKey: true }],
  text: ['longtext'],
  decimal: [10, 2],
  time: [{ precision: 3 }],
  datetime: DATETIME_ARGS,
  timestamp: DATETIME_ARGS,
};

function strapiColumn(column: ColumnSpec): StrapiColumn {
  return {
    name: column.name,
    type: column.type,
    args: COLUMN_ARGS[column.type] ?? [],
    defaultTo: null,
    notNullable: column.type === 'increments' || column.notNullable === true,
    unsigned: column.unsigned,
  };
}

function strapiIndex(index: IndexSpec): StrapiIndex {
  if (index.unique) return { name: index.name, columns: index.columns, type: 'unique' };
  return index.typeNull
    ? { name: index.name, columns: index.columns, type: null }
    : { name: index.name, columns: index.columns };
}

/**
 * Key order matters to the hash: a join column's key (always `SET NULL`) is written `referencedTable`
 * first, a link table's (always `CASCADE`) `referencedColumns` first — as Strapi builds each.
 */
function strapiForeignKey(fk: ForeignKeySpec): Record<string, unknown> {
  if (fk.onDelete === 'SET NULL') {
    return {
      name: fk.name,
      columns: fk.columns,
      referencedTable: fk.referencedTable,
      referencedColumns: fk.referencedColumns,
      onDelete: fk.onDelete,
    };
  }
  return {
    name: fk.name,
    columns: fk.columns,
    referencedColumns: fk.referencedColumns,
    referencedTable: fk.referencedTable,
    onDelete: fk.onDelete,
  };
}
