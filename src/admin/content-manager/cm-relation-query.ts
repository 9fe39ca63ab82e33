import { fieldValidationError, type FieldError } from '../../core/errors.js';
import { rowIdParam } from '../../core/row-id-param.js';
import { castNumber, typeErrorMessage } from '../../validation/scalar-rules.js';

/**
 * A relation picker's query once checked: its page (1-based), page size (at most 100), locale and
 * status; for the "available" picker also the search, the document being edited and the row ids
 * its form linked or unlinked but has not saved.
 */
export interface RelationPickerQuery {
  readonly page: number;
  readonly pageSize: number;
  readonly locale: string | null;
  readonly status: 'draft' | 'published' | null;
  /** The search on the target's main field (`_q`), null when none. */
  readonly search: string | null;
  /** `id`: the edited document's documentId (a component row's id), null when creating one. */
  readonly source: string | null;
  /** `idsToOmit`: target row ids the form just linked (never offered again). */
  readonly omit: readonly number[];
  /** `idsToInclude`: target row ids the form just unlinked (offered again though still linked). */
  readonly include: readonly number[];
}

/** Which picker: what a relation may point to, or what a document points to now. */
export type RelationPickerKind = 'available' | 'existing';

/** One field's check: its problems (yup stops a field at its type error, else reports every test that fails). */
type Check = (value: unknown, name: string) => FieldError[];

const problem = (name: string, message: string, value: unknown): FieldError => ({
  path: [name],
  message,
  name: 'ValidationError',
  ...(value === undefined ? {} : { value }),
});

/** yup's type error; a null on a schema that is not nullable gets yup's hint appended. */
function typeProblem(name: string, type: string, value: unknown, original: unknown): FieldError {
  const hint =
    value === null ? '\n If "null" is intended as an empty value be sure to mark the schema as `.nullable()`' : '';
  return problem(name, `${typeErrorMessage(name, type, value, original)}${hint}`, value);
}

/** yup's non-strict `string()` cast: strings stay, arrays and plain objects stay (and fail), others go through toString. */
function castString(value: unknown): unknown {
  if (typeof value === 'string' || value === null || value === undefined || Array.isArray(value)) return value;
  if (typeof value === 'object' && Object.prototype.toString.call(value) === '[object Object]') return value;
  return String(value);
}

const string =
  (options: { nullable: boolean; oneOf?: readonly string[] }): Check =>
  (raw, name) => {
    if (raw === undefined) return [];
    const value = castString(raw);
    if (value === null ? !options.nullable : typeof value !== 'string')
      return [typeProblem(name, 'string', value, raw)];
    if (options.oneOf && !options.oneOf.includes(value as string))
      return [problem(name, `${name} must be one of the following values: ${options.oneOf.join(', ')}`, value)];
    return [];
  };

/** Strapi's `yup.strapiID()`: a string, or a non-negative integer. */
const strapiId: Check = (value, name) =>
  value === undefined ||
  typeof value === 'string' ||
  (typeof value === 'number' && Number.isInteger(value) && value >= 0)
    ? []
    : [typeProblem(name, 'strapiID', value, value)];

/** yup's non-strict `array()` cast: a string is read as JSON, anything that is then no array becomes null. */
function castArray(value: unknown): unknown {
  let read = value;
  if (typeof read === 'string') {
    try {
      read = JSON.parse(read);
    } catch {
      read = null;
    }
  }
  return Array.isArray(read) ? read : null;
}

/** `yup.array().of(strapiID())`: a list (see castArray), each item reported as `name[index]`. */
const idList: Check = (raw, name) => {
  if (raw === undefined) return [];
  const value = castArray(raw);
  if (!Array.isArray(value)) return [typeProblem(name, 'array', value, raw)];
  return value.flatMap((item: unknown, index) =>
    strapiId(item, `${name}[${index}]`).map((error) => ({ ...error, path: [name, String(index)] })),
  );
};

/** `yup.number().integer().min(1)`, with `.max(max)` when given. */
const count =
  (max?: number): Check =>
  (raw, name) => {
    if (raw === undefined) return [];
    const value = castNumber(raw);
    if (Number.isNaN(value)) return [typeProblem(name, 'number', value, raw)];
    return [
      ...(Number.isInteger(value) ? [] : [problem(name, `${name} must be an integer`, value)]),
      ...(value < 1 ? [problem(name, `${name} must be greater than or equal to 1`, value)] : []),
      ...(max !== undefined && value > max
        ? [problem(name, `${name} must be less than or equal to ${max}`, value)]
        : []),
    ];
  };

const STATUS = string({ nullable: true, oneOf: ['published', 'draft'] });
const LOCALE = string({ nullable: true });

/**
 * Strapi's `validateFindAvailable` and `validateFindExisting` (content-manager
 * controllers/validation/relations.ts), in the order yup reports their errors.
 */
const SCHEMAS: Readonly<Record<RelationPickerKind, readonly (readonly [string, Check])[]>> = {
  available: [
    ['component', string({ nullable: false })],
    ['id', strapiId],
    ['_q', string({ nullable: false })],
    ['idsToOmit', idList],
    ['idsToInclude', idList],
    ['page', count()],
    ['pageSize', count(100)],
    ['locale', LOCALE],
    ['status', STATUS],
  ],
  existing: [
    ['page', count()],
    ['pageSize', count(100)],
    ['locale', LOCALE],
    ['status', STATUS],
  ],
};

/**
 * A relation picker's query string, checked as Strapi checks it before anything else (so even for
 * a model that does not exist): page and pageSize positive integers, pageSize at most 100, status
 * `published` or `draft`, strings where strings are due. Every problem is one entry of a 400
 * ValidationError's `details.errors`; its message is the only problem's, or `N errors occurred`.
 *
 * Listed ids that cannot name a row (`abc`, `-1`, past the id columns' range) name none, and
 * are left out of `omit` and `include`.
 *
 *   { page: '2', pageSize: '5' } → { page: 2, pageSize: 5, locale: null, status: null, search: null, source: null, … }
 *   { id: 'abc', idsToOmit: ['3', 'x'] } → { source: 'abc', omit: [3], include: [], … }
 *   { pageSize: '101' }          → 400 `pageSize must be less than or equal to 100`
 *   { status: 'bogus' }          → 400 `status must be one of the following values: published, draft`
 *   { idsToOmit: '5' }           → 400 `idsToOmit must be a \`array\` type, but the final value was: \`null\` …`
 */
export function relationPickerQuery(
  raw: Readonly<Record<string, unknown>>,
  kind: RelationPickerKind,
): RelationPickerQuery {
  const errors = SCHEMAS[kind].flatMap(([name, check]) => check(raw[name], name));
  if (errors.length > 0) throw fieldValidationError(errors);
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const available = kind === 'available';
  return {
    page: raw.page === undefined ? 1 : castNumber(raw.page),
    pageSize: raw.pageSize === undefined ? 10 : castNumber(raw.pageSize),
    locale: text(raw.locale),
    status: raw.status === 'published' || raw.status === 'draft' ? raw.status : null,
    search: available ? text(raw._q) : null,
    source: available && (typeof raw.id === 'string' || typeof raw.id === 'number') ? text(String(raw.id)) : null,
    omit: available ? rowIds(raw.idsToOmit) : [],
    include: available ? rowIds(raw.idsToInclude) : [],
  };
}

/** The row ids of a checked id list, without duplicates and without the items that name no row. */
function rowIds(raw: unknown): number[] {
  const items = raw === undefined ? [] : (castArray(raw) as unknown[]);
  return [...new Set(items.map((item) => rowIdParam(String(item))).filter((id): id is number => id !== null))];
}
