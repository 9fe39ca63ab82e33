import { NotFoundError } from '../../core/errors.js';
import { rowIdParam } from '../../core/row-id-param.js';
import { planPopulate, planPopulateCount } from '../../plan/plan-populate.js';
import { allOf, type Condition, type SelectPlan } from '../../plan/plan-types.js';
import { eq, simpleSelect } from '../../plan/simple-plans.js';
import type { Status } from '../../query/query-types.js';
import type { Model } from '../../schema/types.js';
import { shapeRows, type Document } from '../../shape/shape-rows.js';
import { compileSelect } from '../../sql/compile-read.js';
import type { CmReadDeps } from './cm-read-deps.js';

/** Which row of a model a relation picker asks about. */
export interface SourceRow {
  /** A content type's document (its draft or published version, in a locale when given), or a component row's id. */
  readonly id: string;
  readonly status: Status;
  readonly locale: string | null;
}

/** One page of the documents a row links to, and how many it links to in all. */
export interface LinkedPage {
  readonly documents: Document[];
  readonly total: number;
}

/**
 * The row id of the source a relation picker names: the document's version in the status (and
 * locale, when given and the type is localized), or the component row itself (components have
 * no documentId; the panel names the row by id). NotFoundError when there is none.
 */
export async function sourceRowId(deps: CmReadDeps, model: Model, source: SourceRow): Promise<number> {
  const { db } = deps;
  let where: Condition | null;
  if (model.modelType === 'component') {
    // An id past the id column's range names no row (PostgreSQL would refuse to compare it).
    const id = rowIdParam(source.id);
    if (id === null) throw new NotFoundError();
    where = eq('id', id, 'integer');
  } else {
    where = allOf([
      eq('document_id', source.id),
      model.draftAndPublish
        ? {
            kind: 'compare',
            column: { alias: '', column: 'published_at' },
            op: source.status === 'published' ? 'notNull' : 'null',
            value: true,
            valueKind: 'datetime',
          }
        : null,
      model.localized && source.locale !== null ? eq('locale', source.locale) : null,
    ]);
  }
  const [row] = await db.all(
    compileSelect(
      db.dialect,
      simpleSelect(model.table, { id: ['id', 'integer'] }, where, { limit: 1, orderById: true }),
    ),
  );
  if (!row) throw new NotFoundError();
  return Number(row.id);
}

/**
 * The documents row `rowId` of `model` links to through `field` (with `fields`), as Strapi's
 * relation picker loads them: newest link first (the panel reverses the list), a page of a to-many
 * relation (`page` null: all of a to-one one), linked versions in `status`. Two statements for a
 * to-many relation (the page and a COUNT), one for a to-one one, whatever the number of links.
 */
export async function linkedDocuments(
  deps: CmReadDeps,
  model: Model,
  field: string,
  rowId: number,
  options: {
    readonly fields: readonly string[];
    readonly status: Status;
    readonly page: number;
    readonly pageSize: number;
  },
): Promise<LinkedPage & { readonly toMany: boolean }> {
  const { db, schema } = deps;
  const read = { attribute: field, fields: options.fields, sort: [], filters: null };
  const { hop, select } = planPopulate(schema, model, read, [rowId], options.status);
  const newestFirst: SelectPlan = {
    ...select,
    orderBy: select.orderBy.map((term) => ({ ...term, direction: 'desc' })),
    ...(hop.toMany ? { limit: options.pageSize, offset: (options.page - 1) * options.pageSize } : {}),
  };
  const [rows, counted] = await Promise.all([
    db.all(compileSelect(db.dialect, newestFirst)),
    hop.toMany
      ? db.all(compileSelect(db.dialect, planPopulateCount(schema, model, read, [rowId], options.status)))
      : null,
  ]);
  // The link's hidden columns (parent key, order) are left out.
  const documents = shapeRows(rows, newestFirst.columns);
  const total = counted ? Number(counted[0]?.count ?? 0) : documents.length;
  return { documents, total, toMany: hop.toMany };
}
