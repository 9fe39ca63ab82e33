import { BOOKKEEPING_TABLES, INTERNAL_MODEL_TABLES, WEBHOOK_DELIVERIES_TABLE } from './core-tables.js';
import { relationLink } from './links.js';
import { identifier, snakeCase } from './naming.js';
import type { ColumnSpec, ColumnType, ForeignKeySpec, IndexSpec, TableSpec } from './table-spec.js';
import { isScalar, type ContentType, type Model, type ScalarType, type Schema } from './types.js';

export { WEBHOOK_DELIVERIES_TABLE } from './core-tables.js';

/**
 * Every table the content model needs, named and typed exactly as Strapi 5 creates them:
 * content-type and component tables, `_lnk` join tables (owner side only), `<table>_cmps`
 * component joins, the upload morph table `files_related_mph`, Strapi's internal models and its
 * bookkeeping tables; with `deliveryQueue`, Cairn's webhook delivery queue too (when it lives in
 * this database).
 */
export function planTables(schema: Schema, options: { readonly deliveryQueue: boolean }): TableSpec[] {
  const tables: TableSpec[] = [];
  for (const model of [...schema.contentTypes.values(), ...schema.components.values()]) {
    const { componentLinks, table, links } = modelTables(schema, model);
    tables.push(table, ...(componentLinks ? [componentLinks] : []), ...links);
  }
  tables.push(...INTERNAL_MODEL_TABLES, ...BOOKKEEPING_TABLES);
  if (options.deliveryQueue) tables.push(WEBHOOK_DELIVERIES_TABLE);
  return tables;
}

/** The tables one model brings: its own, its `_cmps` table (components, dynamic zones) and the link tables it owns. */
export interface ModelTables {
  readonly table: TableSpec;
  readonly componentLinks: TableSpec | null;
  /** `_lnk` tables of the relations it owns and, for the upload file, `files_related_mph`; in attribute order. */
  readonly links: readonly TableSpec[];
}

/** The tables of one model, in the order Strapi's database layer derives them. */
export function modelTables(schema: Schema, model: Model): ModelTables {
  const hasComponents = [...model.attributes.values()].some((a) => a.type === 'component' || a.type === 'dynamiczone');
  const links = joinTables(schema, model);
  if (model.uid === 'plugin::upload.file') links.unshift(mediaMorphTable());
  return {
    table: modelTable(schema, model),
    componentLinks: hasComponents ? componentJoinTable(model.table) : null,
    links,
  };
}

const SCALAR_COLUMN_TYPES: Readonly<Record<ScalarType, ColumnType>> = {
  string: 'string',
  password: 'string',
  email: 'string',
  enumeration: 'string',
  uid: 'string',
  text: 'text',
  richtext: 'text',
  blocks: 'jsonb',
  json: 'jsonb',
  integer: 'integer',
  biginteger: 'bigInteger',
  float: 'double',
  decimal: 'decimal',
  date: 'date',
  time: 'time',
  datetime: 'datetime',
  timestamp: 'timestamp',
  boolean: 'boolean',
};

const column = (name: string, type: ColumnType, unsigned = false): ColumnSpec => ({ name, type, unsigned });
const index = (name: string, columns: string[], unique = false): IndexSpec => ({ name, columns, unique });
const cairnIndex = (name: string, columns: string[], where?: IndexSpec['where']): IndexSpec => ({
  name,
  columns,
  unique: false,
  cairnOnly: true,
  ...(where && { where }),
});

/**
 * Indexes Cairn adds to Strapi's layout where a lookup runs on every request: refresh-mode access
 * tokens find their session by id, refresh and logout by user. Strapi's own schema sync ignores
 * indexes it does not know; if it drops them, Cairn recreates them at the next start.
 */
const EXTRA_INDEXES: Readonly<Record<string, readonly IndexSpec[]>> = {
  strapi_sessions: [
    cairnIndex('strapi_sessions_session_id_idx', ['session_id']),
    cairnIndex('strapi_sessions_user_id_idx', ['user_id']),
  ],
};

