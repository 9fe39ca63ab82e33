import { inOneSnapshot } from '../../db/database.js';
import { hopOf } from '../../plan/hops.js';
import { planCount, planSelect, ROOT_ALIAS } from '../../plan/plan-read.js';
import { allOf, type Condition } from '../../plan/plan-types.js';
import type { Query } from '../../query/query-types.js';
import type { ContentType, Model, Schema } from '../../schema/types.js';
import { shapeRows, type Document } from '../../shape/shape-rows.js';
import { compileCount, compileSelect } from '../../sql/compile-read.js';
import type { CmReadDeps } from './cm-read-deps.js';

/** The source whose links the "available" relation picker leaves out: the document (or component row) being edited. */
export interface EditedSource {
  readonly model: Model;
  /** The relation attribute of `model` the picker fills. */
  readonly field: string;
  /**
   * A content type's document, every version of it in the form's locale (rows of a localized
   * source in other locales are not looked at; null: any locale), or a component row.
   */
  readonly rows: { readonly documentId: string; readonly locale: string | null } | { readonly rowId: number };
  /** Target row ids the form just unlinked (`idsToInclude`): offered again though still linked. */
  readonly unlinked: readonly number[];
}

/** One page of the documents a relation picker offers, and how many it offers in all. */
export interface AvailablePage {
  readonly documents: Document[];
  readonly pagination: { page: number; pageSize: number; pageCount: number; total: number };
}

const LINK_ALIAS = 'xl';
const SOURCE_ALIAS = 'xs';

const columnsEqual = (left: string, leftColumn: string, right: string, rightColumn: string): Condition => ({
  kind: 'compareColumns',
  left: { alias: left, column: leftColumn },
  op: 'eq',
  right: { alias: right, column: rightColumn },
});

const compare = (column: string, value: unknown, valueKind: 'string' | 'integer'): Condition => ({
  kind: 'compare',
  column: { alias: SOURCE_ALIAS, column },
  op: 'eq',
  value,
  valueKind,
});

/**
 * The condition on a target row (`t0`) that it is not linked from the edited source, as Strapi's
 * `findAvailable` excludes them with `id NOT IN (<source rows joined to their targets>)`:
 *
 *   (t0.id in (<unlinked>) or not exists (select 1 from <link table> xl join <source table> xs
 *      on xs.id = xl.<source column> where xl.<target column> = t0.id and xs.document_id = ? [and xs.locale = ?]))
 *
 * The source rows are every version of the document in the locale (Strapi does not narrow them
 * to the draft or published one: the target's own status already does, each version linking the
 * targets of its status), or the component row by its id. A relation held in a column of the
 * source row (`created_by_id`) is the same test without the link table.
 */
export function notLinkedFrom(schema: Schema, source: EditedSource): Condition {
  const hop = hopOf(schema, source.model, source.field);
  const { rows, model } = source;
  const localized = model.modelType === 'contentType' && model.localized;
  const sourceRows =
    'rowId' in rows
      ? compare('id', rows.rowId, 'integer')
      : allOf([
          compare('document_id', rows.documentId, 'string'),
          localized && rows.locale !== null ? compare('locale', rows.locale, 'string') : null,
        ]);
  const table = { table: model.table, alias: SOURCE_ALIAS };
  let linked: Condition;
  switch (hop.kind) {
    case 'link':
      linked = {
        kind: 'exists',
        from: { table: hop.table, alias: LINK_ALIAS },
        joins: [{ ...table, on: columnsEqual(SOURCE_ALIAS, 'id', LINK_ALIAS, hop.sourceColumn) }],
        where: allOf([
          columnsEqual(LINK_ALIAS, hop.targetColumn, ROOT_ALIAS, 'id'),
          ...hop.linkConditions(LINK_ALIAS),
          sourceRows,
        ]) as Condition,
      };
      break;
    case 'column':
      linked = {
        kind: 'exists',
        from: table,
        where: allOf([columnsEqual(SOURCE_ALIAS, hop.column, ROOT_ALIAS, 'id'), sourceRows]) as Condition,
      };
      break;
    case 'localizations':
      // A reserved name, never a relation attribute a picker fills (relationOf refuses it).
      return { kind: 'true' };
  }
  const notLinked: Condition = { kind: 'not', child: linked };
  if (source.unlinked.length === 0) return notLinked;
  return {
    kind: 'or',
    children: [
      {
        kind: 'compare',
        column: { alias: ROOT_ALIAS, column: 'id' },
        op: 'in',
        value: source.unlinked,
        valueKind: 'integer',
      },
      notLinked,
    ],
  };
}

/**
 * The page of `target`'s documents a relation picker offers: those `query` selects (status,
 * locale, search, `idsToOmit`, page), less the ones the edited source already links when there is
 * one (notLinkedFrom). Two statements on one snapshot, the page and its COUNT, whatever the
 * number of documents or links.
 */
export async function findAvailable(
  deps: CmReadDeps,
  target: ContentType,
  query: Query,
  source: EditedSource | null,
): Promise<AvailablePage> {
  const { schema, db } = deps;
  const excluded = source ? notLinkedFrom(schema, source) : null;
  const select = planSelect(schema, target, query);
  const count = planCount(schema, target, query);
  const selectSql = compileSelect(db.dialect, { ...select, where: allOf([select.where, excluded]) });
  const countSql = compileCount(db.dialect, { ...count, where: allOf([count.where, excluded]) });
  const [rows, counted] = await inOneSnapshot(db, (exec) => Promise.all([exec.all(selectSql), exec.all(countSql)]));
  const total = Number(counted[0]?.count ?? 0);
  const { page, pageSize } =
    query.pagination.mode === 'page' ? query.pagination : { page: 1, pageSize: Math.max(rows.length, 1) };
  return {
    documents: shapeRows(rows, select.columns),
    pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total },
  };
}
