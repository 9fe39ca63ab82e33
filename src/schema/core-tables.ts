import type { ColumnSpec, ColumnType, TableSpec } from './table-spec.js';

const column = (
  name: string,
  type: ColumnType,
  options: { unsigned?: boolean; notNullable?: boolean } = {},
): ColumnSpec => ({
  name,
  type,
  unsigned: options.unsigned ?? false,
  ...(options.notNullable ? { notNullable: true } : {}),
});
const required = { notNullable: true };

/** `created_by_id` → admin_users, as Strapi's internal models declare their creator. */
function creatorKeys(table: string): Pick<TableSpec, 'indexes' | 'foreignKeys'> {
  const name = `${table}_created_by_id_fk`;
  return {
    indexes: [{ name, columns: ['created_by_id'], unique: false }],
    foreignKeys: [
      {
        name,
        columns: ['created_by_id'],
        referencedTable: 'admin_users',
        referencedColumns: ['id'],
        onDelete: 'SET NULL',
      },
    ],
  };
}

/**
 * Strapi 5.54's models that are not content types (`strapi.get('models')`): the core store, the
 * webhooks, the content manager's history and the AI jobs of the upload and i18n plugins, in
 * Strapi's order. Cairn uses the first two; it creates the others so that Strapi finds its layout.
 */
export const INTERNAL_MODEL_TABLES: readonly TableSpec[] = [
  {
    name: 'strapi_core_store_settings',
    columns: [
      column('id', 'increments'),
      column('key', 'string'),
      column('value', 'text'),
      column('type', 'string'),
      column('environment', 'string'),
      column('tag', 'string'),
    ],
    indexes: [],
    foreignKeys: [],
  },
  {
    name: 'strapi_webhooks',
    columns: [
      column('id', 'increments'),
      column('name', 'string'),
      column('url', 'text'),
      column('headers', 'jsonb'),
      column('events', 'jsonb'),
      column('enabled', 'boolean'),
    ],
    indexes: [],
    foreignKeys: [],
  },
  {
    name: 'strapi_history_versions',
    columns: [
      column('id', 'increments'),
      column('content_type', 'string', required),
      column('related_document_id', 'string'),
      column('locale', 'string'),
      column('status', 'string'),
      column('data', 'jsonb'),
      column('schema', 'jsonb'),
      column('created_at', 'datetime'),
      column('created_by_id', 'integer', { unsigned: true }),
    ],
    ...creatorKeys('strapi_history_versions'),
  },
  {
    name: 'strapi_ai_metadata_jobs',
    columns: [
      column('id', 'increments'),
      column('status', 'string', required),
      column('created_at', 'datetime'),
      column('completed_at', 'datetime'),
    ],
    indexes: [],
    foreignKeys: [],
  },
  {
    name: 'strapi_ai_localization_jobs',
    columns: [
      column('id', 'increments'),
      column('content_type', 'string', required),
      column('related_document_id', 'string', required),
      column('source_locale', 'string', required),
      column('target_locales', 'jsonb', required),
      column('status', 'string', required),
      column('created_at', 'datetime'),
      column('updated_at', 'datetime'),
    ],
    indexes: [],
    foreignKeys: [],
  },
];

/** Strapi's own record of what ran: `(id, name, time)`, one row per migration. */
const migrationsTable = (name: string): TableSpec => ({
  name,
  columns: [column('id', 'increments'), column('name', 'string'), column('time', 'datetime')],
  indexes: [],
  foreignKeys: [],
});

/**
 * The bookkeeping tables a Strapi start reads before anything else (see strapi-bookkeeping.ts):
 * the project's migrations, Strapi's internal migrations, and the last schema it synced with its
 * hash. Strapi keeps them out of the schema it records (they are its reserved tables).
 */
export const BOOKKEEPING_TABLES: readonly TableSpec[] = [
  migrationsTable('strapi_migrations'),
  migrationsTable('strapi_migrations_internal'),
  {
    name: 'strapi_database_schema',
    columns: [
      column('id', 'increments'),
      column('schema', 'json'),
      column('time', 'datetime'),
      column('hash', 'string'),
    ],
    indexes: [],
    foreignKeys: [],
  },
];

/**
 * Cairn's webhook delivery queue and log (Strapi has none: it sends once and forgets). In the
 * content database, except on a SQLite file, where it has a file of its own (webhooks/queue-database.ts).
 */
export const WEBHOOK_DELIVERIES_TABLE: TableSpec = {
  name: 'cairn_webhook_deliveries',
  columns: [
    column('id', 'increments'),
    column('webhook_id', 'integer'),
    column('webhook_name', 'string'),
    column('url', 'text'),
    column('event', 'string'),
    column('payload', 'text'),
    column('status', 'string'),
    column('attempts', 'integer'),
    column('next_attempt_at', 'datetime'),
    column('last_status', 'integer'),
    column('last_error', 'text'),
    column('created_at', 'datetime'),
    column('updated_at', 'datetime'),
    column('delivered_at', 'datetime'),
  ],
  indexes: [{ name: 'cairn_webhook_deliveries_due_idx', columns: ['status', 'next_attempt_at'], unique: false }],
  foreignKeys: [],
};