function modelTable(schema: Schema, model: Model): TableSpec {
  const columns: ColumnSpec[] = [column('id', 'increments')];
  const foreignKeyIndexes: IndexSpec[] = [];
  const foreignKeys: ForeignKeySpec[] = [];
  if (model.modelType === 'contentType') columns.push(column('document_id', 'string'));
  for (const attribute of model.attributes.values()) {
    if (isScalar(attribute)) {
      columns.push(column(attribute.column, SCALAR_COLUMN_TYPES[attribute.type]));
    } else if (attribute.type === 'relation') {
      const link = relationLink(schema, model, attribute);
      if (link?.kind !== 'joinColumn') continue;
      columns.push(column(link.column, 'integer', true));
      const name = identifier([model.table, link.column], { suffix: 'fk' });
      foreignKeyIndexes.push(index(name, [link.column]));
      foreignKeys.push({
        name,
        columns: [link.column],
        referencedTable: link.targetTable,
        referencedColumns: ['id'],
        onDelete: 'SET NULL',
      });
    }
  }
  // Strapi's order: the type's own indexes, the document lookup index, then the join columns' indexes.
  const indexes: IndexSpec[] = [];
  if (model.modelType === 'contentType') {
    for (const declared of model.indexes) {
      indexes.push({
        name: declared.name,
        columns: declared.columns,
        unique: declared.type === 'unique',
        ...(declared.type === null ? { typeNull: true } : {}),
      });
    }
    indexes.push(index(documentIndex(model.table), ['document_id', 'locale', 'published_at']));
    if (model.localized) indexes.push(...localeIndexes(model));
  }
  indexes.push(...foreignKeyIndexes, ...(EXTRA_INDEXES[model.table] ?? []));
  return { name: model.table, columns, indexes, foreignKeys };
}

/**
 * Not in Strapi's layout: every list of a localized type reads one locale's published (or draft)
 * rows, and counts them. With one index per status on `locale` (partial where the database has
 * them), a page is read in id order from that locale's entries and its total counted from the
 * index alone, instead of scanning the table's every locale and status.
 */
function localeIndexes(model: ContentType): IndexSpec[] {
  if (!model.draftAndPublish) return [cairnIndex(identifier([model.table, 'locale'], { suffix: 'idx' }), ['locale'])];
  return [
    cairnIndex(identifier([model.table, 'published_locale'], { suffix: 'idx' }), ['locale'], {
      column: 'published_at',
      is: 'notNull',
    }),
    cairnIndex(identifier([model.table, 'draft_locale'], { suffix: 'idx' }), ['locale'], {
      column: 'published_at',
      is: 'null',
    }),
  ];
}

function joinTables(schema: Schema, model: Model): TableSpec[] {
  const tables: TableSpec[] = [];
  for (const attribute of model.attributes.values()) {
    if (attribute.type !== 'relation' || attribute.target === undefined) continue;
    const link = relationLink(schema, model, attribute);
    const target = schema.contentTypes.get(attribute.target);
    if (link?.kind !== 'joinTable' || !link.owner || !target) continue;
    const fk = identifier(link.table, { suffix: 'fk' });
    const ifk = identifier(link.table, { suffix: 'inv_fk' });
    const columns = [
      column('id', 'increments'),
      column(link.sourceColumn, 'integer', true),
      column(link.targetColumn, 'integer', true),
    ];
    const indexes = [
      index(fk, [link.sourceColumn]),
      index(ifk, [link.targetColumn]),
      index(identifier(link.table, { suffix: 'unique' }), [link.sourceColumn, link.targetColumn], true),
      // Not in Strapi's layout: a filter through the relation (`filters[author][name]…`) reads the
      // sources linked to the matching targets, `select article_id … where author_id = ?`, which
      // this answers from the index alone; Strapi's index on the target column alone reads every
      // matching link row besides.
      cairnIndex(identifier(link.table, { suffix: 'tgt_src_idx' }), [link.targetColumn, link.sourceColumn]),
    ];
    if (link.orderColumn !== undefined) {
      columns.push(column(link.orderColumn, 'double', true));
      indexes.push(index(identifier(link.table, { suffix: 'order_fk' }), [link.orderColumn]));
    }
    if (link.inverseOrderColumn !== undefined) {
      columns.push(column(link.inverseOrderColumn, 'double', true));
      indexes.push(index(identifier(link.table, { suffix: 'order_inv_fk' }), [link.inverseOrderColumn]));
      // Not in Strapi's layout: appending a link to a target's list reads the target's largest
      // inverse order, which this answers without scanning every link of a popular target.
      indexes.push(
        cairnIndex(identifier(link.table, { suffix: 'inv_ord_idx' }), [link.targetColumn, link.inverseOrderColumn]),
      );
    }
    tables.push({
      name: link.table,
      columns,
      indexes,
      foreignKeys: [
        {
          name: fk,
          columns: [link.sourceColumn],
          referencedTable: model.table,
          referencedColumns: ['id'],
          onDelete: 'CASCADE',
        },
        {
          name: ifk,
          columns: [link.targetColumn],
          referencedTable: target.table,
          referencedColumns: ['id'],
          onDelete: 'CASCADE',
        },
      ],
    });
  }
  return tables;
}

