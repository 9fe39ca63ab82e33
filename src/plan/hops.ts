import { relationLink } from '../schema/links.js';
import { MEDIA_FILE_COLUMN, MEDIA_MORPH_TABLE } from '../schema/tables.js';
import { identifier } from '../schema/naming.js';
import { getModel, type ContentType, type Model, type Schema } from '../schema/types.js';
import type { Status } from '../query/query-types.js';
import { allOf, type Condition, type JoinClause, type TableRef } from './plan-types.js';

/**
 * How rows of one model reach the rows an attribute points to — the single description used by
 * deep filters, relation sorts and populate, so the three always agree.
 *
 * - `link`: a table of (source id, target id) pairs: a relation's `_lnk` table, the owner's
 *   `_cmps` table for components and dynamic zones (with `field` and `component_type`), or
 *   `files_related_mph` for media (with `related_type` and `field`).
 * - `column`: the target id is a column of the source row (`created_by_id`).
 * - `localizations`: rows of the same document in the same table. Populated, the other locales'
 *   rows (in the status read); filtered through, every row of the document (see hopRows).
 */
export type Hop =
  | {
      readonly kind: 'link';
      readonly target: Model;
      readonly toMany: boolean;
      readonly table: string;
      readonly sourceColumn: string;
      readonly targetColumn: string;
      readonly orderColumn: string | null;
      /**
       * Every source row has at most one link: a oneToOne or manyToOne relation (writes keep one
       * target document, as Strapi's do) to a type with one row per document, without locales or
       * draft & publish (a link may reach several locales of the document, and databases written
       * before publishing replaced the published sources' link may hold two). A filter may then
       * join the links without repeating source rows.
       */
      readonly oneLinkPerSource: boolean;
      /** Extra link-row conditions (`field = 'seo'`, `component_type = 'shared.seo'`…), by link alias. */
      readonly linkConditions: (alias: string) => readonly Condition[];
    }
  | { readonly kind: 'column'; readonly target: Model; readonly toMany: false; readonly column: string }
  | { readonly kind: 'localizations'; readonly target: ContentType; readonly toMany: true };

const MEDIA_UID = 'plugin::upload.file';
const text = (alias: string, column: string, value: string): Condition => ({
  kind: 'compare',
  column: { alias, column },
  op: 'eq',
  value,
  valueKind: 'string',
});
const residual = (condition: Condition): Condition =>
  condition.kind === 'compare' ? { ...condition, residual: true } : condition;

/** The owner table's component join table: `<table>_cmps`. */
export function componentJoinTable(ownerTable: string): string {
  return identifier(ownerTable, { suffix: 'components' });
}

/**
 * The hop through attribute `name` of `model`. For a dynamic zone, `component` names the member
 * to reach. Throws for attributes that lead nowhere (scalars, morph relations): callers only
 * ask for attributes the query layer already validated.
 */
