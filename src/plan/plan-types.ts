import type { Operator } from '../query/query-types.js';

/**
 * Plans are the database-neutral form of a statement: tables, columns, conditions and logical
 * values. sql/ compiles them per dialect; nothing here knows SQL syntax.
 */

/** How a value is encoded for the database (and how a column is read back). */
export type ValueKind =
  | 'string'
  | 'integer'
  | 'float'
  | 'biginteger'
  | 'boolean'
  | 'date'
  | 'time'
  | 'datetime'
  /** Stored like a datetime; read back as epoch milliseconds in a string, as Strapi outputs it. */
  | 'timestamp'
  | 'json';

/** A column of a table alias in the statement (`t0.title`). */
export interface ColumnRef {
  readonly alias: string;
  readonly column: string;
}

/** A WHERE condition tree. */
export type Condition =
  | { readonly kind: 'and' | 'or'; readonly children: readonly Condition[] }
  | { readonly kind: 'not'; readonly child: Condition }
  | {
      readonly kind: 'compare';
      readonly column: ColumnRef;
      readonly op: Operator;
      readonly value: unknown;
      readonly valueKind: ValueKind;
      /**
       * Only narrows rows another condition finds (`component_type` next to `entity_id IN …`):
       * the database must not choose this column's index as the way in (see Dialect.residual).
       */
      readonly residual?: boolean;
    }
  /** Two columns are equal, NULLs included (`a = b OR (a IS NULL AND b IS NULL)`). */
  | { readonly kind: 'sameValue'; readonly left: ColumnRef; readonly right: ColumnRef }
  /** `left <op> right` between two columns. */
  | {
      readonly kind: 'compareColumns';
      readonly left: ColumnRef;
      readonly op: 'eq' | 'gt' | 'lte';
      readonly right: ColumnRef;
    }
  /** `EXISTS (SELECT 1 FROM from [JOIN …] WHERE where)`. */
  | {
      readonly kind: 'exists';
      readonly from: TableRef;
      readonly joins?: readonly JoinClause[];
      readonly where: Condition;
    }
  /**
   * `column IN (SELECT selected FROM from [JOIN …] WHERE where)`: a semi-join, whose subquery does
   * not refer to the outer row, so the database reads the matching rows once rather than once per
   * outer row. `selected` must never be NULL (a NULL would make `NOT IN` unknown).
   */
  | {
      readonly kind: 'inSelect';
      readonly column: ColumnRef;
      readonly selected: ColumnRef;
      readonly from: TableRef;
      readonly joins?: readonly JoinClause[];
      readonly where: Condition;
      /**
       * No two subquery rows select the same value (a to-one relation's links): a statement may
       * join the subquery's tables instead, without repeating outer rows (sql/semi-join-as-join.ts).
       */
      readonly distinct?: boolean;
    }
  /** `_q`: the term matches any of the columns (LIKE %term%, case-insensitively where the dialect allows). */
  | { readonly kind: 'search'; readonly columns: readonly ColumnRef[]; readonly term: string }
  | { readonly kind: 'true' }
  | { readonly kind: 'false' };

export interface TableRef {
  readonly table: string;
  readonly alias: string;
}

/** `[LEFT] JOIN table AS alias ON on`. */
export interface JoinClause extends TableRef {
  readonly on: Condition;
  readonly left?: boolean;
}

/** One selected column and the key it is read back under. */
export interface SelectColumn {
  readonly column: ColumnRef;
  readonly as: string;
  readonly kind: ValueKind;
  /** `COUNT(column)` / `MAX(column)` instead of the column (with the plan's GROUP BY). */
  readonly aggregate?: 'count' | 'max';
  /**
   * With `aggregate: 'max'`: the largest `column` among rows reached from the outer row, as a
   * scalar subquery `(select max(column) from … where …)` (an index on the path's key and the
   * column answers it without reading the rows).
   */
  readonly through?: RelatedPath;
  /** Read for the server's own use (parent keys, link order), never output. */
  readonly hidden?: boolean;
}

/**
 * Where a sort value comes from when it lives in related rows (`sort=author.name`): the rows
 * reachable from the outer row through `from`/`joins`/`where`. The term sorts by the smallest
 * value ascending and the largest descending, so a to-many path never duplicates outer rows.
 */
export interface RelatedPath {
  readonly from: TableRef;
  readonly joins: readonly JoinClause[];
  readonly where: Condition;
}

export interface OrderTerm {
  readonly column: ColumnRef;
  readonly direction: 'asc' | 'desc';
  readonly kind: ValueKind;
  readonly through?: RelatedPath;
}

/** SELECT … FROM table [JOIN …] WHERE … [GROUP BY …] ORDER BY … LIMIT … OFFSET … */
export interface SelectPlan {
  readonly from: TableRef;
  readonly joins?: readonly JoinClause[];
  readonly columns: readonly SelectColumn[];
  readonly where: Condition | null;
  readonly groupBy?: readonly ColumnRef[];
  readonly orderBy: readonly OrderTerm[];
  readonly limit: number | null;
  readonly offset: number;
  /**
   * A page per parent instead of one page: the rows numbered within each `key` value in `orderBy`
   * order, and only numbers `offset + 1 … offset + limit` kept (`limit: null`: no upper bound).
   * Populate reads of GraphQL's relation arguments (`tags(pagination: …)`) use it.
   */
  readonly perParent?: { readonly key: ColumnRef; readonly offset: number; readonly limit: number | null };
  /** The rows read stay locked until the transaction ends (`FOR UPDATE` where the database has row locks). */
  readonly forUpdate?: boolean;
  /**
   * With `forUpdate`: an index matching the whole condition, which the statement must read its
   * rows through where the database locks every row it reads (Dialect.forcesLockingIndex).
   */
  readonly throughIndex?: string;
}

/** SELECT COUNT(*) FROM table WHERE … */
export interface CountPlan {
  readonly from: TableRef;
  readonly where: Condition | null;
}

/** A row to insert or the changes of an update: column → value with its encoding. */
export type RowValues = ReadonlyMap<string, { readonly value: unknown; readonly kind: ValueKind }>;

export interface InsertPlan {
  readonly table: string;
  readonly rows: readonly RowValues[];
}

/**
 * INSERT INTO table (columns…) SELECT columns… FROM table WHERE … — copies rows in one statement,
 * replacing the `overrides` columns with the given values (e.g. publishing a draft row).
 */
export interface CopyRowsPlan {
  readonly table: string;
  readonly columns: readonly string[];
  readonly overrides: RowValues;
  readonly where: Condition;
}

export interface UpdatePlan {
  readonly table: string;
  readonly set: RowValues;
  readonly where: Condition;
}

export interface DeletePlan {
  readonly table: string;
  readonly where: Condition;
  /**
   * An index matching the whole condition, which the statement must find its rows through where
   * the database locks every row it reads (Dialect.forcesLockingIndex): then it locks no row it
   * does not delete.
   */
  readonly throughIndex?: string;
}

/** `column = value` on the statement's main table (alias-free, for writes). */
export function columnEquals(column: string, value: unknown, valueKind: ValueKind, alias = ''): Condition {
  return { kind: 'compare', column: { alias, column }, op: 'eq', value, valueKind };
}

/** AND of the given conditions, dropping nulls; null when nothing is left. */
export function allOf(conditions: readonly (Condition | null)[]): Condition | null {
  const children = conditions.filter((c): c is Condition => c !== null);
  if (children.length === 0) return null;
  if (children.length === 1) return children[0] ?? null;
  return { kind: 'and', children };
}