/** `<table>_cmps(id, entity_id, cmp_id, component_type, field, order)`: components and dynamic zones. */
function componentJoinTable(ownerTable: string): TableSpec {
  const name = identifier(ownerTable, { suffix: 'components' });
  const fk = identifier([ownerTable, 'entity'], { suffix: 'fk' });
  return {
    name,
    columns: [
      column('id', 'increments'),
      column('entity_id', 'integer', true),
      column('cmp_id', 'integer', true),
      column('component_type', 'string'),
      column('field', 'string'),
      column('order', 'double', true),
    ],
    indexes: [
      index(identifier([ownerTable, 'field'], { suffix: 'index' }), ['field']),
      index(identifier([ownerTable, 'component_type'], { suffix: 'index' }), ['component_type']),
      index(fk, ['entity_id']),
      index(identifier([ownerTable], { suffix: 'unique' }), ['entity_id', 'cmp_id', 'field', 'component_type'], true),
    ],
    foreignKeys: [
      { name: fk, columns: ['entity_id'], referencedTable: ownerTable, referencedColumns: ['id'], onDelete: 'CASCADE' },
    ],
  };
}

/**
 * Strapi's index of a content type's rows by document (`document_id`, `locale`, `published_at`):
 * a write locks the rows of its document through it (documents/write-locks.ts).
 */
export function documentIndex(table: string): string {
  return identifier([table, 'documents'], { suffix: 'index' });
}

/** The media morph table: `files_related_mph`. */
export const MEDIA_MORPH_TABLE = identifier(['files', 'related'], { suffix: 'morphs' });
/** Its file id column: `file_id`. */
export const MEDIA_FILE_COLUMN = identifier(snakeCase('file'), { suffix: 'id' });
/**
 * Cairn's index of `files_related_mph` by row (`related_id`, `related_type`, `field`): a row's
 * media are read and replaced through it (documents/write-media.ts deleteMorphRows).
 */
export const MEDIA_MORPH_ROW_INDEX = identifier(MEDIA_MORPH_TABLE, { suffix: 'related_idx' });

/** `files_related_mph`: which row (`related_type` uid + `related_id`) uses which file, in which field. */
function mediaMorphTable(): TableSpec {
  const name = MEDIA_MORPH_TABLE;
  const fileColumn = MEDIA_FILE_COLUMN;
  const fk = identifier(name, { suffix: 'fk' });
  return {
    name,
    columns: [
      column('id', 'increments'),
      column(fileColumn, 'integer', true),
      column('related_id', 'integer', true),
      column('related_type', 'string'),
      column('field', 'string'),
      column('order', 'double', true),
    ],
    indexes: [
      index(fk, [fileColumn]),
      index(identifier(name, { suffix: 'order_index' }), ['order']),
      index(identifier(name, { suffix: 'id_column_index' }), ['related_id']),
      // Not in Strapi's layout: a row's media (`related_id = ? and related_type = ? and field = ?`)
      // read or replaced without visiting the morph rows of every other type's row of that id. On
      // MySQL, replacing them locks only the rows it deletes: with the index on `related_id`
      // alone, writes of unrelated rows (an article and a component of the same id) locked each
      // other's morph rows, and racing media writes deadlocked (a delete is told to read through
      // this index there: MySQL's planner sometimes picks the shorter one).
      cairnIndex(MEDIA_MORPH_ROW_INDEX, ['related_id', 'related_type', 'field']),
    ],
    foreignKeys: [
      { name: fk, columns: [fileColumn], referencedTable: 'files', referencedColumns: ['id'], onDelete: 'CASCADE' },
    ],
  };
}