export function hopOf(schema: Schema, model: Model, name: string, component?: string): Hop {
  if (name === 'localizations' && model.modelType === 'contentType' && model.localized)
    return { kind: 'localizations', target: model, toMany: true };
  const attribute = model.attributes.get(name);
  if (!attribute) throw new Error(`${model.uid} has no attribute "${name}"`);
  switch (attribute.type) {
    case 'relation': {
      const target = attribute.target ? getModel(schema, attribute.target) : undefined;
      const link = relationLink(schema, model, attribute);
      if (!target || !link) throw new Error(`${model.uid}.${name} has no resolvable target`);
      if (link.kind === 'joinColumn') return { kind: 'column', target, toMany: false, column: link.column };
      const toOne = attribute.relation === 'oneToOne' || attribute.relation === 'manyToOne';
      return {
        kind: 'link',
        target,
        toMany: attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany',
        oneLinkPerSource:
          toOne && !(target.modelType === 'contentType' && (target.localized || target.draftAndPublish)),
        table: link.table,
        sourceColumn: link.sourceColumn,
        targetColumn: link.targetColumn,
        orderColumn: link.orderColumn ?? null,
        linkConditions: () => [],
      };
    }
    case 'component':
    case 'dynamiczone': {
      const uid = attribute.type === 'component' ? attribute.component : component;
      const target = uid ? schema.components.get(uid) : undefined;
      if (!uid || !target) throw new Error(`${model.uid}.${name} needs a component to reach`);
      return {
        kind: 'link',
        target,
        toMany: attribute.type === 'dynamiczone' || attribute.repeatable,
        table: componentJoinTable(model.table),
        sourceColumn: 'entity_id',
        targetColumn: 'cmp_id',
        orderColumn: 'order',
        oneLinkPerSource: false,
        // field/component_type have a handful of values: filters on the parents' link rows, never the index to read.
        linkConditions: (alias) => [residual(text(alias, 'field', name)), residual(text(alias, 'component_type', uid))],
      };
    }
    case 'media': {
      const target = schema.contentTypes.get(MEDIA_UID);
      if (!target) throw new Error('the upload plugin content type is missing');
      return {
        kind: 'link',
        target,
        toMany: attribute.multiple,
        table: MEDIA_MORPH_TABLE,
        sourceColumn: 'related_id',
        targetColumn: MEDIA_FILE_COLUMN,
        orderColumn: 'order',
        oneLinkPerSource: false,
        linkConditions: (alias) => [text(alias, 'related_type', model.uid), text(alias, 'field', name)],
      };
    }
    default:
      throw new Error(`${model.uid}.${name} is not a relation, component, media or dynamic zone`);
  }
}

/**
 * The version of a draft & publish target a request at `status` sees; nothing for other models,
 * nor for a row-level read (`status` null: the Query Engine follows links to whichever rows they name).
 */
export function statusCondition(model: Model, alias: string, status: Status | null): Condition | null {
  if (status === null || model.modelType !== 'contentType' || !model.draftAndPublish) return null;
  return {
    kind: 'compare',
    column: { alias, column: 'published_at' },
    op: status === 'draft' ? 'null' : 'notNull',
    value: true,
    valueKind: 'datetime',
  };
}

/** The target rows of a hop, reached from the row `sourceAlias` of the outer statement. */
export interface HopRows {
  readonly from: TableRef;
  readonly joins: readonly JoinClause[];
  /** Correlates the target rows with the outer row and applies link and status conditions. */
  readonly where: Condition;
  /** The link row alias (for ordering), or null when the hop has no link table. */
  readonly linkAlias: string | null;
  /** The draft & publish condition on the target rows alone (part of `where`), if any. */
  readonly targetStatus: Condition | null;
}

/**
 * `FROM target t JOIN link l ON l.target = t.id WHERE l.source = <source>.id AND …`, or the
 * equivalent for column and localization hops. `targetAlias`/`linkAlias` must be unique in the
 * statement.
 *
 * Through `localizations`, Strapi 5 joins the table to itself on `document_id` alone (the
 * attribute's join column), so a filter matches when any row of the document does: its own row,
 * its other locales and their drafts and published versions alike (`filters[localizations][title]`
 * on an English article also tests the English title and the English draft's).
 */
export function hopRows(
  hop: Hop,
  source: { alias: string; table: string },
  targetAlias: string,
  linkAlias: string,
  status: Status | null,
): HopRows {
  const from = { table: hop.target.table, alias: targetAlias };
  const statusOfTarget = statusCondition(hop.target, targetAlias, status);
  switch (hop.kind) {
    case 'link':
      return {
        from,
        joins: [
          { table: hop.table, alias: linkAlias, on: columnsEqual(linkAlias, hop.targetColumn, targetAlias, 'id') },
        ],
        where: allOf([
          columnsEqual(linkAlias, hop.sourceColumn, source.alias, 'id'),
          ...hop.linkConditions(linkAlias),
          statusOfTarget,
        ]) as Condition,
        linkAlias,
        targetStatus: statusOfTarget,
      };
    case 'column':
      return {
        from,
        joins: [],
        where: allOf([columnsEqual(targetAlias, 'id', source.alias, hop.column), statusOfTarget]) as Condition,
        linkAlias: null,
        targetStatus: statusOfTarget,
      };
    case 'localizations':
      return {
        from,
        joins: [],
        where: columnsEqual(targetAlias, 'document_id', source.alias, 'document_id'),
        linkAlias: null,
        targetStatus: null,
      };
  }
}

export function columnsEqual(
  leftAlias: string,
  leftColumn: string,
  rightAlias: string,
  rightColumn: string,
): Condition {
  return {
    kind: 'compareColumns',
    left: { alias: leftAlias, column: leftColumn },
    op: 'eq',
    right: { alias: rightAlias, column: rightColumn },
  };
}

/** The target rows of a hop for a set of parent rows, with the parent key of each row. */
export interface ParentRows {
  readonly from: TableRef;
  readonly joins: readonly JoinClause[];
  readonly where: Condition;
  /** The column holding the parent row id of each result row. */
  readonly parentKey: { readonly alias: string; readonly column: string };
  /** Link-table order and id, when the hop has a link table (to keep the stored order). */
  readonly linkOrder: { readonly alias: string; readonly orderColumn: string | null } | null;
}

/**
 * `FROM target t JOIN link l ON l.target = t.id WHERE l.source IN (<parent ids>) AND …` — the
 * related rows of many parents in one statement (populate never runs one query per row).
 * Column and localization hops join back to the parent table (`p`) instead of a link table.
 */
export function hopRowsForParents(
  hop: Hop,
  parentTable: string,
  parentIds: readonly number[],
  aliases: { target: string; link: string; parent: string },
  status: Status | null,
): ParentRows {
  const from = { table: hop.target.table, alias: aliases.target };
  const statusOfTarget = statusCondition(hop.target, aliases.target, status);
  const parentIn = (alias: string, column: string): Condition => ({
    kind: 'compare',
    column: { alias, column },
    op: 'in',
    value: parentIds,
    valueKind: 'integer',
  });
  switch (hop.kind) {
    case 'link':
      return {
        from,
        joins: [
          {
            table: hop.table,
            alias: aliases.link,
            on: columnsEqual(aliases.link, hop.targetColumn, aliases.target, 'id'),
          },
        ],
        where: allOf([
          parentIn(aliases.link, hop.sourceColumn),
          ...hop.linkConditions(aliases.link),
          statusOfTarget,
        ]) as Condition,
        parentKey: { alias: aliases.link, column: hop.sourceColumn },
        linkOrder: { alias: aliases.link, orderColumn: hop.orderColumn },
      };
    case 'column':
      return {
        from,
        joins: [
          {
            table: parentTable,
            alias: aliases.parent,
            on: columnsEqual(aliases.parent, hop.column, aliases.target, 'id'),
          },
        ],
        where: allOf([parentIn(aliases.parent, 'id'), statusOfTarget]) as Condition,
        parentKey: { alias: aliases.parent, column: 'id' },
        linkOrder: null,
      };
    case 'localizations':
      return {
        from,
        joins: [
          {
            table: parentTable,
            alias: aliases.parent,
            on: allOf([
              columnsEqual(aliases.parent, 'document_id', aliases.target, 'document_id'),
              {
                kind: 'not',
                child: {
                  kind: 'sameValue',
                  left: { alias: aliases.target, column: 'locale' },
                  right: { alias: aliases.parent, column: 'locale' },
                },
              },
            ]) as Condition,
          },
        ],
        where: allOf([parentIn(aliases.parent, 'id'), statusOfTarget]) as Condition,
        parentKey: { alias: aliases.parent, column: 'id' },
        linkOrder: null,
      };
  }
}
